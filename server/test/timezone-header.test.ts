// Every API answer names the reporting time zone (X-Adops-Tz) and the network's currency
// (X-Adops-Currency), successes and refusals alike, so a client (`adops`) notices when the
// server's ADOPS_TZ changed and formats every amount in ADOPS_CURRENCY; the comparison routes answer
// in that zone, and bad input is refused in words.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CURRENCY_HEADER, DashboardComparison, TIME_ZONE_HEADER, VisitsComparison, addDays, todayIn, type Api } from '@adops/core';
import { failure, startTestServer, type TestServer } from './helpers.js';

const TZ = 'America/Bogota';
let s: TestServer;
let admin: Api & { token: string };

beforeAll(async () => {
  s = await startTestServer({ tz: TZ, currency: 'EUR' });
  admin = await s.admin();
});
afterAll(() => s.close());

describe('the reporting time zone on every answer', () => {
  test.each([
    ['public health check', '/api/health', {}, 200],
    ['signed-in report', '/api/dashboard/raw-options', 'token', 200],
    ['no session', '/api/dashboard/raw-options', {}, 401],
    ['bad input', '/api/dashboard/comparison?start_date=2026-13-01&end_date=2026-11-01', 'token', 400],
    ['unknown route', '/api/nothing-here', {}, 404],
  ] as const)('%s carries it', async (_what, path, auth, status) => {
    const headers: Record<string, string> = auth === 'token' ? { authorization: `Bearer ${admin.token}` } : {};
    const res = await s.fetch(path, { headers });
    expect(res.status).toBe(status);
    expect(res.headers.get(TIME_ZONE_HEADER)).toBe(TZ);
    expect(res.headers.get(CURRENCY_HEADER)).toBe('EUR');
  });

  test('the typed client reports it', async () => {
    const seen: string[] = [];
    const { createApi } = await import('@adops/core');
    await createApi({ baseUrl: s.url, onTimeZone: (tz) => seen.push(tz), onCurrency: (c) => seen.push(c) }).health.check();
    expect(seen).toEqual([TZ, 'EUR']);
  });
});

describe('comparison routes', () => {
  test("the Dashboard's comparison is made in the reporting zone and parses as the contract says", async () => {
    const today = todayIn(TZ);
    const c = DashboardComparison.parse(await admin.dashboard.comparison({ start_date: addDays(today, -6), end_date: today }));
    expect(c).toMatchObject({ tz: TZ, today, basis: 'complete_days', current: { from: addDays(today, -6), to: addDays(today, -1) } });
  });

  test("the referrers' comparison of today stops at the current minute", async () => {
    const c = VisitsComparison.parse(await admin.referrers.comparison({}));
    expect(c.basis).toBe('same_hours');
    expect(c.label).toMatch(/^hasta las \d{2}:\d{2} frente a ayer a la misma hora$/);
    expect(c).toMatchObject({ current: { hits: 0 }, previous: { hits: 0 }, change_percent: null });
  });

  test('a reversed range is refused with a reason', async () => {
    const e = await failure(admin.dashboard.comparison({ start_date: '2026-11-20', end_date: '2026-11-01' }));
    expect(e.status).toBe(400);
    expect(e.detail).toBe('La fecha de inicio debe ser anterior o igual a la de fin');
    const r = await failure(admin.referrers.comparison({ startDate: '2026-11-20T00:00:00Z', endDate: '2026-11-01T00:00:00Z' }));
    expect(r.status).toBe(400);
    expect(r.detail).toBe('La fecha de inicio debe ser anterior o igual a la de fin');
  });
});
