// Tables past the old 20,000-row cap: 200,000 zone rows imported through the real ingest, the
// best row of the range far past row 20,000 of the default order, and what a user sees:
// sorting reaches it, totals cover every row, pages add up to the totals, exports hold it all.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ZoneDetails, type Api } from '@adops/core';
import { startTestServer, type TestServer } from './helpers.js';
import { getJson, postZoneReport } from './reports-fixture.js';

let s: TestServer;
let admin: Api & { token: string };

const DAYS = 20;
const PER_DAY = 10_000;
const ROWS = DAYS * PER_DAY;
const day = (d: number) => `2026-05-${String(d + 1).padStart(2, '0')}`;
const RANGE = { start_date: day(0), end_date: day(DAYS - 1) };
/** The range's best row: on its first day, so newest-first it sits at rows 190,001…200,000. */
const BEST = { day: 0, zone: 'TOP-1', revenue: 987.65 };

/** Every row's revenue, from its day and index: a few cents to about $20 (the best row aside). */
const revenueOf = (d: number, i: number) => (d === BEST.day && i === 4321 ? BEST.revenue : Math.round(((i * 7919 + d * 104729) % 2000) + 1) / 100);

function fixtureCsv(): string {
  const lines = ['date,advertiser,publisher,zone_id,geo,source,domain,impressions,monetized_impressions,clicks,revenue,p_revenue,tq'];
  for (let d = 0; d < DAYS; d++)
    for (let i = 0; i < PER_DAY; i++) {
      const zone = d === BEST.day && i === 4321 ? BEST.zone : `Z${String(i).padStart(5, '0')}`;
      const revenue = revenueOf(d, i);
      const advertiser = ['AdNova', 'BidSphere', 'Clickora'][i % 3];
      lines.push(
        `${day(d)},${advertiser},Pub ${i % 40},${zone},ES,search,site${i % 40}.com,${1000 + (i % 500)},${900 + (i % 100)},${i % 50},${revenue},${Math.round(revenue * 70) / 100},${i % 7 === 0 ? '' : 0.5 + (i % 50) / 100}`,
      );
    }
  return `${lines.join('\n')}\n`;
}

const expectedRevenue = () => {
  let cents = 0;
  for (let d = 0; d < DAYS; d++) for (let i = 0; i < PER_DAY; i++) cents += Math.round(revenueOf(d, i) * 100);
  return cents / 100;
};

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.admin();
  const res = await postZoneReport(s, admin.token, fixtureCsv());
  expect(await res.json()).toMatchObject({ inserted: ROWS, rejected_total: 0 });
}, 120_000);
afterAll(() => s.close());

const zones = async (query: Record<string, string>) =>
  ZoneDetails.parse((await getJson(s, admin.token, '/api/ad-report/zone-details', { ...RANGE, ...query })).body);

async function download(path: string, query: Record<string, string>): Promise<{ res: Response; text: string }> {
  const res = await s.fetch(`${path}?${new URLSearchParams(query)}`, { headers: { authorization: `Bearer ${admin.token}` } });
  return { res, text: await res.text() };
}

describe('200,000 zone rows', () => {
  test('the default order puts the best row past row 20,000; sorting by revenue shows it first', async () => {
    const newestFirst = await zones({ page_size: '500', page: String(Math.ceil((ROWS - PER_DAY + 1) / 500)) });
    expect(newestFirst.total_rows).toBe(ROWS);
    expect(newestFirst.page_count).toBe(ROWS / 500);
    expect(newestFirst.rows.every((r) => r.date === day(0))).toBe(true); // the last pages are the oldest day
    const best = await zones({ sort: 'revenue:desc', page_size: '5' });
    expect(best.rows[0]).toMatchObject({ zone_id: BEST.zone, revenue: BEST.revenue, date: day(0) });
    expect(best.rows.slice(1).every((r) => r.revenue <= 20)).toBe(true);
    // The Api Explorer answers the same top row from the same query.
    const explorer = (await getJson(s, admin.token, '/api/ad-report', { ...RANGE, sort: 'revenue:desc', page_size: '1' })).body;
    expect(explorer.rows[0]).toEqual(best.rows[0]);
  });

  test('totals cover every row, not a page: revenue to the cent', async () => {
    const page = await zones({ page_size: '25' });
    expect(page.totals.revenue).toBeCloseTo(expectedRevenue(), 6);
    expect(page.totals.impressions).toBeGreaterThan(ROWS * 1000);
  });

  test('the pages of one advertiser add up to its totals, with no row twice', async () => {
    const query = { advertiser: 'Clickora', sort: 'tq:asc', page_size: '500', end_date: day(4) };
    const first = await zones(query);
    expect(first.total_rows).toBe(5 * Math.floor(PER_DAY / 3));
    let revenue = 0;
    let impressions = 0;
    const seen = new Set<string>();
    for (let page = 1; page <= first.page_count; page++) {
      const p = page === 1 ? first : await zones({ ...query, page: String(page) });
      for (const r of p.rows) {
        seen.add(`${r.date} ${r.zone_id}`);
        revenue += r.revenue;
        impressions += r.impressions;
      }
    }
    expect(seen.size).toBe(first.total_rows);
    expect(impressions).toBe(first.totals.impressions);
    expect(revenue).toBeCloseTo(first.totals.revenue, 6);
  }, 60_000);

  test('a CSV export of the whole range has every row, streamed', async () => {
    const { res, text } = await download('/api/ad-report/zone-details', { ...RANGE, format: 'csv', sort: 'revenue:desc' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBeNull(); // streamed (chunked), never built whole
    const lines = text
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\n');
    expect(lines).toHaveLength(ROWS + 1);
    expect(lines[1].split(',')[3]).toBe(BEST.zone);
  }, 60_000);

  test('an NDJSON export has every row with its figures; the summaries export every day × publisher', async () => {
    const { text } = await download('/api/ad-report', { ...RANGE, format: 'ndjson' });
    const rows = text.trimEnd().split('\n');
    expect(rows).toHaveLength(ROWS);
    expect(JSON.parse(rows[0])).toHaveProperty('cpm');
    const summary = await download('/api/ad-report/publisher-summary', { ...RANGE, format: 'csv' });
    expect(
      summary.text
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\n'),
    ).toHaveLength(DAYS * 40 + 1);
  }, 60_000);
});
