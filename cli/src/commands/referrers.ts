// `adops referrers`: the distinct referrers of a range (default today) under the Referrers
// filter bar's filters; a paged table on a terminal, JSON for scripts, or the SPEC's CSV
// (date YYYY-MM-DD HH:mm, zone_id, source, referrer; BOM).
import React from 'react';
import type { Command } from 'commander';
import {
  DEFAULT_PAGE_SIZE,
  formatDateTime,
  formatInt,
  rangeToInstants,
  referrersCsvName,
  sortRows,
  type ReferrerRow,
  type SortState,
} from '@adops/core';
import type { Cli } from '../context.js';
import { ReportScreen } from '../ui/ReportScreen.js';
import type { Column } from '../ui/Table.js';
import { keyboardAttached, showScreen } from '../ui/screen.js';
import { addFilterOptions, filterLabel, parseSort, rangeLabel, reportingTz, resolveRange, writeCsv, type FilterFlags } from './report-filters.js';

/** The CSV of SPEC §3 (referrers): header names as written there. */
export const REFERRERS_CSV_COLUMNS = [
  { key: 'date', header: 'date' },
  { key: 'zone_id', header: 'zone_id' },
  { key: 'source', header: 'source' },
  { key: 'referrer', header: 'referrer' },
] as const;

const SORT_KEYS = ['seen_at', 'zone_id', 'parent_domain', 'referrer', 'hits'] as const;

interface ReferrersFlags extends FilterFlags {
  csv?: string | true;
  json?: boolean;
  sort?: string;
}

export function registerReferrers(program: Command, cli: Cli): void {
  const cmd = program.command('referrers').description('Referrers: referrers distintos del rango (por defecto hoy), el más reciente primero');
  addFilterOptions(cmd, 'referrers', ['zone', 'advertiser', 'publisher', 'source']);
  cmd
    .option('--sort <key>', `ordena: CLAVE[:asc|desc] (claves: ${SORT_KEYS.join(', ')})`)
    .option('--csv [file]', 'escribe CSV (con BOM); sin FILE, referrers-{inicio}_to_{fin}.csv; "-" = salida estándar')
    .option('--json', 'salida JSON')
    .action(async (flags: ReferrersFlags, command: Command) => {
      const sort = parseSort(flags.sort, SORT_KEYS);
      const tz = reportingTz(cli.io);
      const range = resolveRange(cli.io, 'referrers', flags);
      const { api } = await cli.api(command);
      const { startDate, endDate } = rangeToInstants(range, tz);
      const rows = await api.referrers.report({
        zoneId: flags.zone,
        advertiser: flags.advertiser,
        publisher: flags.publisher,
        parentDomain: flags.source,
        startDate,
        endDate,
      });
      const sorted = sortRows(rows, sort as SortState<keyof ReferrerRow & string> | null);
      if (flags.csv !== undefined) {
        const file = flags.csv === true ? referrersCsvName(range.from, range.to) : flags.csv;
        const csvRows = sorted.map((r) => ({
          date: formatDateTime(r.seen_at, tz),
          zone_id: r.zone_id,
          source: r.parent_domain ?? '',
          referrer: r.referrer ?? '',
        }));
        const written = await writeCsv(cli.io, file, REFERRERS_CSV_COLUMNS, csvRows);
        if (written) cli.say(`${csvRows.length} filas → ${written}`);
        return;
      }
      if (cli.machine(flags.json)) return cli.json({ startDate, endDate, rows: sorted });
      const dash = (v: unknown) => (v == null || v === '' ? '-' : String(v));
      const columns: Column<ReferrerRow>[] = [
        { key: 'seen_at', header: 'Date', format: (v) => formatDateTime(v as string, tz) },
        { key: 'zone_id', header: 'Zone ID', format: dash },
        { key: 'parent_domain', header: 'Source', format: dash, maxWidth: 32 },
        { key: 'referrer', header: 'Referrer', format: dash, maxWidth: 90 },
        { key: 'hits', header: 'Hits', align: 'right', format: (v) => formatInt(v as number) },
      ];
      const interactive = keyboardAttached(cli.io);
      await showScreen(
        cli.io,
        React.createElement(ReportScreen<ReferrerRow>, {
          initial: {
            title: 'Referrers',
            subtitle: [rangeLabel(range), filterLabel(flags)].filter(Boolean).join(' · '),
            columns,
            rows,
            emptyText: 'No hay resultados',
          },
          sortKeys: SORT_KEYS,
          initialSort: sort,
          pageSize: DEFAULT_PAGE_SIZE.referrers,
          interactive,
          rowKey: (r) => JSON.stringify([r.zone_id, r.parent_domain, r.referrer]),
        }),
        interactive,
      );
    });
}
