// A report on the terminal: optional header (cards), one page of a server table with the
// server's totals, sorting keys (s/S cycle the column, r reverses), paging (←/→, n/p, PgUp/PgDn,
// Home/End), page size (+/-, never past the window's height), presets (1–6), `/` to filter the
// rows on screen, `?` for the keys and, on a narrow terminal, columns scrolled with < and >.
// Every key asks the server for the page it needs; the screen only draws answers. Without a
// keyboard it draws the first page once and stops.
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Box, type DOMElement, Text, measureElement, useApp, useStdin, useStdout } from 'ink';
import { PAGE_SIZES, PRESET_LABELS, formatInt, nextSort, pageLabel, type PresetKey, type SortState } from '@adops/core/lite';
import { Table, layoutTable, type Column } from './Table.js';
import { filterRows, keyLines, splitKeys, type KeyFlags } from './screen-keys.js';

export { splitKeys } from './screen-keys.js';

export { pagingOf, type Paging } from './paging.js';
import type { Paging } from './paging.js';

/** What a report shows for one page of its table. */
export interface ReportView<Row> {
  title: string;
  /** Range and filters, under the title. */
  subtitle?: string;
  /** Drawn between the title and the table (e.g. the Dashboard's cards). */
  header?: ReactNode;
  /** The table's own title (e.g. 'Analytics'). */
  tableTitle?: string;
  columns: ReadonlyArray<Column<Row>>;
  /** The page's rows, in the server's order. */
  rows: readonly Row[];
  /** The server's totals over every matching row. */
  totals?: Record<string, unknown> | null;
  totalsLabel?: string;
  emptyText?: string;
  /** A warning line. */
  notice?: string;
  /** The columns a narrow terminal shows first (default TERMINAL_PRIORITY). */
  priority?: readonly string[];
  paging: Paging;
}

/** The page a screen asks the server for. */
export interface TableQuery {
  sort: SortState | null;
  page: number;
  pageSize: number;
  /** The range preset; null for --from/--to or screens without presets. */
  preset: PresetKey | null;
}

export interface ReportScreenProps<Row> {
  initial: ReportView<Row>;
  /** The initial view's preset (null: a fixed range). */
  preset?: PresetKey | null;
  /** Keys the table sorts by, in the order `s` cycles through them. */
  sortKeys: readonly string[];
  /** A keyboard is attached: page, sort, switch presets, quit with q. */
  interactive: boolean;
  presets?: readonly PresetKey[];
  /** Fetches a page from the server (`shown`: the query of the page on screen). */
  load: (query: TableQuery, shown: TableQuery) => Promise<ReportView<Row>>;
  rowKey?: (row: Row, index: number) => string;
  /**
   * Show the header and the table one at a time (Tab switches): for terminals too short
   * for both, so nothing scrolls off the top.
   */
  split?: boolean;
  /**
   * Fit the table to the terminal's width: the first column stays, the others that do not fit
   * are reached with < and > (the sorted column is brought into view).
   */
  fit?: boolean;
}

const ARROW = { asc: '▲', desc: '▼' } as const;

/** The key line's items: the everyday keys; `?` lists them all. */
function keyItems(presets: readonly PresetKey[] | undefined, sortable: boolean, split: boolean, scrolls: boolean): string[] {
  const items = split ? ['Tab resumen/tabla'] : [];
  items.push('←/→ página', '+/- filas');
  if (scrolls) items.push('</> columnas');
  if (sortable) items.push('s ordenar', 'r invertir');
  if (presets?.length) items.push(...presets.map((p, i) => `${i + 1} ${PRESET_LABELS[p]}`));
  items.push('/ filtrar', '? teclas', 'q salir');
  return items;
}

/** Every key, one a line, for `?` (each under 80 columns; the presets packed under their key). */
function helpLines(presets: readonly PresetKey[] | undefined, sortable: boolean, split: boolean, width: number | undefined): string[] {
  const key = (k: string, what: string) => `${k.padEnd(HELP_KEY)}${what}`;
  const ranges = presets?.length
    ? keyLines(
        presets.map((p, i) => `${i + 1} ${PRESET_LABELS[p]}`),
        Math.max(30, (width ?? 100) - HELP_KEY),
        '  ',
      )
    : [];
  return [
    key('←/→  n/p  RePág/AvPág', 'página anterior / siguiente'),
    key('Inicio / Fin', 'primera / última página'),
    key('+ / -', 'más / menos filas por página (hasta lo que cabe)'),
    key('< / >', 'columnas a la izquierda / derecha'),
    ...(sortable ? [key('s / S', 'ordenar por la columna siguiente / anterior'), key('r', 'invertir el orden')] : []),
    ...ranges.map((line, i) => key(i === 0 ? `1–${presets!.length}` : '', line)),
    ...(split ? [key('Tab', 'resumen / tabla')] : []),
    key('/', 'filtrar las filas de la página (Enter aplica, Esc quita)'),
    key('?', 'mostrar / ocultar esta ayuda'),
    key('q  Esc  Ctrl-C', 'salir'),
  ];
}

