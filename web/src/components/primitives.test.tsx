// The shared table primitives render what a user reads: page labels with disabled ends,
// the 'Mostrar' sizes, sort arrows, the 'Totales' footer and empty states.
import { describe, expect, test } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { Pagination } from './Pagination';
import { PageSizeSelect } from './PageSizeSelect';
import { SortHeader } from './SortHeader';
import { DataTable, type Column } from './DataTable';
import { ErrorBanner } from './ErrorBanner';
import { ApiError } from '@adops/core';

const noop = () => {};
const buttons = (html: string) =>
  [...html.matchAll(/<button([^>]*)>([^<]*)<\/button>/g)].map(([, attrs, text]) => ({ text, disabled: /\sdisabled=""/.test(attrs) }));

describe('Pagination', () => {
  test('on the first page Anterior is disabled and Siguiente is not', () => {
    const html = renderToStaticMarkup(<Pagination page={1} pageCount={3} onPage={noop} />);
    expect(html).toContain('Página 1 de 3');
    expect(buttons(html)).toEqual([
      { text: 'Anterior', disabled: true },
      { text: 'Siguiente', disabled: false },
    ]);
  });

  test('on the last page Siguiente is disabled', () => {
    const html = renderToStaticMarkup(<Pagination page={3} pageCount={3} onPage={noop} />);
    expect(buttons(html)).toEqual([
      { text: 'Anterior', disabled: false },
      { text: 'Siguiente', disabled: true },
    ]);
  });

  test('with no rows it still reads "Página 1 de 1" with both buttons disabled', () => {
    const html = renderToStaticMarkup(<Pagination page={1} pageCount={0} onPage={noop} />);
    expect(html).toContain('Página 1 de 1');
    expect(buttons(html).every((b) => b.disabled)).toBe(true);
  });
});

test('PageSizeSelect offers Mostrar 10/25/50/100 with the current size selected', () => {
  const html = renderToStaticMarkup(<PageSizeSelect value={25} onChange={noop} />);
  expect(html).toContain('Mostrar');
  expect([...html.matchAll(/<option[^>]*>(\d+)<\/option>/g)].map((m) => m[1])).toEqual(['10', '25', '50', '100']);
  expect(html).toMatch(/<option value="25" selected="">25<\/option>/);
});

describe('SortHeader', () => {
  const render = (sort: { key: string; dir: 'asc' | 'desc' } | null) =>
    renderToStaticMarkup(
      <table>
        <thead>
          <tr>
            <SortHeader label="Revenue" sortKey="revenue" sort={sort} onSort={noop} />
          </tr>
        </thead>
      </table>,
    );
  test('shows ▲ when sorted ascending by it, ▼ descending, and no arrow of direction otherwise', () => {
    expect(render({ key: 'revenue', dir: 'asc' })).toContain('▲');
    expect(render({ key: 'revenue', dir: 'desc' })).toContain('▼');
    const other = render({ key: 'date', dir: 'asc' });
    expect(other).not.toContain('▲');
    expect(other).not.toContain('▼');
  });
});

describe('DataTable', () => {
  interface Row {
    date: string;
    revenue: number;
  }
  const columns: Column<Row>[] = [
    { key: 'date', header: 'Date', cell: (r) => r.date, sortable: true },
    { key: 'revenue', header: 'Rev', cell: (r) => `$${r.revenue}`, total: '$30', align: 'right', sortable: true },
  ];
  const rows: Row[] = [
    { date: '2026-03-01', revenue: 10 },
    { date: '2026-03-02', revenue: 20 },
  ];

  test('renders a row per item and a Totales footer with the column totals', () => {
    const html = renderToStaticMarkup(<DataTable columns={columns} rows={rows} rowKey={(r) => r.date} totals onSort={noop} sort={null} />);
    expect(html).toContain('$10');
    expect(html).toContain('$20');
    expect(html).toMatch(/<tfoot[^>]*><tr><td[^>]*>Totales<\/td><td[^>]*>\$30<\/td><\/tr><\/tfoot>/);
    expect(html.match(/<button/g)).toHaveLength(2);
  });

  test('with no rows shows the empty-state text and no totals', () => {
    const html = renderToStaticMarkup(<DataTable columns={columns} rows={[]} rowKey={(r) => r.date} totals emptyText="No hay resultados" />);
    expect(html).toContain('No hay resultados');
    expect(html).not.toContain('Totales');
  });
});

describe('ErrorBanner', () => {
  test("shows the server's detail of an ApiError", () => {
    expect(renderToStaticMarkup(<ErrorBanner error={new ApiError(502, 'Meta no responde')} />)).toContain('Meta no responde');
  });
  test('renders nothing without an error', () => {
    expect(renderToStaticMarkup(<ErrorBanner error={null} />)).toBe('');
  });
});
