// `adops referrers`: the distinct referrers of a range (default today) under the Referrers
// filter bar's filters, and their visits against the previous period (the server's
// like-with-like comparison). The server sorts, pages and counts them; a paged table on a terminal,
// or the server's exports for scripts: JSON, or the SPEC's CSV (date YYYY-MM-DD HH:mm,
// zone_id, source, referrer; BOM) with every matching row.
import type { Command } from 'commander';
import {
  DEFAULT_PAGE_SIZE,
  REFERRER_SORT_KEYS,
  SCREEN_PRESETS,
  routes,
  formatDateTimeDMY,
  formatInt,
  rangeToInstants,
  referrersCsvName,
  type ReferrerRow,
  type ReferrerTable,
  type VisitsComparison,
} from '@adops/core/lite';
import type { Cli } from '../context.js';
import type { Column } from '../ui/Table.js';
import { pagingOf } from '../ui/paging.js';
import { totalsRow } from '../ui/columns.js';
import { addFilterOptions, canonicalFilters, filterLabel, rangeLabel, apiAndRange, type FilterFlags, type ResolvedRange } from './report-filters.js';
import { addTableOptions, machineOutput, parseLimit, parseSortFlag, type ServerTable, type TableFlags } from './table-output.js';
import { pageFields, rangeOf, screenPageSize, showTable, sortOf } from './table-screen.js';
import { deltaText } from '../text.js';

/** The columns `s` cycles through on the screen (first_seen is not shown). */
const SCREEN_SORT_KEYS = ['seen_at', 'zone_id', 'parent_domain', 'hits', 'referrer'] as const;

type ReferrersFlags = FilterFlags & TableFlags & { bots?: boolean };

/** 'Visitas 1.234: ▼ 20,00 % hasta las 03:00 frente a ayer a la misma hora (1.542)', or what the server says there is nothing to compare. */
export function visitsText(c: VisitsComparison): string {
  if (!c.current || !c.previous) return `Visitas: ${c.label}`;
  const change = deltaText(c.change_percent).text;
  return `Visitas ${formatInt(c.current.hits)}: ${change} ${c.label} (${formatInt(c.previous.hits)})`;
}

export function registerReferrers(program: Command, cli: Cli): void {
  const cmd = program.command('referrers').description('Referrers: referrers distintos del rango (por defecto hoy), el más reciente primero');
  addFilterOptions(cmd, 'referrers', ['zone', 'advertiser', 'publisher', 'source']);
  cmd.option('--bots', 'incluye el tráfico marcado como bots o spam (por defecto se deja fuera)');
  addTableOptions(cmd, { sortKeys: REFERRER_SORT_KEYS.join(', '), csvDefaultName: 'referrers-{inicio}_to_{fin}.csv' }).action(
    async (flags: ReferrersFlags, command: Command) => {
      const sort = parseSortFlag(flags.sort, REFERRER_SORT_KEYS);
      const limit = parseLimit(flags.limit);
      const { api, range } = await apiAndRange(cli, command, 'referrers', flags);
      const tz = cli.tz;
      // --source is a parent domain here (free text); advertiser and publisher are the zones' owners.
      await canonicalFilters(api, flags, ['advertiser', 'publisher']);
      const body = (r: ResolvedRange) => ({
        zoneId: flags.zone,
        advertiser: flags.advertiser,
        publisher: flags.publisher,
        parentDomain: flags.source,
        ...rangeToInstants(r, tz),
        ...(flags.bots ? { include_bots: true } : {}),
      });
      const table: ServerTable<ReferrerTable> = {
        page: (p) => api.referrers.report({ ...body(range), ...p }),
        open: (format, s, signal, csv) => api.open(routes.referrers.report, { ...body(range), sort: s, format, csv }, { signal }),
      };
      const done = await machineOutput(cli, flags, table, {
        sort,
        limit,
        csvName: () => referrersCsvName(range.from, range.to),
        head: { start_date: range.from, end_date: range.to, ...rangeToInstants(range, tz) },
      });
      if (done) return;
      const dash = (v: unknown) => (v == null || v === '' ? '-' : String(v));
      // SPEC's columns (Date, Zone ID, Source, Referrer) plus Hits, before the long referrer text.
      const columns: Column<ReferrerRow>[] = [
        { key: 'seen_at', header: 'Date', format: (v) => formatDateTimeDMY(v as string, tz) },
        { key: 'zone_id', header: 'Zone ID', format: dash },
        { key: 'parent_domain', header: 'Source', format: dash, maxWidth: 32 },
        { key: 'hits', header: 'Hits', align: 'right', format: (v) => formatInt(v as number) },
        { key: 'referrer', header: 'Referrer', format: dash, maxWidth: 90 },
      ];
      await showTable<ReferrerRow>(cli, {
        columns: flags.columns,
        query: { sort: sortOf(sort), page: 1, pageSize: screenPageSize(cli, limit, DEFAULT_PAGE_SIZE.referrers), preset: range.preset },
        sortKeys: SCREEN_SORT_KEYS,
        presets: SCREEN_PRESETS.referrers,
        rowKey: (r) => JSON.stringify([r.zone_id, r.parent_domain, r.referrer]),
        load: async (q) => {
          const r = rangeOf(cli, range, q.preset);
          const [answer, visits] = await Promise.all([api.referrers.report({ ...body(r), ...pageFields(q) }), api.referrers.comparison(body(r))]);
          return {
            title: 'Referrers',
            subtitle: [rangeLabel(r), filterLabel(flags), flags.bots ? 'con bots' : '', visitsText(visits)].filter(Boolean).join(' · '),
            columns,
            rows: answer.rows,
            totals: answer.rows.length ? totalsRow(answer.totals) : null,
            emptyText: 'No hay resultados',
            paging: pagingOf(answer),
          };
        },
      });
    },
  );
}