/**
 * Lines a page leaves free under the screen: the prompt's line, and one for a note or
 * 'cargando…' that wraps the status line (a frame as tall as the window makes Ink clear it).
 */
const SPARE_LINES = 2;

/** Width of the keys' column in the `?` help. */
const HELP_KEY = 24;

/** Columns kept on the left when the table is wider than the terminal. */
const FROZEN = 1;
const GAP = 2;

/** Least of a column that must show for it to count as on screen (the rest is cut with '…'). */
const MIN_PART = 8;

/**
 * The order columns take on a terminal too narrow for all of them: the frozen ones, then those
 * in TERMINAL_PRIORITY (revenue and margin before the dimensions), then the rest as they come.
 */
export function priorityOrder(columns: ReadonlyArray<{ key: string }>, frozen: number, priority: readonly string[] = TERMINAL_PRIORITY): number[] {
  const rank = (key: string) => {
    const r = priority.indexOf(key);
    return r === -1 ? priority.length : r;
  };
  const rest = columns.map((_, i) => i).slice(frozen);
  rest.sort((a, b) => rank(columns[a].key) - rank(columns[b].key) || a - b);
  return [...columns.map((_, i) => i).slice(0, frozen), ...rest];
}

/** The columns a narrow terminal shows first, most telling first. */
export const TERMINAL_PRIORITY: readonly string[] = [
  'zone_id',
  'publisher',
  'revenue',
  'margin',
  'impressions',
  'clicks',
  'ctr',
  'tq',
  'cpm',
  'cpc',
  'advertiser',
  'spend',
  'hits',
];

/**
 * The columns on screen after the frozen ones, starting `shift` columns in (at least one): those
 * that fit, and a last one cut at the edge when at least MIN_PART of it shows. `cut`: that last
 * one does not show whole.
 */
export function visibleFrom(widths: readonly number[], frozen: number, shift: number, width: number | undefined): { count: number; cut: boolean } {
  const rest = widths.length - frozen - shift;
  if (width === undefined || rest <= 0) return { count: Math.max(0, rest), cut: false };
  let used = widths.slice(0, frozen).reduce((sum, w, i) => sum + w + (i ? GAP : 0), 0);
  for (let i = frozen + shift; i < widths.length; i++) {
    const start = used + GAP;
    used = start + widths[i];
    if (used > width) {
      const count = i - frozen - shift;
      return width - start >= Math.min(MIN_PART, widths[i]) || count === 0 ? { count: count + 1, cut: true } : { count, cut: false };
    }
  }
  return { count: rest, cut: false };
}

/** Asked for when the last page is not known yet: the server answers its last page. */
const LAST_PAGE = 1_000_000_000;

const queryOf = (view: ReportView<unknown>, preset: PresetKey | null): TableQuery => ({
  sort: view.paging.sort,
  page: view.paging.page,
  pageSize: view.paging.pageSize,
  preset,
});

