// The report screens' terminal habits (issue 30): `?` lists the keys, `/` filters the rows on
// screen, Home/End/PgUp/PgDn page, and the key line breaks between its items.
import { describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import { keyboardReady, waitFor } from '../../test/wait.js';
import { formatInt, type SortState } from '@adops/core/lite';
import { ReportScreen, type ReportView, type TableQuery } from './ReportScreen.js';
import { filterRows, keyLines } from './screen-keys.js';

interface Row {
  id: string;
  name: string;
  n: number;
}

const NAMES = ['Galicia Norte', 'Madrid', 'Sevilla', 'Málaga Sur', 'Bilbao'];

/** A pretend server: 95 rows named in turn after NAMES, paged by the query. */
function fakeServer() {
  const asked: TableQuery[] = [];
  const load = async (q: TableQuery): Promise<ReportView<Row>> => {
    asked.push(q);
    const pageCount = Math.ceil(95 / q.pageSize);
    const page = Math.min(q.page, pageCount);
    const rows = Array.from({ length: 95 }, (_, i) => ({ id: String(i + 1), name: NAMES[i % NAMES.length], n: i + 1 })).slice(
      (page - 1) * q.pageSize,
      page * q.pageSize,
    );
    return {
      title: 'Informe',
      columns: [
        { key: 'id', header: 'ID' },
        { key: 'name', header: 'Nombre' },
        { key: 'n', header: 'N', align: 'right', format: (v) => formatInt(v as number) },
      ],
      rows,
      totals: { n: 4560 },
      paging: { page, pageCount, totalRows: 95, pageSize: q.pageSize, sort: q.sort as SortState | null },
    };
  };
  return { asked, load };
}

async function screen() {
  const server = fakeServer();
  const initial = await server.load({ sort: null, page: 1, pageSize: 10, preset: 'ayer' });
  server.asked.length = 0;
  const ui = render(<ReportScreen<Row> initial={initial} preset="ayer" sortKeys={['n']} interactive presets={['hoy', 'ayer']} load={server.load} />);
  await keyboardReady(ui.stdin);
  const frame = () => ui.lastFrame() ?? '';
  const rows = () =>
    frame()
      .split('\n')
      .filter((l) => /^\d+\s{2,}\S/.test(l));
  return { ui, frame, rows, server };
}

describe('report screen keys', () => {
  it('? shows every key instead of the table, and ? or Esc brings the table back (Esc does not quit then)', async () => {
    const { ui, frame, rows } = await screen();
    expect(frame()).toContain('? teclas');
    ui.stdin.write('?');
    await waitFor(() => frame().includes('Teclas'));
    expect(frame()).toContain('Inicio / Fin            primera / última página');
    expect(frame()).toContain('filtrar las filas de la página');
    expect(rows()).toEqual([]);
    ui.stdin.write('\u001b');
    await waitFor(() => !frame().includes('Teclas'));
    expect(rows()).toHaveLength(10);
    ui.stdin.write('?');
    await waitFor(() => frame().includes('Teclas'));
    ui.stdin.write('?');
    await waitFor(() => !frame().includes('Teclas'));
    ui.unmount();
  });

  it('/ filters the rows on screen as the text is typed (case and accents aside); Enter keeps it across pages, Esc drops it', async () => {
    const { ui, frame, rows } = await screen();
    ui.stdin.write('/');
    await waitFor(() => frame().includes('Enter aplica · Esc lo quita'));
    ui.stdin.write('mal');
    await waitFor(() => rows().length === 2);
    expect(rows().map((l) => l.split(/\s{2,}/)[1])).toEqual(['Málaga Sur', 'Málaga Sur']);
    expect(frame()).toContain('/mal');
    ui.stdin.write('\r');
    await waitFor(() => frame().includes('filtro «mal»: 2 de 10 en esta página'));
    expect(frame()).toContain('q salir'); // the key line is back
    ui.stdin.write('n'); // keys work again, the filter stays on the next page
    await waitFor(() => frame().includes('Página 2 de 10'));
    expect(rows().map((l) => l.split(/\s{2,}/)[1])).toEqual(['Málaga Sur', 'Málaga Sur']);
    ui.stdin.write('/\u007f\u007f\u007fzzz\r');
    await waitFor(() => frame().includes('Ninguna fila de esta página contiene «zzz».'));
    ui.stdin.write('\u001b'); // the first Esc drops the filter, it does not quit
    await waitFor(() => rows().length === 10);
    expect(frame()).not.toContain('filtro');
    ui.unmount();
  });

  it('Home, End, PgDn and PgUp go to the first, last, next and previous page', async () => {
    const { ui, frame, server } = await screen();
    ui.stdin.write('\u001b[F');
    await waitFor(() => frame().includes('Página 10 de 10'));
    ui.stdin.write('\u001b[5~');
    await waitFor(() => frame().includes('Página 9 de 10'));
    ui.stdin.write('\u001b[H');
    await waitFor(() => frame().includes('Página 1 de 10'));
    ui.stdin.write('\u001b[6~');
    await waitFor(() => frame().includes('Página 2 de 10'));
    expect(server.asked.map((q) => q.page)).toEqual([10, 9, 1, 2]);
    ui.unmount();
  });
});

describe('keyLines', () => {
  it('breaks between items, never inside one, within the width', () => {
    const items = ['←/→ página', '+/- filas', 's ordenar', 'r invertir', '1 Hoy', '2 Últimos 7 días', '/ filtrar', '? teclas', 'q salir'];
    for (const width of [40, 60, 80, 120]) {
      const lines = keyLines(items, width);
      for (const line of lines) expect(line.length, `${width}: ${line}`).toBeLessThan(width);
      expect(lines.flatMap((l) => l.split('   '))).toEqual(items);
    }
    expect(keyLines(items, 200)).toHaveLength(1);
  });
});

describe('filterRows', () => {
  it('matches the cells as drawn, case and accents aside; blank text keeps every row', () => {
    const rows = [
      { id: '1', name: 'Málaga', n: 1500 },
      { id: '2', name: 'Madrid', n: 20 },
    ];
    const columns = [
      { key: 'name', header: 'Nombre' },
      { key: 'n', header: 'N', format: (v: unknown) => formatInt(v as number) },
    ];
    expect(filterRows(rows, columns, 'MALA').map((r) => r.id)).toEqual(['1']);
    expect(filterRows(rows, columns, '1.500').map((r) => r.id)).toEqual(['1']);
    expect(filterRows(rows, columns, '  ')).toHaveLength(2);
  });
});
