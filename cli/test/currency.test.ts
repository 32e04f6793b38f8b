// One currency in the terminal: every amount `adops` shows is in the network's currency
// (ADOPS_CURRENCY, named by each answer's X-Adops-Currency), the same figure and symbol the web
// shows — Demand's cards included, which once read euros whatever the network's currency.
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney, type AdvertiserRevenue, type DashboardOverview } from '@adops/core';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/helpers.js';
import { newConfigDir, runCli } from './helpers.js';

let server: TestServer;
let dir: string;
const cli = (args: string[]) => runCli(args, dir, server.url, { isTTY: true, columns: 200 });
const RANGE = ['--from', '2026-03-01', '--to', '2026-03-02'];
const query = { start_date: '2026-03-01', end_date: '2026-03-02' };

async function startWith(currency: string): Promise<void> {
  server = await startTestServer({ currency });
  dir = await newConfigDir();
  expect((await runCli(['login', '--email', ADMIN.email], dir, server.url, { stdin: `${ADMIN.password}\n` })).code).toBe(0);
  const api = await server.admin();
  await api.ingest.zoneReport(undefined, {
    rawBody:
      'date,advertiser,publisher,zone_id,impressions,clicks,revenue,p_revenue\n2026-03-01,AdNova,PubA,Z-1,1000,10,1234.5,700\n2026-03-02,BidSphere,PubB,Z-2,500,5,99.25,60',
    headers: { 'content-type': 'text/csv' },
  });
}

describe.each(['EUR', 'USD'])('a network in %s', (currency) => {
  const symbol = currency === 'EUR' ? '€' : '$';
  const other = currency === 'EUR' ? '$' : '€';
  beforeAll(() => startWith(currency));
  afterAll(() => server?.close());

  it('Demand shows each advertiser’s revenue and margin in it, as the API answers them', async () => {
    const answer: AdvertiserRevenue = await (await server.admin()).demand.advertiserRevenue(query);
    const r = await cli(['demand', ...RANGE]);
    expect(r.code, r.stderr).toBe(0);
    const text = stripVTControlCharacters(r.stdout);
    expect(text).toContain(formatMoney(answer.totals.AdNova.revenue, currency));
    expect(text).toContain(formatMoney(answer.totals.BidSphere.margin, currency));
    expect(text).toContain(`${symbol}1.234,50`);
    expect(text).not.toContain(other);
  });

  it('Finance and the Dashboard show the same amounts in it', async () => {
    const finance = stripVTControlCharacters((await cli(['finance', ...RANGE])).stdout);
    expect(finance).toContain(`${symbol}1.333,75`);
    expect(finance).not.toContain(other);
    const overview: DashboardOverview = await (await server.admin()).dashboard.overview(query);
    const dashboard = stripVTControlCharacters((await cli(['dashboard', ...RANGE])).stdout);
    expect(dashboard).toContain(formatMoney(overview.summary.revenue, currency));
    expect(dashboard).not.toContain(other);
  });
});
