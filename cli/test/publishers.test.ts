// `adops publishers`: revenue shares set from the terminal drive how later imports split revenue.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PublisherShare } from '@adops/core';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/helpers.js';
import { newConfigDir, runCli } from './helpers.js';
import { parseShare } from '../src/commands/publishers.js';

let server: TestServer;
let dir: string;
const cli = (args: string[]) => runCli(args, dir, server.url);

beforeAll(async () => {
  server = await startTestServer();
  dir = await newConfigDir();
  expect((await runCli(['login', '--email', ADMIN.email], dir, server.url, { stdin: `${ADMIN.password}\n` })).code).toBe(0);
});
afterAll(async () => {
  await server?.close();
});

it('reads a share as a fraction, a comma decimal or a percentage', () => {
  expect(parseShare('0.65')).toBe(0.65);
  expect(parseShare('0,65')).toBe(0.65);
  expect(parseShare('65%')).toBeCloseTo(0.65, 10);
  expect(() => parseShare('mucho')).toThrow(/no válido/);
});

it('sets a share that the next import uses to derive publisher revenue and margin', async () => {
  const set = await cli(['publishers', 'set', 'Diario Norte', '60%', '--json']);
  expect(set.code).toBe(0);
  expect(JSON.parse(set.stdout)).toMatchObject({ name: 'Diario Norte', revenue_share: 0.6, configured: true });

  const listed = JSON.parse((await cli(['publishers', 'list', '--json'])).stdout) as PublisherShare[];
  expect(listed.find((p) => p.name === 'Diario Norte')).toMatchObject({ revenue_share: 0.6 });

  const admin = await server.admin();
  const row = {
    date: '2026-11-01',
    advertiser: 'AdNova',
    publisher: 'Diario Norte',
    zone_id: 'z1',
    geo: 'ES',
    source: 'web',
    domain: 'n.es',
    impressions: 1000,
    clicks: 10,
    revenue: 50,
  };
  const res = await server.fetch('/api/ingest/zone-report', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
    body: JSON.stringify([row]),
  });
  expect(res.status).toBe(200);
  const details = await admin.adReport.zoneDetails({ start_date: '2026-11-01', end_date: '2026-11-01' });
  // 50 × 0.6 = 30 paid to the publisher; 50 − 30 = 20 margin.
  expect(details.rows[0]).toMatchObject({ p_revenue: 30, margin: 20 });
});

it('refuses a share outside 0–2 with the server detail and a bad number before sending', async () => {
  const tooBig = await cli(['publishers', 'set', 'Diario Norte', '250%']);
  expect(tooBig.code).toBe(1);
  expect(tooBig.stderr).toMatch(/entre 0 y 2/);
  const bad = await cli(['publishers', 'set', 'Diario Norte', 'abc']);
  expect(bad.code).toBe(2);
  const listed = JSON.parse((await cli(['publishers', 'list', '--json'])).stdout) as PublisherShare[];
  expect(listed.find((p) => p.name === 'Diario Norte')?.revenue_share).toBe(0.6);
});
