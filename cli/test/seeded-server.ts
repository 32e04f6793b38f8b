// The seeded zone rows the terminal's report and dashboard tests read (reports.test.tsx,
// report-summaries.test.tsx, dashboard.test.tsx), and a test server holding them with a signed-in
// config dir: every expected number in those files is derived from SEED.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, expect } from 'vitest';
import { addDays, todayIn } from '@adops/core';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/helpers.js';
import { newConfigDir, runCli } from './helpers.js';

export const today = todayIn('UTC');
export const d1 = addDays(today, -1);
export const d2 = addDays(today, -2);
export const old = addDays(today, -20);

/** The seeded zone rows; every expected number below is derived from these. */
export const SEED = [
  {
    date: d1,
    advertiser: 'AdNova',
    publisher: 'Pub Uno',
    zone_id: '1001',
    geo: 'ES',
    source: 'web',
    domain: 'uno.com',
    impressions: 10000,
    monetized_impressions: 8000,
    clicks: 80,
    revenue: 12.5,
    margin: 3.75,
    tq: 0.8,
  },
  {
    date: d1,
    advertiser: 'BidSphere',
    publisher: 'Pub Dos',
    zone_id: '2002',
    geo: 'MX',
    source: 'push',
    domain: 'dos.com',
    impressions: 5000,
    monetized_impressions: null,
    clicks: 25,
    revenue: 4,
    margin: 1,
    tq: 0.5,
  },
  {
    date: d1,
    advertiser: 'Clickora',
    publisher: '=SUM(A1:A9)',
    zone_id: '3003',
    geo: 'AR',
    source: 'web',
    domain: 'tres.com',
    impressions: 30000,
    monetized_impressions: 20000,
    clicks: 10,
    revenue: 1,
    margin: 0.2,
    tq: null,
  },
  {
    date: d2,
    advertiser: 'AdNova',
    publisher: 'Pub Uno',
    zone_id: '1001',
    geo: 'ES',
    source: 'web',
    domain: 'uno.com',
    impressions: 20000,
    monetized_impressions: 16000,
    clicks: 160,
    revenue: 30,
    margin: 9,
    tq: 0.9,
  },
  {
    date: d2,
    advertiser: 'Clickora',
    publisher: 'Pub Dos',
    zone_id: '2002',
    geo: 'MX',
    source: 'push',
    domain: 'dos.com',
    impressions: 1000,
    monetized_impressions: 900,
    clicks: 0,
    revenue: 0.5,
    margin: 0.1,
    tq: null,
  },
  {
    date: old,
    advertiser: 'AdNova',
    publisher: 'Pub Uno',
    zone_id: '1001',
    geo: 'ES',
    source: 'web',
    domain: 'uno.com',
    impressions: 99999,
    monetized_impressions: 99999,
    clicks: 999,
    revenue: 999,
    margin: 99,
    tq: 0.7,
  },
];
export const inDefaultRange = SEED.filter((r) => r.date !== old);
export const sum = (rows: typeof SEED, key: 'impressions' | 'clicks' | 'revenue' | 'margin') => rows.reduce((s, r) => s + r[key], 0);

export const strip = (text: string) => stripVTControlCharacters(text);

/**
 * A test server with SEED imported, a config dir signed in as the admin and a temp dir for files,
 * started before the file's tests and removed after them.
 */
export function seededServer() {
  const state = {} as { server: TestServer; dir: string; tmp: string };
  beforeAll(async () => {
    state.server = await startTestServer();
    const admin = await state.server.admin();
    const ndjson = `${SEED.map((r) => JSON.stringify(r)).join('\n')}\n`;
    const result = await admin.ingest.zoneReport(undefined, { rawBody: ndjson, headers: { 'content-type': 'application/x-ndjson' } });
    expect(result).toMatchObject({ inserted: SEED.length, rejected_total: 0 });
    state.dir = await newConfigDir();
    state.tmp = await mkdtemp(path.join(tmpdir(), 'adops-cli-reports-'));
    expect((await runCli(['login', '--email', ADMIN.email], state.dir, state.server.url, { stdin: `${ADMIN.password}\n` })).code).toBe(0);
  });
  afterAll(async () => {
    await state.server?.close();
    if (state.tmp) await rm(state.tmp, { recursive: true, force: true });
  });
  return {
    get server() {
      return state.server;
    },
    get dir() {
      return state.dir;
    },
    get tmp() {
      return state.tmp;
    },
    cli: (args: string[], options?: Parameters<typeof runCli>[3]) => runCli(args, state.dir, state.server.url, options),
  };
}