export function ReportScreen<Row>({
  initial,
  preset = null,
  sortKeys,
  interactive,
  presets,
  load,
  rowKey,
  split = false,
  fit = false,
}: ReportScreenProps<Row>) {
  const { exit } = useApp();
  const [view, setView] = useState(initial);
  const [loading, setLoading] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [panel, setPanel] = useState<'header' | 'table'>('header');
  // `?`: the keys instead of the table. `/`: the rows on screen that contain `filter.text`
  // (typed while `typing`, kept across pages once Enter applies it).
  const [help, setHelp] = useState(false);
  const [filter, setFilter] = useState({ text: '', typing: false });
  const filtering = useRef(filter);
  filtering.current = filter;
  const [note, setNote] = useState<string | null>(null);
  // The lines the screen draws besides its rows, measured after each paint: what the window
  // leaves for rows (`+` never grows a page past it).
  const root = useRef<DOMElement>(null);
  const chrome = useRef<number | null>(null);
  const splitPanels = split && interactive && Boolean(view.header);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  // The page on screen and the one last asked for: keys pressed before the answer (or before
  // the next render re-binds the handler) build on what was asked, so none is lost.
  const shown = useRef({ view: initial as ReportView<Row>, query: queryOf(initial as ReportView<unknown>, preset) });
  const asked = useRef(shown.current.query);
  const sequence = useRef(0);
  // Columns scrolled out on the left (after the first), and whether more wait on the right.
  const [shift, setShift] = useState(0);
  const scroll = useRef<{ shift: number; widths: readonly number[]; width: number | undefined }>({ shift: 0, widths: [], width: undefined });

  const request = (next: TableQuery, what: string) => {
    asked.current = next;
    const id = ++sequence.current;
    const before = shown.current.query;
    setLoading(what);
    setError(null);
    load(next, before).then(
      (answer) => {
        if (!mounted.current || id !== sequence.current) return;
        // The server may clamp the page (past the last is the last).
        const query = { ...next, page: answer.paging.page, pageSize: answer.paging.pageSize, sort: answer.paging.sort };
        shown.current = { view: answer, query };
        asked.current = query;
        setView(answer);
        setLoading(null);
      },
      (e: Error) => {
        if (!mounted.current || id !== sequence.current) return;
        asked.current = shown.current.query;
        setError(e.message);
        setLoading(null);
      },
    );
  };

  const handleKey = (input: string, key: KeyFlags) => {
    const q = asked.current;
    const onScreen = shown.current;
    if (key.ctrl && input === 'c') return exit();
    const f = filtering.current;
    if (f.typing) {
      // Typing a filter: every key is text but Enter (apply), Esc (drop) and Backspace.
      if (key.return) filtering.current = { text: f.text.trim(), typing: false };
      else if (key.escape) filtering.current = { text: '', typing: false };
      else if (key.backspace) filtering.current = { ...f, text: Array.from(f.text).slice(0, -1).join('') };
      else if (input && input >= ' ') filtering.current = { ...f, text: f.text + input };
      return setFilter(filtering.current);
    }
    setNote(null);
    if (input === '?') return setHelp((h) => !h);
    if (input === '/') {
      filtering.current = { ...f, typing: true };
      setHelp(false);
      return setFilter(filtering.current);
    }
    if (key.escape && f.text) {
      filtering.current = { text: '', typing: false };
      return setFilter(filtering.current);
    }
    if (key.escape && help) return setHelp(false);
    if (input === 'q' || key.escape) return exit();
    setHelp(false);
    if (input === '>' || input === '<') {
      const h = scroll.current;
      const seen = visibleFrom(h.widths, FROZEN, h.shift, h.width);
      const hiddenRight = seen.cut || FROZEN + h.shift + seen.count < h.widths.length;
      const next = input === '>' ? (hiddenRight ? h.shift + 1 : h.shift) : Math.max(0, h.shift - 1);
      if (next !== h.shift) {
        scroll.current = { ...h, shift: next };
        setShift(next);
      }
      return;
    }
    if (key.tab || input === 'v') return setPanel((p) => (p === 'header' ? 'table' : 'header'));
    // The last page is known for the page size and range on screen; otherwise the server clamps.
    const sameResult = q.pageSize === onScreen.query.pageSize && q.preset === onScreen.query.preset;
    const last = sameResult ? onScreen.view.paging.pageCount : LAST_PAGE;
    if (key.rightArrow || key.pageDown || input === 'n') {
      if (q.page >= last) return;
      return request({ ...q, page: q.page + 1 }, 'cargando…');
    }
    if (key.leftArrow || key.pageUp || input === 'p') {
      if (q.page <= 1) return;
      return request({ ...q, page: q.page - 1 }, 'cargando…');
    }
    if (key.home) return q.page > 1 ? request({ ...q, page: 1 }, 'cargando…') : undefined;
    if (key.end) return q.page < last ? request({ ...q, page: last }, 'cargando…') : undefined;
    if (input === '+' || input === '-') {
      const sizes: readonly number[] = PAGE_SIZES;
      const room = stdout.rows && chrome.current !== null ? stdout.rows - SPARE_LINES - chrome.current : Infinity;
      let next = input === '+' ? sizes.find((s) => s > q.pageSize) : [...sizes].reverse().find((s) => s < q.pageSize);
      // A page the window cannot hold would push the screen's top out of sight: as many rows as fit, no more.
      if (input === '+' && (next ?? Infinity) > room) next = room > q.pageSize ? room : undefined;
      if (next === undefined) return input === '+' ? setNote('no caben más filas en la ventana') : undefined;
      return request({ ...q, pageSize: next, page: 1 }, 'cargando…');
    }
    if (sortKeys.length && (input === 's' || input === 'S')) {
      const i = q.sort ? sortKeys.indexOf(q.sort.key) : -1;
      const step = input === 's' ? 1 : -1;
      const nextKey = i === -1 ? sortKeys[step === 1 ? 0 : sortKeys.length - 1] : sortKeys[(i + step + sortKeys.length) % sortKeys.length];
      return request({ ...q, sort: nextSort(q.sort, nextKey), page: 1 }, 'ordenando…');
    }
    if (sortKeys.length && input === 'r') {
      return request({ ...q, sort: nextSort(q.sort, q.sort?.key ?? sortKeys[0]), page: 1 }, 'ordenando…');
    }
    const n = Number(input);
    if (presets && Number.isInteger(n) && n >= 1 && n <= presets.length) {
      const chosen = presets[n - 1];
      return request({ ...q, preset: chosen, page: 1 }, `cargando ${PRESET_LABELS[chosen]}…`);
    }
  };

  // Raw input (not useInput, which reads a chunk of repeated arrows as one key): every key counts.
  const { internal_eventEmitter: input, setRawMode } = useStdin();
  const onKey = useRef(handleKey);
  onKey.current = handleKey;
  useEffect(() => {
    if (!interactive) return;
    setRawMode(true);
    const onInput = (chunk: string | Buffer) => {
      for (const k of splitKeys(String(chunk))) onKey.current(k.input, k.key);
    };
    input.on('input', onInput);
    return () => {
      input.removeListener('input', onInput);
      setRawMode(false);
    };
  }, [interactive, input, setRawMode]);

  const sort = view.paging.sort;
  const allColumns = view.columns.map((col) => (sort && col.key === sort.key ? { ...col, header: `${col.header} ${ARROW[sort.dir]}` } : col));
  // Horizontal fit: the first column, then as many as the terminal holds from `shift` on.
  const { stdout } = useStdout();
  const [, redraw] = useState(0);
  useEffect(() => {
    if (!fit) return;
    const onResize = () => redraw((n) => n + 1);
    stdout.on('resize', onResize);
    return () => void stdout.off('resize', onResize);
  }, [fit, stdout]);
  const width = fit && interactive ? stdout.columns : undefined;
  const natural = layoutTable(allColumns, view.rows, view.totals, view.totalsLabel ?? 'Totales').widths;
  // Narrower than the whole table: the most telling columns first (money before dimensions).
  const order =
    width !== undefined && natural.reduce((sum, w, i) => sum + w + (i ? GAP : 0), 0) > width
      ? priorityOrder(allColumns, FROZEN, view.priority)
      : allColumns.map((_, i) => i);
  const ordered = order.map((i) => allColumns[i]);
  const widths = order.map((i) => natural[i]);
  const fitting = (from: number) => visibleFrom(widths, FROZEN, from, width).count;
  const shiftNow = Math.min(shift, Math.max(0, ordered.length - FROZEN - 1));
  const seen = visibleFrom(widths, FROZEN, shiftNow, width);
  const visible = seen.count;
  const hiddenRight = seen.cut || FROZEN + shiftNow + visible < ordered.length;
  const clipped = shiftNow > 0 || hiddenRight;
  scroll.current = { shift: shiftNow, widths, width };
  const columns = clipped ? [...ordered.slice(0, FROZEN), ...ordered.slice(FROZEN + shiftNow, FROZEN + shiftNow + visible)] : ordered;
  const moreRight = Math.max(0, ordered.length - FROZEN - shiftNow - visible + (seen.cut ? 1 : 0));
  // A new order brings its column into view.
  const sortIndex = sort ? ordered.findIndex((c) => c.key === sort.key) : -1;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new order brings its column into view; the user may scroll away from it afterwards
  useEffect(() => {
    if (width === undefined || sortIndex < FROZEN) return;
    const { shift: current } = scroll.current;
    if (sortIndex >= FROZEN + current && sortIndex < FROZEN + current + fitting(current)) return;
    let next = sortIndex < FROZEN + current ? sortIndex - FROZEN : current;
    while (sortIndex >= FROZEN + next + fitting(next) && next < sortIndex - FROZEN) next++;
    scroll.current = { ...scroll.current, shift: next };
    setShift(next);
    // Only when the order changes: the user may scroll away from it afterwards.
  }, [sort?.key, sort?.dir, width]);
  const { paging } = view;
  const shownRows = filterRows(view.rows, view.columns, filter.text);
  useLayoutEffect(() => {
    // Measured on a plain page only (help, a filter or the summary panel change what is drawn).
    if (!root.current || help || filter.text || (splitPanels && panel === 'header') || view.rows.length === 0) return;
    chrome.current = measureElement(root.current).height - view.rows.length;
    // A page taller than the window (a narrow terminal wraps the footer, or the window shrank):
    // the page the window holds, starting at the first row on screen.
    const room = interactive && stdout.rows ? stdout.rows - SPARE_LINES - chrome.current : Number.POSITIVE_INFINITY;
    const q = asked.current;
    if (room >= 1 && view.rows.length > room && q.pageSize > room && q === shown.current.query) {
      request({ ...q, pageSize: room, page: Math.floor(((q.page - 1) * q.pageSize) / room) + 1 }, 'ajustando a la ventana…');
    }
  });
  // The status line's parts, wrapped between parts (never inside one) like the key line.
  const statusParts = [
    pageLabel(paging.page, paging.pageCount),
    `${formatInt(paging.totalRows)} filas`,
    `${paging.pageSize} por página`,
    ...(sort ? [`orden: ${view.columns.find((c) => c.key === sort.key)?.header ?? sort.key} ${ARROW[sort.dir]}`] : []),
    ...(clipped ? [`columnas ${FROZEN + shiftNow + 1}–${FROZEN + shiftNow + visible} de ${ordered.length}`] : []),
    ...(moreRight > 0 ? [`+${moreRight} ${moreRight === 1 ? 'columna' : 'columnas'} (>)`] : []),
    ...(filter.text ? [`filtro «${filter.text}»: ${formatInt(shownRows.length)} de ${formatInt(view.rows.length)} en esta página`] : []),
    ...(loading ? [loading] : []),
    ...(note ? [note] : []),
  ];
  const tableHidden = splitPanels && panel === 'header';

  return (
    <Box flexDirection="column" ref={root}>
      <Text bold color="cyan">
        {view.title}
      </Text>
      {view.subtitle ? <Text dimColor>{view.subtitle}</Text> : null}
      {view.header && (!splitPanels || panel === 'header') ? <Box marginTop={1}>{view.header}</Box> : null}
      {help && !tableHidden ? (
        <Box marginTop={1} flexDirection="column">
          <Text bold>Teclas</Text>
          {helpLines(presets, sortKeys.length > 0, splitPanels, stdout.columns).map((line) => (
            <Text key={line} wrap="truncate-end">
              {line}
            </Text>
          ))}
        </Box>
      ) : null}
      <Box marginTop={1} flexDirection="column" display={tableHidden || help ? 'none' : 'flex'}>
        <Table<Row>
          columns={columns}
          rows={shownRows}
          totals={view.totals}
          totalsLabel={view.totalsLabel ?? 'Totales'}
          emptyText={filter.text && view.rows.length ? `Ninguna fila de esta página contiene «${filter.text}».` : view.emptyText}
          rowKey={rowKey}
          title={view.tableTitle}
        />
      </Box>
      {view.notice && !(splitPanels && panel === 'header') ? <Text color="yellow">{view.notice}</Text> : null}
      <Box flexDirection="column" marginTop={1}>
        {keyLines(statusParts, interactive ? stdout.columns : undefined, ' · ').map((line) => (
          <Text key={line}>{line}</Text>
        ))}
        {error ? <Text color="red">{error}</Text> : null}
        {interactive && filter.typing ? (
          <Text>
            <Text color="cyan">/{filter.text}</Text>
            <Text inverse> </Text>
            <Text dimColor> Enter aplica · Esc lo quita</Text>
          </Text>
        ) : interactive ? (
          keyLines(keyItems(presets, sortKeys.length > 0, splitPanels, clipped), stdout.columns).map((line) => (
            <Text key={line} dimColor>
              {line}
            </Text>
          ))
        ) : paging.pageCount > 1 ? (
          <Text dimColor>Se muestra la primera página: --csv FILE o --json exportan todas las filas.</Text>
        ) : null}
      </Box>
    </Box>
  );
}
