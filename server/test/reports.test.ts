// Every report endpoint's numbers against the hand-worked fixture (see reports-fixture.ts),
// with filters and their combinations, the server's sorting (any column, missing values
// last, ties by the natural key), paging, totals over every matching row, and the ratios.
import { beforeAll, describe, expect, test } from 'vitest';
import { ZoneDetails, ZoneTable, SummaryTable, jsonFigures, jsonNumber, deriveMetrics, rowSums, type Api } from '@adops/core';
import type { TestServer } from './helpers.js';
import { RANGE, fixtureServer, getJson } from './reports-fixture.js';

let s: TestServer;
let admin: Api & { token: string };
const get = (path: string, query: Record<string, string | string[]> = {}) => getJson(s, admin.token, path, query);

const fixture = fixtureServer();
beforeAll(() => {
  s = fixture.server;
  admin = fixture.admin;
});

/** A figure of a JSON answer: the expected value as JSON carries it (4 decimals at most). */
const close = (actual: number | null | undefined, expected: number) => expect(actual).toBe(jsonNumber(expected));

describe('Ad Report zone details', () => {
  test('rows in range, newest day first and by revenue within a day, with stored and derived values', async () => {
    const { status, body } = await get('/api/ad-report/zone-details', RANGE);
    expect(status).toBe(200);
    const d = ZoneDetails.parse(body);
    // R6 (2026-02-28) is outside the range. Order: 03-03 R5; 03-02 R4 (rev 2), R3 (rev 0); 03-01 R1 (10), R2 (4).
    expect(d.rows.map((r) => r.zone_id)).toEqual(['Z-201', 'Z-300', 'Z-101', 'Z-100', 'Z-200']);
    expect(d).toMatchObject({ total_rows: 5, page: 1, page_size: 25, page_count: 1, sort: null });
    expect(d.geoOptions).toEqual(['ES', 'MX', 'US']);
    expect(d.sourceOptions).toEqual(['search', 'social']);

    const [r5, r4, r3, r1, r2] = d.rows;
    // R1: PubA's configured share 0.6 → p_revenue 6, margin 4; CTR on monetized 20/800 = 2.5 %.
    expect(r1).toMatchObject({ date: '2026-03-01', advertiser: 'AdNova', publisher: 'PubA', geo: 'ES', source: 'search', domain: 'a.com' });
    expect(r1).toMatchObject({ impressions: 1000, monetized_impressions: 800, clicks: 20, revenue: 10, rate_applied: 0.6, tq: 0.8 });
    close(r1.p_revenue, 6);
    close(r1.margin, 4);
    close(r1.ctr, 2.5);
    close(r1.cpm, 10); // 10 / 1000 × 1000
    close(r1.cpc, 0.5); // 10 / 20
    close(r1.rs_percent, 40); // 4 / 10 × 100
    close(r1.p_cpm, 6); // 6 / 1000 × 1000
    close(r1.p_cpc, 0.3); // 6 / 20
    // R2: no share configured → default 0.7; no monetized impressions → CTR on impressions 10/2000 = 0.5 %; no tq.
    expect(r2).toMatchObject({ monetized_impressions: null, tq: null, rate_applied: 0.7 });
    close(r2.p_revenue, 2.8);
    close(r2.margin, 1.2);
    close(r2.ctr, 0.5);
    // R3: zero impressions → every ratio is null (never NaN or Infinity); RS% null as revenue is 0.
    expect(r3).toMatchObject({ impressions: 0, clicks: 0, revenue: 0, ctr: null, cpm: null, cpc: null, rs_percent: null, p_cpm: null, p_cpc: null });
    expect(r3.p_revenue).toBe(0);
    // R4: p_revenue 3 given → margin 2 − 3 = −1, RS% −50, rate 1.5 derived.
    close(r4.margin, -1);
    close(r4.rs_percent, -50);
    close(r4.rate_applied!, 1.5);
    close(r4.p_revenue, 3);
    // R5: rate 0.5 given → p 3, margin 3; CTR 45 / 1500 = 3 %.
    close(r5.p_revenue, 3);
    close(r5.ctr, 3);
  });

  test('derived metrics of every row are the registry formulas over the row, and its tq the reported one', async () => {
    const d = ZoneDetails.parse((await get('/api/ad-report/zone-details', RANGE)).body);
    for (const row of d.rows) {
      const expected = deriveMetrics(rowSums(row));
      for (const k of ['ctr', 'cpm', 'cpc', 'rs_percent', 'p_cpm', 'p_cpc'] as const) {
        if (expected[k] === null) expect(row[k]).toBeNull();
        else close(row[k], expected[k]!);
      }
    }
  });

  test('totals are sums with ratios from the sums, TQ weighted by impressions over rows with tq', async () => {
    const { totals } = ZoneDetails.parse((await get('/api/ad-report/zone-details', RANGE)).body);
    // impressions 1000+2000+0+500+3000 = 6500; monetized 800+0+500+1500 = 2800; clicks 20+10+0+5+45 = 80
    expect(totals).toMatchObject({ impressions: 6500, monetized_impressions: 2800, clicks: 80 });
    close(totals.revenue, 22); // 10+4+0+2+6
    close(totals.p_revenue, 14.8); // 6+2.8+0+3+3
    close(totals.margin, 7.2); // 4+1.2+0−1+3
    // CTR base per row: 800, 2000 (no monetized), 0, 500, 1500 = 4800 → 80/4800×100
    close(totals.ctr, 80 / 48);
    close(totals.cpm, (22 / 6500) * 1000);
    close(totals.cpc, 22 / 80);
    close(totals.rs_percent, (7.2 / 22) * 100);
    close(totals.p_cpm, (14.8 / 6500) * 1000);
    close(totals.p_cpc, 14.8 / 80);
    // TQ: (0.8×1000 + 0.2×500 + 0.9×3000) / (1000+500+3000) = 3600/4500; R2 has none, R3 no impressions.
    close(totals.tq, 0.8);
  });

  test.each([
    ['advertiser', { advertiser: 'AdNova' }, ['Z-201', 'Z-101', 'Z-100'], 16],
    ['publisher', { publisher: 'PubB' }, ['Z-201', 'Z-200'], 10],
    ['geo', { geo: 'MX' }, ['Z-201', 'Z-200'], 10],
    ['source', { source: 'search' }, ['Z-201', 'Z-300', 'Z-100'], 18],
    ['domain', { domain: 'b.com' }, ['Z-201', 'Z-200'], 10],
    ['zone id substring, any case', { zone_id: 'z-10' }, ['Z-101', 'Z-100'], 10],
    ['advertiser and publisher', { advertiser: 'AdNova', publisher: 'PubB' }, ['Z-201'], 6],
    ['geo and source', { geo: 'MX', source: 'social' }, ['Z-200'], 4],
    ['zone and advertiser', { zone_id: '2', advertiser: 'BidSphere' }, ['Z-200'], 4],
    ["'Todos' and empty mean no filter", { advertiser: 'Todos', publisher: '', geo: 'Todos' }, ['Z-201', 'Z-300', 'Z-101', 'Z-100', 'Z-200'], 22],
    ['a value nobody has', { advertiser: 'Nadie' }, [], 0],
    ['zone id with _ taken literally (no wildcard)', { zone_id: 'Z_1' }, [], 0],
    ['zone id with % taken literally (no wildcard)', { zone_id: '%' }, [], 0],
    ['zone id with a backslash', { zone_id: '\\' }, [], 0],
  ])('filter by %s', async (_name, filter, zones, revenue) => {
    const d = ZoneDetails.parse((await get('/api/ad-report/zone-details', { ...RANGE, ...filter })).body);
    expect(d.rows.map((r) => r.zone_id)).toEqual(zones);
    expect(d.total_rows).toBe(zones.length);
    close(d.totals.revenue, revenue);
  });

  test('geo and source options ignore their own filter but follow the others', async () => {
    const byGeo = ZoneDetails.parse((await get('/api/ad-report/zone-details', { ...RANGE, geo: 'MX' })).body);
    expect(byGeo.geoOptions).toEqual(['ES', 'MX', 'US']);
    const byAdvertiser = ZoneDetails.parse((await get('/api/ad-report/zone-details', { ...RANGE, advertiser: 'Clickora' })).body);
    expect(byAdvertiser.geoOptions).toEqual(['US']);
    expect(byAdvertiser.sourceOptions).toEqual(['search']);
  });

  const zones = async (query: Record<string, string>) => ZoneDetails.parse((await get('/api/ad-report/zone-details', { ...RANGE, ...query })).body);

  test.each([
    // revenue: R1 10, R5 6, R2 4, R4 2, R3 0
    ['revenue descending', 'revenue:desc', ['Z-100', 'Z-201', 'Z-200', 'Z-300', 'Z-101']],
    ['revenue ascending', 'revenue:asc', ['Z-101', 'Z-300', 'Z-200', 'Z-201', 'Z-100']],
    ['a column without direction ascends', 'clicks', ['Z-101', 'Z-300', 'Z-200', 'Z-100', 'Z-201']],
    // tq: R4 0.2, R3 0.5, R1 0.8, R5 0.9, R2 none → last both ways
    ['tq ascending, the row without tq last', 'tq:asc', ['Z-300', 'Z-101', 'Z-100', 'Z-201', 'Z-200']],
    ['tq descending, the row without tq still last', 'tq:desc', ['Z-201', 'Z-100', 'Z-101', 'Z-300', 'Z-200']],
    // CTR (a ratio the server derives): R5 3, R1 2.5, R4 1, R2 0.5, R3 none
    ['CTR descending, computed over the whole result', 'ctr:desc', ['Z-201', 'Z-100', 'Z-300', 'Z-200', 'Z-101']],
    ['CTR ascending, the zero-impression row last', 'ctr:asc', ['Z-200', 'Z-300', 'Z-100', 'Z-201', 'Z-101']],
    ['RS% (null without revenue) descending', 'rs_percent:desc', ['Z-201', 'Z-100', 'Z-200', 'Z-300', 'Z-101']],
    ['monetized impressions, the unreported one last', 'monetized_impressions:desc', ['Z-201', 'Z-100', 'Z-300', 'Z-101', 'Z-200']],
    // geo ES: R1, R3; MX: R2, R5; US: R4 — ties by the natural key (date, advertiser, publisher, zone)
    ['geo, ties by the natural key', 'geo:asc', ['Z-100', 'Z-101', 'Z-200', 'Z-201', 'Z-300']],
    ['geo descending, ties still by the natural key', 'geo:desc', ['Z-300', 'Z-200', 'Z-201', 'Z-100', 'Z-101']],
    ['publisher', 'publisher:desc', ['Z-300', 'Z-200', 'Z-201', 'Z-100', 'Z-101']],
    ['date ascending', 'date:asc', ['Z-100', 'Z-200', 'Z-101', 'Z-300', 'Z-201']],
  ])('sorts the whole result by %s', async (_what, sort, expected) => {
    const d = await zones({ sort });
    expect(d.rows.map((r) => r.zone_id)).toEqual(expected);
    expect(d.sort).toEqual({ key: sort.split(':')[0], dir: sort.split(':')[1] ?? 'asc' });
  });

  test('pages of the same order never overlap, cover every row, and carry the same totals', async () => {
    for (const sort of ['', 'revenue:desc', 'tq:asc', 'geo:asc', 'date:asc']) {
      const all = (await zones({ sort })).rows.map((r) => r.zone_id);
      const pages = await Promise.all([1, 2, 3].map((page) => zones({ sort, page: String(page), page_size: '2' })));
      expect(pages.flatMap((p) => p.rows.map((r) => r.zone_id))).toEqual(all);
      for (const [i, p] of pages.entries()) {
        expect(p).toMatchObject({ page: i + 1, page_size: 2, page_count: 3, total_rows: 5 });
        close(p.totals.revenue, 22);
      }
    }
  });

  test('a page past the last is answered as the last page', async () => {
    const d = await zones({ page: '9', page_size: '2' });
    expect(d).toMatchObject({ page: 3, page_count: 3 });
    expect(d.rows.map((r) => r.zone_id)).toEqual(['Z-200']);
  });

  test.each([
    [{ sort: 'zone' }, /Orden: columna de orden no válida/],
    [{ sort: 'revenue:sideways' }, /Orden: columna de orden no válida/],
    [{ sort: 'margin_percent' }, /Orden: columna de orden no válida/],
    [{ page: '0' }, /Página: /],
    [{ page_size: '501' }, /Filas por página: debe ser como máximo 500/],
    [{ page_size: 'all' }, /Filas por página: /],
    [{ format: 'xlsx' }, /^Formato: debe ser json, csv o ndjson$/],
    [{ limit: '5' }, null],
  ])('answers %j with 400 {detail} (or ignores an unknown parameter)', async (query, detail) => {
    const { status, body } = await get('/api/ad-report/zone-details', { ...RANGE, ...query });
    if (detail === null) {
      // Unknown parameters are ignored (the old row cap no longer exists): every row is there.
      expect(status).toBe(200);
      expect(body.total_rows).toBe(5);
      return;
    }
    expect(status).toBe(400);
    expect(body.detail).toMatch(detail);
  });

  test('format=csv streams every matching row in the table order, with the BOM and SPEC headers', async () => {
    const res = await s.fetch(
      `/api/ad-report/zone-details?${new URLSearchParams({ ...RANGE, sort: 'revenue:desc', page_size: '1', format: 'csv' })}`,
      {
        headers: { authorization: `Bearer ${admin.token}` },
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toContain('adreport_zonas.csv');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').trimEnd().split('\n');
    expect(lines[0]).toBe(
      'date,advertiser,publisher,zone_id,geo,source,impressions,monetized_impressions,clicks,CTR%,P.CPM,P.CPC,P.Revenue,TQ,revenue,margin,CPM,CPC,RS%',
    );
    // page_size does not cut an export: all five rows, revenue descending, rounded as shown.
    expect(lines.slice(1).map((l) => l.split(',')[3])).toEqual(['Z-100', 'Z-201', 'Z-200', 'Z-300', 'Z-101']);
    expect(lines[1]).toBe('2026-03-01,AdNova,PubA,Z-100,ES,search,1000,800,20,2.5,6,0.3,6,0.8,10,4,10,0.5,40');
    expect(lines[5]).toBe('2026-03-02,AdNova,PubA,Z-101,ES,social,0,0,0,,,,0,0.5,0,0,,,');
  });

  test('format=ndjson streams every matching row as the JSON rows, figures at stored precision (JSON pages carry 4 decimals)', async () => {
    const res = await s.fetch(`/api/ad-report/zone-details?${new URLSearchParams({ ...RANGE, advertiser: 'AdNova', format: 'ndjson' })}`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers.get('content-disposition')).toContain('adreport_zonas.ndjson');
    const rows = (await res.text())
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    const page = await zones({ advertiser: 'AdNova' });
    expect(rows.map((r) => jsonFigures(r))).toEqual(page.rows);
    // R5's P.CPC: 3 / 45 = 0.0666…, at its precision in the export, to 4 decimals in the page.
    const r5 = rows.find((r) => r.zone_id === 'Z-201');
    expect(r5.p_cpc).toBeCloseTo(3 / 45, 12);
    expect(page.rows.find((r) => r.zone_id === 'Z-201')!.p_cpc).toBe(0.0667);
  });

  test('JSON travels compressed when the client accepts it', async () => {
    const res = await s.fetch(`/api/ad-report/zone-details?${new URLSearchParams(RANGE)}`, {
      headers: { authorization: `Bearer ${admin.token}`, 'accept-encoding': 'gzip' },
    });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(ZoneDetails.parse(await res.json()).total_rows).toBe(5); // fetch decompresses
  });

  test('a range with no data answers empty lists and zero totals', async () => {
    const d = ZoneDetails.parse((await get('/api/ad-report/zone-details', { start_date: '2025-01-01', end_date: '2025-01-31' })).body);
    expect(d).toMatchObject({ rows: [], geoOptions: [], sourceOptions: [], total_rows: 0, page: 1, page_count: 1 });
    expect(d.totals).toMatchObject({ revenue: 0, impressions: 0, ctr: null, tq: null, rs_percent: null });
  });
});

describe('Api Explorer', () => {
  test('answers the same page as zone-details, without the dropdown options', async () => {
    const t = ZoneTable.parse((await get('/api/ad-report', RANGE)).body);
    const zoneDetails = ZoneDetails.parse((await get('/api/ad-report/zone-details', RANGE)).body);
    expect(t.rows).toEqual(zoneDetails.rows);
    expect(t.totals).toEqual(zoneDetails.totals);
    expect(t).not.toHaveProperty('geoOptions');
  });

  test('filters by advertiser and sorts and pages like every table', async () => {
    const t = ZoneTable.parse((await get('/api/ad-report', { ...RANGE, advertiser: 'AdNova', sort: 'revenue:asc', page_size: '1', page: '2' })).body);
    expect(t.rows.map((r) => r.zone_id)).toEqual(['Z-201']);
    expect(t).toMatchObject({ total_rows: 3, page: 2, page_count: 3 });
    close(t.totals.revenue, 16);
  });

  test('format=csv exports ad_report.csv with the Api Explorer columns', async () => {
    const res = await s.fetch(`/api/ad-report?${new URLSearchParams({ ...RANGE, format: 'csv' })}`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(res.headers.get('content-disposition')).toContain('ad_report.csv');
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\n');
    expect(lines[0]).toBe('Date,Advertiser,Zone ID,Publisher,Impr.,Clicks,CTR%,CPM,CPC,Revenue,Margin,RS%,P.CPM,P.CPC,TQ');
    expect(lines).toHaveLength(6);
  });
});

describe('Ad Report summaries', () => {
  test('publisher summary: one row per date × publisher, date desc then revenue desc, totals of every row', async () => {
    const t = SummaryTable.parse((await get('/api/ad-report/publisher-summary', RANGE)).body);
    const data = t.rows;
    expect(data.map((r) => [r.date, r.publisher])).toEqual([
      ['2026-03-03', 'PubB'],
      ['2026-03-02', 'PubC'],
      ['2026-03-02', 'PubA'],
      ['2026-03-01', 'PubA'],
      ['2026-03-01', 'PubB'],
    ]);
    expect(t).toMatchObject({ total_rows: 5, page: 1, page_size: 10, page_count: 1 });
    close(t.totals.revenue, 22);
    close(t.totals.tq, 0.8);
    expect(data.every((r) => r.advertiser === undefined)).toBe(true);
    const pubC = data[1];
    close(pubC.margin, -1);
    close(pubC.rs_percent, -50);
    const pubA0301 = data[3];
    expect(pubA0301).toMatchObject({ impressions: 1000, clicks: 20, revenue: 10, tq: 0.8 });
    close(pubA0301.ctr, 2.5);
    // PubA on 03-02 is R3 alone: zero impressions, so no ratios and no TQ.
    expect(data[2]).toMatchObject({ impressions: 0, ctr: null, cpm: null, tq: null });
  });

  test('advertiser summary: one row per date × advertiser, filters apply', async () => {
    const { rows } = SummaryTable.parse((await get('/api/ad-report/advertiser-summary', RANGE)).body);
    expect(rows.map((r) => [r.date, r.advertiser])).toEqual([
      ['2026-03-03', 'AdNova'],
      ['2026-03-02', 'Clickora'],
      ['2026-03-02', 'AdNova'],
      ['2026-03-01', 'AdNova'],
      ['2026-03-01', 'BidSphere'],
    ]);
    const filtered = SummaryTable.parse((await get('/api/ad-report/advertiser-summary', { ...RANGE, publisher: 'PubB' })).body);
    expect(filtered.rows.map((r) => [r.date, r.advertiser, r.revenue])).toEqual([
      ['2026-03-03', 'AdNova', 6],
      ['2026-03-01', 'BidSphere', 4],
    ]);
    close(filtered.totals.revenue, 10);
  });

  test('summaries sort by any column over the whole result (a derived one too) and page', async () => {
    const byName = SummaryTable.parse((await get('/api/ad-report/publisher-summary', { ...RANGE, sort: 'publisher:asc' })).body);
    // ties of a name by date
    expect(byName.rows.map((r) => [r.publisher, r.date])).toEqual([
      ['PubA', '2026-03-01'],
      ['PubA', '2026-03-02'],
      ['PubB', '2026-03-01'],
      ['PubB', '2026-03-03'],
      ['PubC', '2026-03-02'],
    ]);
    // CPM: PubA 03-01 10; PubB 03-03 2; PubB 03-01 2; PubC 4; PubA 03-02 none (last)
    const byCpm = SummaryTable.parse((await get('/api/ad-report/publisher-summary', { ...RANGE, sort: 'cpm:desc', page_size: '2', page: '2' })).body);
    expect(byCpm.rows.map((r) => [r.publisher, r.date])).toEqual([
      ['PubB', '2026-03-01'],
      ['PubB', '2026-03-03'],
    ]);
    expect(byCpm).toMatchObject({ page: 2, page_count: 3, total_rows: 5 });
    const { status, body } = await get('/api/ad-report/publisher-summary', { ...RANGE, sort: 'advertiser' });
    expect(status).toBe(400);
    expect(body.detail).toMatch(/Orden: columna de orden no válida/);
  });

  test('format=csv exports every summary row', async () => {
    const res = await s.fetch(`/api/ad-report/advertiser-summary?${new URLSearchParams({ ...RANGE, format: 'csv', page_size: '1' })}`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\n');
    expect(lines[0].startsWith('Date,Advertiser,Impr.,M. Impr.,Clicks,CTR%')).toBe(true);
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 2).join(' '))).toEqual([
      '2026-03-03 AdNova',
      '2026-03-02 Clickora',
      '2026-03-02 AdNova',
      '2026-03-01 AdNova',
      '2026-03-01 BidSphere',
    ]);
  });
});
