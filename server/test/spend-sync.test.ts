// The Meta spend sync against the sandbox: ad-level daily insights (paged, rate limits retried)
// stored per ad and day; a second sync of the same days stores nothing again; a failure that
// outlasts the retries is a 502 with Meta's message and leaves what was stored; admins only.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addDays, todayIn, type Api } from '@adops/core';
import { startTestServer, failure, type TestServer } from './helpers.js';
import { sandboxDailyMetrics, type MetaSandbox } from '../src/sandbox/meta/index.js';

let s: TestServer;
let admin: Api & { token: string };
let sandbox: MetaSandbox;
const today = todayIn('UTC', new Date());
const RANGE = { start_date: addDays(today, -6), end_date: today };

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.admin();
  sandbox = s.app.services.campaigns.providers.metaSandbox!;
});
afterAll(() => s.close());

describe('spend sync', () => {
  test('stores every ad’s spend per day as Meta reports it, across small pages, with the fields and range asked for', async () => {
    sandbox.maxPageSize = 7;
    sandbox.requests.length = 0;
    const r = await admin.profit.syncSpend(RANGE);
    expect(r.rows).toBeGreaterThan(20);
    expect(r).toMatchObject({ ...RANGE, inserted: r.rows, updated: 0, unchanged: 0, currencies: ['EUR'] });
    const calls = sandbox.requestsTo('insights');
    expect(calls.length).toBe(Math.ceil(r.rows / 7));
    expect(calls[0].params).toMatchObject({
      level: 'ad',
      time_increment: '1',
      fields: 'campaign_id,campaign_name,adset_id,adset_name,ad_id,ad_name,spend,impressions,clicks,account_currency',
      time_range: { since: RANGE.start_date, until: RANGE.end_date },
    });
    const rows = await s.app.services.warehouse.spend.rows({ from: RANGE.start_date, to: RANGE.end_date });
    expect(rows.length).toBe(r.rows);
    for (const row of rows) {
      const m = sandboxDailyMetrics(row.ad_id, row.date)!;
      expect(row).toMatchObject({ spend: m.spend, impressions: m.impressions, clicks: m.clicks, currency: 'EUR', account_id: 'act_1000000000001' });
      expect(row.campaign_name).toBeTruthy();
    }
    // The ad rows add up to what the campaign list shows Meta counted (in the ad account's currency) for the same days.
    const campaigns = await admin.campaigns.insights({ from_date: RANGE.start_date, to_date: RANGE.end_date, status: 'ALL', page_size: 500 });
    for (const c of campaigns.rows.filter((x) => x.has_data)) {
      const sum = rows.filter((x) => x.campaign_id === c.id).reduce((a, x) => a + x.spend, 0);
      expect(c.account_spend).toBeCloseTo(sum, 2);
    }
  });

  test('a second sync of the same days stores nothing again', async () => {
    const before = await s.app.services.warehouse.spend.countRows();
    const r = await admin.profit.syncSpend(RANGE);
    expect(r).toMatchObject({ inserted: 0, updated: 0, unchanged: r.rows });
    expect(await s.app.services.warehouse.spend.countRows()).toBe(before);
  });

  test('rate limits are waited out and retried; the sync completes', async () => {
    sandbox.requests.length = 0;
    sandbox.failNext('insights', { code: 17, message: 'User request limit reached' }, 2);
    const r = await admin.profit.syncSpend(RANGE);
    expect(r.unchanged).toBe(r.rows);
    const statuses = sandbox.requestsTo('insights').map((q) => q.status);
    expect(statuses.slice(0, 3)).toEqual([403, 403, 200]);
  });

  test('a failure beyond the retries answers 502 with Meta’s message and keeps what was stored', async () => {
    const before = await s.app.services.warehouse.spend.countRows();
    sandbox.failNext(
      'insights',
      { code: 17, message: 'User request limit reached', error_user_msg: 'Demasiadas llamadas a la cuenta publicitaria.' },
      10,
    );
    const e = await failure(admin.profit.syncSpend(RANGE));
    sandbox.clearFailures();
    expect(e.status).toBe(502);
    expect(e.detail).toBe('Demasiadas llamadas a la cuenta publicitaria.');
    expect(await s.app.services.warehouse.spend.countRows()).toBe(before);
  });

  test('a bad range is a 400 in Spanish; a regular user may not sync', async () => {
    expect((await failure(admin.profit.syncSpend({ start_date: today }))).detail).toContain('Indica las dos fechas del rango, o ninguna');
    expect((await failure(admin.profit.syncSpend({ start_date: today, end_date: addDays(today, -1) }))).detail).toBe(
      'La fecha de inicio debe ser anterior o igual a la de fin',
    );
    await admin.admin.createUser({ first_name: 'Ana', email: 'ana@example.com', password: 'una-clave-larga-1' });
    const ana = await s.as('ana@example.com', 'una-clave-larga-1');
    expect((await failure(ana.profit.syncSpend({}))).status).toBe(403);
  });

  test('the first scheduled run after start syncs the nightly window (a new install’s week at once), later ones the recent days; each is recorded', async () => {
    // 01:00 UTC, before the nightly hour (03:00).
    const early = new Date(`${today}T01:00:00Z`);
    const first = await s.app.services.spend.tick(early);
    expect(first).toMatchObject({ start_date: addDays(today, -6), end_date: today });
    const next = await s.app.services.spend.tick(new Date(early.getTime() + 15 * 60_000));
    expect(next).toMatchObject({ start_date: addDays(today, -1), end_date: today });
    const week = await admin.profit.table({ start_date: addDays(today, -6), end_date: today });
    expect(week.totals.unsynced_days).toEqual([]);
    expect(week.totals.spend_synced_at).not.toBeNull();
  });
});
