// Rentabilidad says what its figures lack, over HTTP on a real app: a day whose Meta spend no
// sync covered (and none is stored) is listed in `unsynced_days`, its spend is unknown — never
// 0 — and the other groupings' figures are over the synced days with its revenue apart; spend
// stored before sync records existed (an upgraded install) counts as synced; a sync records the
// days it covered and when. Zone-report imports record each day final or partial (by the clock,
// or as `?report=` says), a partial day's estimate comes from the trailing RPV and grows with its
// visits, and 'Valor' follows the same rule.
//
// Fixture (UTC): A and B, the first two days of last month; zone Z1 earns 20 over 20 human visits
// each day (RPV 1.00), campaign C1 (ad A1) sends 10 of them each day. Spend: 8 USD on A (stored
// with no sync record), nothing on B.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addDays, todayIn, type Api, type ProfitRow } from '@adops/core';
import { failure, startTestServer, zoneReportRow, type TestServer } from './helpers.js';
import { event, importRows } from './warehouse-contract.js';
import type { AdSpendRecord, ReferrerEvent } from '../src/warehouse/index.js';
import { REPORT_FINALITY_KEY, SPEND_COVERAGE_KEY, RECORD_DAYS } from '../src/services/completeness.js';
import { SANDBOX_ACCOUNT } from '../src/providers/index.js';

const INGEST_KEY = 'completeness-ingest-key-0123';
const LAST_MONTH = (() => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
})();
const A = `${LAST_MONTH}-01`;
const B = `${LAST_MONTH}-02`;
/** A third day of last month nothing ever syncs. */
const E = `${LAST_MONTH}-05`;
const TODAY = todayIn('UTC');
const C1 = { campaign_id: 'C1', adset_id: 'S1', ad_id: 'A1', keyword: 'seguros' };

let s: TestServer;
let admin: Api & { token: string };
let nextId = 1;

/** `n` human visits to `zone` on `day` (from `fromSecond` after midnight), from C1 unless `attributed` is false. */
const visits = (n: number, day: string, zone = 'Z1', attributed = true, fromSecond = 0): ReferrerEvent[] =>
  Array.from({ length: n }, (_, i) =>
    event(nextId++, Date.parse(`${day}T00:00:00Z`) + (fromSecond + i) * 1000, { zone_id: zone, ...(attributed ? C1 : {}) }),
  );

const spendRow = (date: string, amount: number): AdSpendRecord => ({
  date,
  account_id: SANDBOX_ACCOUNT,
  ...C1,
  campaign_name: 'Campaña seguros',
  adset_name: 'Conjunto',
  ad_name: 'Anuncio',
  spend: amount,
  impressions: 1000,
  clicks: 20,
  currency: 'USD',
});

