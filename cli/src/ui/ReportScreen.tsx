// A report on the terminal: optional header (cards), a table with totals, sorting keys
// (s cycles the column, r reverses), paging (←/→ or n/p, +/- page size), presets (1–5) that
// reload, and q to quit. Without a keyboard it draws every row once and stops.
import React, { useEffect, useRef, useState, type ReactNode } from 'react';
import { Box, Text, useApp, useInput } from 'ink';
import {
  PAGE_SIZES,
  PRESET_LABELS,
  nextSort,
  pageLabel,
  paginate,
  sortRows,
  type PresetKey,
  type SortState,
} from '@adops/core';
import { Table, type Column } from './Table.js';

/** What a report shows for one range. */
export interface ReportView<Row> {
  title: string;
  /** Range and filters, under the title. */
  subtitle?: string;
  /** Drawn between the title and the table (e.g. the Dashboard's cards). */
  header?: ReactNode;
  /** The table's own title (e.g. 'Analytics'). */
  tableTitle?: string;
  columns: ReadonlyArray<Column<Row>>;
  rows: readonly Row[];
  totals?: Record<string, unknown> | null;
  totalsLabel?: string;
  emptyText?: string;
  /** A warning line (e.g. rows cut at the limit). */
  notice?: string;
  /** Extra tables under the main one (e.g. Finance's publishers and margin). */
  footer?: ReactNode;
}

export interface ReportScreenProps<Row> {
  initial: ReportView<Row>;
  /** Keys the table sorts by, in the order `s` cycles through them. */
  sortKeys: readonly string[];
  initialSort?: SortState | null;
  pageSize: number;
  /** A keyboard is attached: page, sort, switch presets, quit with q. */
  interactive: boolean;
  presets?: readonly PresetKey[];
  /** Reloads the report for a preset (keys 1…N). */
  load?: (preset: PresetKey) => Promise<ReportView<Row>>;
  rowKey?: (row: Row, index: number) => string;
  /**
   * Show the header and the table one at a time (Tab switches): for terminals too short
   * for both, so nothing scrolls off the top.
   */
  split?: boolean;
}

const ARROW = { asc: '▲', desc: '▼' } as const;

/** The footer's key help. */
function keyHelp(presets: readonly PresetKey[] | undefined, sortable: boolean, split: boolean): string {
  const parts = split ? ['Tab resumen/tabla', '←/→ n/p página', '+/- filas'] : ['←/→ n/p página', '+/- filas'];
  if (sortable) parts.push('s ordenar', 'r invertir');
  if (presets?.length) parts.push(presets.map((p, i) => `${i + 1} ${PRESET_LABELS[p]}`).join(' · '));
  parts.push('q salir');
  return parts.join('   ');
}

export function ReportScreen<Row>({
  initial,
  sortKeys,
  initialSort = null,
  pageSize: initialPageSize,
  interactive,
  presets,
  load,
  rowKey,
  split = false,
}: ReportScreenProps<Row>) {
  const { exit } = useApp();
  const [view, setView] = useState(initial);
  const [sort, setSort] = useState<SortState | null>(initialSort);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(initialPageSize);
  const [loading, setLoading] = useState<PresetKey | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [panel, setPanel] = useState<'header' | 'table'>('header');
  const splitPanels = split && interactive && Boolean(view.header);
  const mounted = useRef(true);
  useEffect(() => () => void (mounted.current = false), []);

  const sorted = sortRows(view.rows as Array<Record<string, unknown>>, sort as SortState<string> | null) as Row[];
  const shown = interactive ? paginate(sorted, page, pageSize) : paginate(sorted, 1, Math.max(1, sorted.length));
  const latest = useRef({ shown, sort, pageSize, loading });
  latest.current = { shown, sort, pageSize, loading };

  useInput(
    (input, key) => {
      // Keys can arrive before the next render re-binds this handler: read the latest state.
      const { shown, sort, pageSize, loading } = latest.current;
      if (input === 'q' || key.escape || (key.ctrl && input === 'c')) return exit();
      if (key.tab || input === 'v') return setPanel((p) => (p === 'header' ? 'table' : 'header'));
      if (key.rightArrow || input === 'n') return setPage(Math.min(shown.pageCount, shown.page + 1));
      if (key.leftArrow || input === 'p') return setPage(Math.max(1, shown.page - 1));
      if (input === '+' || input === '-') {
        const i = PAGE_SIZES.indexOf(pageSize as (typeof PAGE_SIZES)[number]);
        const next = PAGE_SIZES[Math.min(PAGE_SIZES.length - 1, Math.max(0, (i === -1 ? 0 : i) + (input === '+' ? 1 : -1)))];
        setPageSize(next);
        return setPage(1);
      }
      if (sortKeys.length && (input === 's' || input === 'S')) {
        const i = sort ? sortKeys.indexOf(sort.key) : -1;
        const step = input === 's' ? 1 : -1;
        const nextKey = sortKeys[(i + step + sortKeys.length) % sortKeys.length] ?? sortKeys[0];
        const next = nextSort(sort, nextKey);
        latest.current = { ...latest.current, sort: next };
        setSort(next);
        return setPage(1);
      }
      if (sortKeys.length && input === 'r') {
        const next = nextSort(sort, sort?.key ?? sortKeys[0]);
        latest.current = { ...latest.current, sort: next };
        setSort(next);
        return setPage(1);
      }
      const n = Number(input);
      if (load && presets && Number.isInteger(n) && n >= 1 && n <= presets.length && loading === null) {
        const preset = presets[n - 1];
        setLoading(preset);
        setError(null);
        load(preset).then(
          (next) => {
            if (!mounted.current) return;
            setView(next);
            setPage(1);
            setLoading(null);
          },
          (e: Error) => {
            if (!mounted.current) return;
            setError(e.message);
            setLoading(null);
          },
        );
      }
    },
    { isActive: interactive },
  );

  const columns = view.columns.map((col) =>
    sort && col.key === sort.key ? { ...col, header: `${col.header} ${ARROW[sort.dir]}` } : col,
  );

  return (
    <Box flexDirection="column">
      <Text bold color="cyan">
        {view.title}
      </Text>
      {view.subtitle ? <Text dimColor>{view.subtitle}</Text> : null}
      {view.header && (!splitPanels || panel === 'header') ? <Box marginTop={1}>{view.header}</Box> : null}
      <Box marginTop={1} flexDirection="column" display={splitPanels && panel === 'header' ? 'none' : 'flex'}>
        <Table<Row>
          columns={columns}
          rows={shown.rows}
          totals={view.totals}
          totalsLabel={view.totalsLabel ?? 'Totales'}
          emptyText={view.emptyText}
          rowKey={rowKey}
          title={view.tableTitle}
        />
      </Box>
      {view.notice && !(splitPanels && panel === 'header') ? <Text color="yellow">{view.notice}</Text> : null}
      {view.footer ? <Box marginTop={1}>{view.footer}</Box> : null}
      {interactive ? (
        <Box flexDirection="column" marginTop={1}>
          <Text>
            {pageLabel(shown.page, shown.pageCount)} · {shown.total} filas · {shown.pageSize} por página
            {sort ? ` · orden: ${view.columns.find((c) => c.key === sort.key)?.header ?? sort.key} ${ARROW[sort.dir]}` : ''}
            {loading ? ` · cargando ${PRESET_LABELS[loading]}…` : ''}
          </Text>
          {error ? <Text color="red">{error}</Text> : null}
          <Text dimColor>{keyHelp(load ? presets : undefined, sortKeys.length > 0, splitPanels)}</Text>
        </Box>
      ) : null}
    </Box>
  );
}
