// The table components render the server's page as it came: rows, the 'Totales' / TOTAL rows
// of every matching row, the order answered (arrow), 'N filas' and 'Página X de Y', the
// Dashboard's rank colours from each row's rank, and the Api Explorer's CPC total with 4 decimals.
import { describe, expect, test } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { AD_REPORT_COLUMNS, ZONE_SORT_KEYS, metricHelp, type DailyRow, type DailyTable, type ReportTotals, type ZoneRow } from '@adops/core';
import { ReportTable } from './adreport/ReportTable';
import { DataTable } from './DataTable';
import { AnalyticsTable } from './dashboard/AnalyticsTable';
import { MonthlyTable } from './finance/MonthlyTable';
import { explorerColumns } from './explorer/explorerTable';
import type { PageAnswer, ServerTable } from '../hooks/useServerTable';

const noop = () => {};
const metrics = { ctr: 1.5, cpm: 2, cpc: 0.123456, rs_percent: 40, p_cpm: 1.2, p_cpc: 0.5, tq: 0.7 };
const totals: ReportTotals = {
  impressions: 123_456,
  monetized_impressions: 100_000,
  clicks: 1_500,
  revenue: 98_765.4,
  p_revenue: 60_000,
  margin: 38_765.4,
  ...metrics,
};

/** A server table holding one answer (what the hook gives a component). */
function tableOf<T>(data: T, over: Partial<ServerTable<object, T>> = {}): ServerTable<object, T> {
  return {
    data,
    error: null,
    loading: false,
    fresh: true,
    view: { sort: { key: 'revenue', dir: 'asc' }, page: 2, pageSize: 25 },
    request: null,
    sortBy: noop,
    setPage: noop,
    setPageSize: noop,
    reload: noop,
    ...over,
  };
}

const zone = (zone_id: string, revenue: number): ZoneRow => ({
  date: '2026-03-01',
  advertiser: 'AdNova',
  publisher: 'PubA',
  zone_id,
  geo: 'ES',
  source: 'search',
  domain: 'a.com',
  impressions: 1000,
  monetized_impressions: null,
  clicks: 10,
  revenue,
  rate_applied: 0.6,
  p_revenue: revenue * 0.6,
  margin: revenue * 0.4,
  ...metrics,
});

describe('ReportTable', () => {
  const answer: PageAnswer<ZoneRow, ReportTotals> = {
    rows: [zone('Z-9', 500), zone('Z-3', 400)],
    total_rows: 1234,
    page: 2,
    page_size: 25,
    page_count: 50,
    sort: { key: 'revenue', dir: 'desc' },
    totals,
  };
  const render = (over: Partial<ServerTable<object, PageAnswer<ZoneRow, object>>> = {}) =>
    renderToStaticMarkup(
      <ReportTable
        table={tableOf(answer, over)}
        columns={AD_REPORT_COLUMNS}
        sortKeys={ZONE_SORT_KEYS}
        rowKey={(r) => r.zone_id}
        caption="Zonas"
        emptyText="Nada"
      />,
    );

  test("shows the page's rows, the totals of every matching row, the row count and the page of pages", () => {
    const html = render();
    expect(html).toContain('Z-9');
    expect(html).toContain('Z-3');
    expect(html).toContain('>123.456<');
    expect(html).toContain('>$98.765,40<');
    expect(html).toContain('1.234 filas');
    expect(html).toContain('Página 2 de 50');
  });

  test('the arrow shows the order the server answered, not the one being asked for', () => {
    const html = render({ view: { sort: { key: 'tq', dir: 'asc' }, page: 1, pageSize: 25 }, loading: true });
    expect(html).toMatch(/aria-sort="descending"[^>]*><button[^>]*><span>revenue<\/span>/);
    expect(html).not.toContain('aria-sort="ascending"');
    expect(html).toContain('aria-busy="true"');
  });

  test('when new filters failed to load, no stale rows are shown', () => {
    const html = render({ error: new Error('x'), fresh: false });
    expect(html).toContain('Nada');
    expect(html).not.toContain('Z-9');
    expect(html).toContain('Página 1 de 1');
  });
});

