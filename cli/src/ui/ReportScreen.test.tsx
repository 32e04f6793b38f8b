import { describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import { keyboardReady, waitFor } from '../../test/wait.js';
import { formatInt, type SortState } from '@adops/core/lite';
import { ReportScreen, splitKeys, visibleFrom, type ReportView, type TableQuery } from './ReportScreen.js';

interface Row {
  id: string;
  n: number;
}

const TOTAL = 95;

/** A pretend server: rows 1…95, sorted by n, paged; answers after `delay(query)` ms. */
function fakeServer(delay: (q: TableQuery) => number = () => 5) {
  const asked: TableQuery[] = [];
  /** The queries answered so far, in the order the answers went out. */
  const answered: TableQuery[] = [];
  const load = (q: TableQuery): Promise<ReportView<Row>> => {
    asked.push(q);
    const dir = q.sort?.dir === 'desc' ? -1 : 1;
    const all = Array.from({ length: TOTAL }, (_, i) => i + 1).sort((a, b) => dir * (a - b));
    const pageCount = Math.ceil(TOTAL / q.pageSize);
    const page = Math.min(q.page, pageCount);
    const rows = all.slice((page - 1) * q.pageSize, page * q.pageSize).map((n) => ({ id: String(n), n }));
    const view: ReportView<Row> = {
      title: `Informe ${q.preset ?? 'fijo'}`,
      columns: [
        { key: 'id', header: 'ID' },
        { key: 'n', header: 'N', align: 'right', format: (v) => formatInt(v as number) },
      ],
      rows,
      totals: { n: 4560 },
      paging: { page, pageCount, totalRows: TOTAL, pageSize: q.pageSize, sort: q.sort as SortState | null },
    };
    return new Promise((resolve) =>
      setTimeout(() => {
        answered.push(q);
        resolve(view);
      }, delay(q)),
    );
  };
  return { asked, answered, load };
}

async function screen(server: ReturnType<typeof fakeServer>, query: TableQuery = { sort: null, page: 1, pageSize: 10, preset: 'ayer' }) {
  const initial = await server.load(query);
  server.asked.length = 0;
  const ui = render(
    <ReportScreen<Row> initial={initial} preset={query.preset} sortKeys={['n']} interactive presets={['hoy', 'ayer']} load={server.load} />,
  );
  await keyboardReady(ui.stdin);
  const frame = () => ui.lastFrame() ?? '';
  const firstRow = () => {
    const lines = frame().split('\n');
    return /(\d+)\s*$/.exec(lines[lines.findIndex((l) => l.startsWith('─')) + 1] ?? '')?.[1];
  };
  return { ui, frame, firstRow };
}

describe('ReportScreen', () => {
  it('draws the answered page with the server’s totals and “Página X de Y”', async () => {
    const { ui, frame } = await screen(fakeServer());
    expect(frame()).toContain('Página 1 de 10 · 95 filas · 10 por página');
    expect(frame()).toMatch(/Totales\s+4\.560/);
    expect(frame()).toContain('q salir');
    ui.unmount();
  });

  it('asks for the next pages of every key in a fast burst, and shows the last asked', async () => {
    const server = fakeServer();
    const { ui, frame, firstRow } = await screen(server);
    ui.stdin.write('nnn');
    await waitFor(() => frame().includes('Página 4 de 10'));
    expect(server.asked.map((q) => q.page)).toEqual([2, 3, 4]);
    expect(firstRow()).toBe('31');
    ui.stdin.write('\u001b[D\u001b[D'); // two ← in one read
    await waitFor(() => frame().includes('Página 2 de 10'));
    ui.unmount();
  });

  it('a slow answer to an older request never replaces the newer one', async () => {
    // Page 2 answers late, page 3 at once.
    const server = fakeServer((q) => (q.page === 2 ? 300 : 5));
    const { ui, frame } = await screen(server);
    ui.stdin.write('n');
    ui.stdin.write('n');
    await waitFor(() => frame().includes('Página 3 de 10'));
    await waitFor(() => server.answered.some((q) => q.page === 2), 'the late answer for page 2');
    await new Promise((r) => setImmediate(r)); // the late answer's then() has run
    expect(frame()).toContain('Página 3 de 10');
    ui.unmount();
  });

  it('s sorts on the server from page 1, r reverses, +/- change the page size, a digit loads a preset', async () => {
    const server = fakeServer();
    const { ui, frame, firstRow } = await screen(server, { sort: null, page: 3, pageSize: 10, preset: 'ayer' });
    ui.stdin.write('s');
    await waitFor(() => frame().includes('N ▲'));
    expect(server.asked.at(-1)).toMatchObject({ sort: { key: 'n', dir: 'asc' }, page: 1 });
    ui.stdin.write('r');
    await waitFor(() => frame().includes('N ▼'));
    expect(firstRow()).toBe('95');
    ui.stdin.write('+');
    await waitFor(() => frame().includes('25 por página'));
    expect(frame()).toContain('Página 1 de 4');
    ui.stdin.write('-');
    ui.stdin.write('-');
    await waitFor(() => frame().includes('Página 1 de 10 · 95 filas · 10 por página'));
    ui.stdin.write('1');
    await waitFor(() => frame().includes('Informe hoy'));
    expect(server.asked.at(-1)).toMatchObject({ preset: 'hoy', page: 1, pageSize: 10, sort: { key: 'n', dir: 'desc' } });
    ui.unmount();
  });

  it('does not page past the ends it knows; a failed load shows the error and keeps the page', async () => {
    const server = fakeServer();
    let fail = false;
    const load = (q: TableQuery) => (fail ? Promise.reject(new Error('Servidor caído')) : server.load(q));
    const initial = await server.load({ sort: null, page: 10, pageSize: 10, preset: null });
    server.asked.length = 0;
    const ui = render(<ReportScreen<Row> initial={initial} sortKeys={['n']} interactive load={load} />);
    await keyboardReady(ui.stdin);
    const frame = () => ui.lastFrame() ?? '';
    ui.stdin.write('n'); // Ink hands a key to useInput as it is read: a request would be asked now
    expect(server.asked).toEqual([]);
    fail = true;
    ui.stdin.write('p');
    await waitFor(() => frame().includes('Servidor caído'));
    expect(frame()).toContain('Página 10 de 10');
    fail = false;
    ui.stdin.write('p');
    await waitFor(() => frame().includes('Página 9 de 10'));
    expect(frame()).not.toContain('Servidor caído');
    ui.unmount();
  });

  it('on a narrow terminal keeps the first column, scrolls the others with < and >, and shows the sorted one', async () => {
    // 12 columns of 12 characters: 100 columns hold the first and six more (too little of a seventh shows).
    const keys = Array.from({ length: 12 }, (_, i) => `c${i}`);
    const wide = (q: TableQuery): Promise<ReportView<Record<string, string>>> =>
      Promise.resolve({
        title: 'Ancha',
        columns: keys.map((key) => ({ key, header: key.toUpperCase().padEnd(12, '_') })),
        rows: [Object.fromEntries(keys.map((k) => [k, `${k}-value`]))],
        paging: { page: 1, pageCount: 1, totalRows: 1, pageSize: 10, sort: q.sort },
      });
    const query: TableQuery = { sort: null, page: 1, pageSize: 10, preset: null };
    const ui = render(<ReportScreen initial={await wide(query)} sortKeys={keys} interactive load={wide} fit />);
    await keyboardReady(ui.stdin);
    const frame = () => ui.lastFrame() ?? '';
    const header = () =>
      frame()
        .split('\n')
        .find((l) => l.startsWith('C0'))!;
    expect(header()).toMatch(/^C0_+\s+C1_+.*C6_+$/);
    expect(frame()).toContain('columnas 2–7 de 12');
    expect(frame()).toContain('</> columnas');
    ui.stdin.write('>>');
    await waitFor(() => frame().includes('columnas 4–9 de 12'));
    expect(header()).toMatch(/^C0_+\s+C3_+/);
    ui.stdin.write('<<<');
    await waitFor(() => frame().includes('columnas 2–7 de 12'));
    // Sorting by the last column brings it into view.
    ui.stdin.write('S');
    await waitFor(() => frame().includes('C11_________ ▲'));
    expect(frame()).toContain('columnas 7–12 de 12');
    ui.unmount();
  });

  it('counts the columns a width holds, the last one cut when enough of it shows', () => {
    expect(visibleFrom([10, 10, 10, 10], 1, 0, undefined)).toEqual({ count: 3, cut: false });
    expect(visibleFrom([10, 10, 10, 10], 1, 0, 46)).toEqual({ count: 3, cut: false });
    expect(visibleFrom([10, 10, 10, 10], 1, 0, 44)).toEqual({ count: 3, cut: true });
    expect(visibleFrom([10, 10, 10, 10], 1, 0, 38)).toEqual({ count: 2, cut: false });
    expect(visibleFrom([10, 40], 1, 0, 20)).toEqual({ count: 1, cut: true });
    expect(visibleFrom([10, 10, 10], 1, 1, 30)).toEqual({ count: 1, cut: false });
  });

  it('splits a chunk of keys into each key', () => {
    expect(splitKeys('nn')).toEqual([
      { input: 'n', key: {} },
      { input: 'n', key: {} },
    ]);
    expect(splitKeys('\u001b[C\u001bODq')).toEqual([
      { input: '', key: { rightArrow: true } },
      { input: '', key: { leftArrow: true } },
      { input: 'q', key: {} },
    ]);
    // Home, End, PgUp and PgDn as xterm, VT220 and rxvt send them; an unknown sequence is no key.
    const named = (chunk: string) => splitKeys(chunk).map((k) => Object.keys(k.key).join());
    expect(named('\u001b[H\u001bOH\u001b[1~\u001b[7~')).toEqual(['home', 'home', 'home', 'home']);
    expect(named('\u001b[F\u001bOF\u001b[4~\u001b[8~')).toEqual(['end', 'end', 'end', 'end']);
    expect(named('\u001b[5~\u001b[6~\u001b[15~')).toEqual(['pageUp', 'pageDown']);
    expect(named('\r\u007f')).toEqual(['return', 'backspace']);
    expect(splitKeys('\t\u001b\u0003')).toEqual([
      { input: '', key: { tab: true } },
      { input: '', key: { escape: true } },
      { input: 'c', key: { ctrl: true } },
    ]);
  });
});