/** Zone-report rows through the HTTP ingest (the path that records finality), with `?report=` when given. */
async function importReport(rows: Array<Record<string, unknown>>, report?: string) {
  const res = await s.fetch(`/api/ingest/zone-report${report ? `?report=${report}` : ''}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-ingest-key': INGEST_KEY },
    body: JSON.stringify(rows),
  });
  return { status: res.status, body: await res.json() };
}
const reportRow = (date: string, zone: string, revenue: number) => ({
  date,
  advertiser: 'AdNova',
  publisher: 'PubA',
  zone_id: zone,
  impressions: 1000,
  clicks: 10,
  revenue,
});

beforeAll(async () => {
  s = await startTestServer({ ingestKey: INGEST_KEY });
  admin = await s.admin();
  const w = s.app.services.warehouse;
  await importRows(w, [zoneReportRow(A, 'Z1', { revenue: 20 }), zoneReportRow(B, 'Z1', { revenue: 20 }), zoneReportRow(E, 'Z1', { revenue: 20 })]);
  await w.referrers.append([...visits(10, A), ...visits(10, A, 'Z1', false), ...visits(10, B), ...visits(10, B, 'Z1', false), ...visits(4, E)]);
  await w.spend.upsert([spendRow(A, 8)]);
});
afterAll(() => s?.close());

const byKey = (rows: ProfitRow[]) => Object.fromEntries(rows.map((r) => [r.key, r]));

describe('spend that is not synced', () => {
  test('a day without synced spend is listed, its day row has no spend (not 0) and no profit, ROI or ROAS', async () => {
    const t = await admin.profit.table({ by: 'day', start_date: A, end_date: B });
    expect(t.totals.unsynced_days).toEqual([B]);
    expect(t.totals.spend_synced_at).toBeNull();
    expect(t.totals.spend_stale).toBe(true);
    const { [A]: a, [B]: b } = byKey(t.rows);
    expect(a).toMatchObject({ spend: 8, revenue: 10, profit: 2, spend_unsynced: false });
    // Meta's clicks come with the spend: unknown too, and so is the break-even CPC built on them.
    expect(b).toMatchObject({
      spend: null,
      profit: null,
      roi: null,
      roas: null,
      cpc: null,
      meta_clicks: null,
      break_even_cpc: null,
      spend_unsynced: true,
      visits: 10,
      revenue: 10,
      losing: false,
    });
  });

  test('by campaign, profit, ROI and ROAS are over the synced days only and the unsynced day’s revenue is reported apart', async () => {
    const t = await admin.profit.table({ by: 'campaign', start_date: A, end_date: B });
    const c1 = byKey(t.rows).C1;
    // 10 visits on A earn 10 against 8 spent; B's 10 visits (10 earned) are apart, not a free profit.
    expect(c1).toMatchObject({
      spend: 8,
      visits: 10,
      revenue: 10,
      profit: 2,
      roi: 25,
      spend_unsynced: false,
      unsynced_visits: 10,
      unsynced_revenue: 10,
    });
    expect(c1.roas).toBeCloseTo(1.25, 9);
    expect(t.totals).toMatchObject({ spend: 8, revenue: 10, profit: 2, unsynced_revenue: 10, unsynced_days: [B], spend_unsynced: false });
  });

  test('spend stored with no sync record (an upgraded install) counts as synced: A is never listed', async () => {
    const t = await admin.profit.table({ by: 'campaign', start_date: A, end_date: A });
    expect(t.totals.unsynced_days).toEqual([]);
    expect(t.totals.spend_unsynced).toBe(false);
    expect(byKey(t.rows).C1).toMatchObject({ spend: 8, revenue: 10, profit: 2, unsynced_revenue: 0 });
  });

  test('a range with no synced day at all: every spend is unknown, revenue is all there', async () => {
    // E: Z1 earns 20 over C1's 4 visits (RPV 5).
    const t = await admin.profit.table({ by: 'campaign', start_date: E, end_date: E });
    expect(t.totals).toMatchObject({ unsynced_days: [E], spend_unsynced: true, spend: null, profit: null, roi: null, visits: 4, revenue: 20 });
    expect(byKey(t.rows).C1).toMatchObject({ spend: null, profit: null, spend_unsynced: true, revenue: 20, unsynced_revenue: 0, losing: false });
    // The CSV says the same: an empty spend cell and 'sí', never 0.
    const res = await s.fetch('/api/profit', {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ by: 'campaign', start_date: E, end_date: E, format: 'csv' }),
    });
    const [header, row] = (await res.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    const cell = (name: string) => row.split(',')[header.split(',').indexOf(name)];
    expect(cell('Gasto')).toBe('');
    expect(cell('Gasto sin sincronizar')).toBe('sí');
  });

  test('an admin’s sync of the day records it and when: it is no longer listed, and what C1 spent there is a real 0', async () => {
    const before = Date.now();
    await admin.profit.syncSpend({ start_date: B, end_date: B });
    const t = await admin.profit.table({ by: 'campaign', start_date: A, end_date: B });
    expect(t.totals.unsynced_days).toEqual([]);
    expect(Date.parse(t.totals.spend_synced_at!)).toBeGreaterThanOrEqual(before - 1000);
    // Days older than the nightly window are settled: a synced range of last month is not stale.
    expect(t.totals.spend_stale).toBe(false);
    expect(byKey(t.rows).C1).toMatchObject({ spend: 8, revenue: 20, profit: 12, unsynced_revenue: 0 });
    const coverage = (await s.app.services.store.settings.get(SPEND_COVERAGE_KEY)) as Record<string, Record<string, string>>;
    expect(Object.keys(coverage[SANDBOX_ACCOUNT])).toEqual([B]);
  });

  test('the sync record keeps only the last RECORD_DAYS days', async () => {
    await s.app.services.completeness.recordSync(addDays(TODAY, -RECORD_DAYS - 5), addDays(TODAY, -RECORD_DAYS + 1));
    const days = Object.keys(
      ((await s.app.services.store.settings.get(SPEND_COVERAGE_KEY)) as Record<string, Record<string, string>>)[SANDBOX_ACCOUNT],
    );
    expect(days.filter((d) => d < B).sort()).toEqual([addDays(TODAY, -RECORD_DAYS), addDays(TODAY, -RECORD_DAYS + 1)]);
  });
});

describe('zone reports final or partial', () => {
  const yesterday = addDays(TODAY, -1);

  test('by the clock: a day over is final, the day still running partial; a flag overrides either way, and a later import confirms', async () => {
    let r = await importReport([reportRow(yesterday, 'ZF', 1), reportRow(TODAY, 'ZF', 1)]);
    expect(r.status).toBe(200);
    expect(r.body.days).toEqual([
      { date: yesterday, report: 'final' },
      { date: TODAY, report: 'partial' },
    ]);
    // A report known incomplete, after its day.
    r = await importReport([reportRow(yesterday, 'ZF', 2)], 'partial');
    expect(r.body.days).toEqual([{ date: yesterday, report: 'partial' }]);
    let t = await admin.profit.table({ by: 'day', start_date: yesterday, end_date: TODAY });
    expect(t.totals.partial_days).toEqual([yesterday, TODAY]);
    // Confirmed complete before the day ends; yesterday's comes again, complete, after its day: final.
    r = await importReport([reportRow(TODAY, 'ZF', 3)], 'final');
    expect(r.body.days).toEqual([{ date: TODAY, report: 'final' }]);
    r = await importReport([reportRow(yesterday, 'ZF', 4)]);
    expect(r.body.days).toEqual([{ date: yesterday, report: 'final' }]);
    t = await admin.profit.table({ by: 'day', start_date: yesterday, end_date: TODAY });
    expect(t.totals.partial_days).toEqual([]);
    const finality = (await s.app.services.store.settings.get(REPORT_FINALITY_KEY)) as Record<string, { report: string }>;
    expect(finality[TODAY].report).toBe('final');
  });

  test('a bad flag is a 400 in the user’s words and stores nothing', async () => {
    const rows = await s.app.services.warehouse.zoneReports.countRows();
    const finality = JSON.stringify(await s.app.services.store.settings.get(REPORT_FINALITY_KEY));
    const r = await importReport([reportRow(yesterday, 'ZBAD', 9)], 'maybe');
    expect(r.status).toBe(400);
    expect(r.body.detail).toBe('Estado del informe: debe ser final (informe completo) o partial (informe incompleto)');
    expect(await s.app.services.warehouse.zoneReports.countRows()).toBe(rows);
    expect(JSON.stringify(await s.app.services.store.settings.get(REPORT_FINALITY_KEY))).toBe(finality);
  });

  test('a report with rows but no record: final before today, partial today', async () => {
    await importRows(s.app.services.warehouse, [zoneReportRow(addDays(TODAY, -3), 'ZN', { revenue: 1 }), zoneReportRow(addDays(TODAY, 1), 'ZN')]);
    const t = await admin.profit.table({ by: 'day', start_date: addDays(TODAY, -3), end_date: addDays(TODAY, 1) });
    expect(t.totals.partial_days).toEqual([addDays(TODAY, 1)]);
  });

  test('today’s report loaded early is partial: today’s estimate is its visits × the trailing RPV and grows as visits come in; Valor is that RPV', async () => {
    // Zone ZT: 10 over 10 visits on each of the 7 days before today (final); today's early report says 5 for its first 10 visits.
    const w = s.app.services.warehouse;
    await importRows(
      w,
      [1, 2, 3, 4, 5, 6, 7].map((k) => zoneReportRow(addDays(TODAY, -k), 'ZT', { revenue: 10 })),
    );
    await w.referrers.append([1, 2, 3, 4, 5, 6, 7].flatMap((k) => visits(10, addDays(TODAY, -k), 'ZT', false)));
    await w.referrers.append(visits(10, TODAY, 'ZT'));
    const imported = await importReport([reportRow(TODAY, 'ZT', 5)]);
    expect(imported.body.days).toEqual([{ date: TODAY, report: 'partial' }]);

    const todayRow = async () => byKey((await admin.profit.table({ by: 'day', start_date: TODAY, end_date: TODAY, campaign_id: 'C1' })).rows)[TODAY];
    const first = await todayRow();
    expect(first).toMatchObject({ visits: 10, revenue: 10, estimated: true });
    await w.referrers.append(visits(10, TODAY, 'ZT', true, 600));
    const second = await todayRow();
    expect(second).toMatchObject({ visits: 20, revenue: 20, estimated: true });
    expect(second.revenue!).toBeGreaterThan(first.revenue!);
    const t = await admin.profit.table({ by: 'campaign', start_date: TODAY, end_date: TODAY });
    expect(t.totals.estimated_days).toEqual([TODAY]);

    // 'Valor' of a visit to ZT today, as Logs shows it: the trailing RPV, not 5 ÷ visits.
    const logs = await admin.referrers.logs({ zoneId: 'ZT', startDate: `${TODAY}T00:00:00.000Z`, endDate: `${TODAY}T23:59:59.999Z` });
    expect(logs.rows.length).toBeGreaterThan(0);
    for (const row of logs.rows) expect(row.value).toBe(1);
  });
});

describe('bad input', () => {
  test('an unknown report flag from a signed-in admin is refused the same way', async () => {
    const e = await failure(
      admin.ingest.zoneReport({ report: 'complete' as 'final' }, { rawBody: '[]', headers: { 'content-type': 'application/json' } }),
    );
    expect(e.status).toBe(400);
    expect(e.detail).toBe('Estado del informe: debe ser final (informe completo) o partial (informe incompleto)');
  });
});