describe('AnalyticsTable', () => {
  const day = (date: string, revenue: number, rank: DailyRow['rank']): DailyRow => ({
    date,
    impressions: 1000,
    monetized_impressions: 900,
    clicks: 10,
    revenue,
    p_revenue: revenue / 2,
    margin: revenue / 2,
    ...metrics,
    rank,
  });
  const answer: DailyTable = {
    rows: [day('2026-03-01', 10, { revenue: 0, p_revenue: 0, margin: 0 }), day('2026-03-02', 90, { revenue: 5, p_revenue: 4, margin: null })],
    total_rows: 12,
    page: 1,
    page_size: 10,
    page_count: 2,
    sort: null,
    totals: { ...totals, tq: 0.64 },
  };

  test("colours revenue, P.Revenue and margin by the server's rank and totals every day", () => {
    const html = renderToStaticMarkup(<AnalyticsTable table={tableOf(answer)} openExport={() => Promise.reject(new Error('no'))} />);
    const rows = html.split('<tr').slice(2, 4);
    expect(rows[0]).toContain('bg-red-200');
    expect(rows[1]).toContain('bg-green-200');
    expect(rows[1]).toContain('bg-green-100');
    expect(html).toContain('>0,64<');
    expect(html).toContain('>$98.765,40<');
    expect(html).toContain('Página 1 de 2');
    expect(html).toContain('Descargar CSV');
  });

  test('heads the publisher’s pay P.Revenue as the Ad Report does, and every header says what its figure is', () => {
    const html = renderToStaticMarkup(<AnalyticsTable table={tableOf(answer)} openExport={() => Promise.reject(new Error('no'))} />);
    const headers = [...html.matchAll(/<th[^>]*>(?:<button[^>]*title="([^"]*)"[^>]*>)?<span>([^<]*)<\/span>/g)].map((m) => [m[2], m[1]]);
    expect(headers.map(([label]) => label)).toContain('P.Revenue');
    expect(headers.map(([label]) => label)).not.toContain('Cost');
    expect(Object.fromEntries(headers)['CTR%']).toBe(metricHelp('ctr'));
    expect(Object.fromEntries(headers)['P.Revenue']).toBe(metricHelp('p_revenue'));
    const explorer = renderToStaticMarkup(<DataTable columns={explorerColumns(totals)} rows={[]} rowKey={() => 'x'} />);
    expect(explorer).toContain(`title="${metricHelp('ctr')}"`);
  });
});

describe('MonthlyTable', () => {
  test('shows the TOTAL row as answered and the arrow of the order answered', () => {
    const html = renderToStaticMarkup(
      <MonthlyTable
        caption="Revenue"
        nameHeader="Advertiser"
        nameKey="advertiser"
        months={['2025-01', '2025-02']}
        rows={[{ advertiser: 'AdNova', '2025-01': 1000.01, '2025-02': 0, total: 1000.01 }]}
        totals={{ '2025-01': 3000.01, '2025-02': 0, total: 3000.01 }}
        tone="blue"
        emptyText="No hay datos disponibles"
        sort={{ key: 'total', dir: 'desc' }}
        onSort={noop}
      />,
    );
    expect(html).toContain('Ene 2025');
    expect(html).toMatch(/<tfoot[^>]*><tr><td[^>]*>TOTAL<\/td><td[^>]*>\$3\.000,01<\/td><td[^>]*>\$0,00<\/td><td[^>]*>\$3\.000,01<\/td>/);
    expect(html).toMatch(/aria-sort="descending"[^>]*><button[^>]*><span>Total<\/span>/);
  });
});

test('the Api Explorer shows the CPC total with 4 decimals and every other total as the registry formats it', () => {
  const cells = explorerColumns(totals).map((c) => c.total);
  expect(cells).toContain('$0,1235');
  expect(cells).toContain('$98.765,40');
  expect(explorerColumns(undefined).every((c) => c.total === '')).toBe(true);
});
