// Finance keeps working from its 2025-01-01 default long after 800 days have passed.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startTestServer();
  token = (await s.admin()).token;
});
afterAll(() => s.close());

const get = (p: string) => s.fetch(p, { headers: { authorization: `Bearer ${token}` } });

test('finance accepts a range of several years while zone reports keep their 800-day limit', async () => {
  const range = 'start_date=2025-01-01&end_date=2028-12-31';
  for (const p of ['/api/finance/advertisers', '/api/finance/publishers', '/api/finance/margin']) {
    const res = await get(`${p}?${range}`);
    expect(res.status, p).toBe(200);
  }
  const zone = await get(`/api/ad-report/zone-details?${range}`);
  expect(zone.status).toBe(400);
  expect(((await zone.json()) as { detail: string }).detail).toMatch(/800 días/);
});

test('finance still refuses more than ten years and a reversed range', async () => {
  expect((await get('/api/finance/advertisers?start_date=2015-01-01&end_date=2026-01-01')).status).toBe(400);
  const reversed = await get('/api/finance/margin?start_date=2026-02-01&end_date=2026-01-01');
  expect(reversed.status).toBe(400);
  expect(((await reversed.json()) as { detail: string }).detail).toBe('La fecha de inicio debe ser anterior o igual a la de fin');
});
