// One number, one place, in the terminal too: the money fixture (three advertisers whose
// November revenues round differently, monetized impressions below impressions) gives `adops` the
// same cents and the same CTR the server answers every screen — Finance, Demand, the Ad Report,
// the Api Explorer and the Dashboard — its CSV adds up to the total to the cent, and Rentabilidad
// names a day whose spend was never synced instead of counting it as 0.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINANCE_ROUNDING_NOTE, UNSYNCED_CELL, addDays, formatDateDMY, formatPercent, parseCsv, roundTo, type ProfitTable } from '@adops/core';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/helpers.js';
import { ADVERTISERS, FIXTURE, NOVEMBER } from '../../server/test/money-fixture.js';
import { C1, D1, D2, loadProfitFixture } from '../../server/test/profit-fixture.js';
import { event } from '../../server/test/warehouse-contract.js';
import { postZoneReport } from '../../server/test/reports-fixture.js';
import { newConfigDir, runCli } from './helpers.js';

let server: TestServer;
let dir: string;
const RANGE = ['--from', NOVEMBER.start_date, '--to', NOVEMBER.end_date];
const terminal = async (args: string[]) => {
  const r = await runCli(args, dir, server.url, { isTTY: true, columns: 240, rows: 200 });
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return stripVTControlCharacters(r.stdout);
};
const json = async <T>(args: string[]): Promise<T> => {
  const r = await runCli([...args, '--json'], dir, server.url);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout) as T;
};
/** The day after the profit fixture's two: visits from its campaigns, no spend row, never synced. */
const D3 = addDays(D2, 1);

beforeAll(async () => {
  server = await startTestServer();
  const admin = await server.admin();
  expect((await postZoneReport(server, admin.token, FIXTURE)).status).toBe(200);
  const warehouse = server.app.services.warehouse;
  await loadProfitFixture(warehouse);
  await warehouse.referrers.append(
    Array.from({ length: 5 }, (_, i) => event(9000 + i, Date.parse(`${D3}T12:00:00Z`) + i * 1000, { zone_id: 'Z1', ...C1 })),
  );
  dir = await newConfigDir();
  expect((await runCli(['login', '--email', ADMIN.email], dir, server.url, { stdin: `${ADMIN.password}\n` })).code).toBe(0);
});
afterAll(() => server?.close());

describe('the same cents on every face', () => {
  it('each advertiser’s November is $1,33 in adops finance, demand, report, explorer and dashboard; Finance’s TOTAL is $4,00 and it says rows may differ', async () => {
    const finance = (await terminal(['finance', ...RANGE])).replace(/\s+/g, ' ');
    for (const advertiser of ADVERTISERS) expect(finance).toMatch(new RegExp(`${advertiser} \\$1,33 \\$1,33`));
    expect(finance).toMatch(/TOTAL \$4,00 \$4,00/);
    expect(finance).toContain(FINANCE_ROUNDING_NOTE);
    const demand = (await terminal(['demand', ...RANGE])).split('\n');
    for (const advertiser of ADVERTISERS) {
      // Each advertiser's card: its days, then its 'Totales' as the server answered them.
      const totals = demand.slice(demand.indexOf(advertiser)).find((l) => l.startsWith('Totales'));
      expect(totals, advertiser).toMatch(/^Totales\s+\$1,33\s/);
    }
    for (const advertiser of ADVERTISERS) {
      const only = [...RANGE, '--advertiser', advertiser];
      const zones = await json<{ totals: { revenue: number } }>(['report', 'zones', ...only]);
      const explorer = await json<{ totals: { revenue: number } }>(['explorer', ...only]);
      const dashboard = await json<{ summary: { revenue: number }; totals: { revenue: number } }>(['dashboard', ...only]);
      const shown = [zones.totals.revenue, explorer.totals.revenue, dashboard.summary.revenue, dashboard.totals.revenue].map((v) => roundTo(v, 2));
      expect(shown, advertiser).toEqual([1.33, 1.33, 1.33, 1.33]);
    }
  });

  it('one CTR, clicks over monetized impressions: the Dashboard’s cards, the Ad Report and the Api Explorer agree (0,78 %, never 0,60 %)', async () => {
    const dashboard = await json<{ summary: { ctr: number }; totals: { ctr: number } }>(['dashboard', ...RANGE]);
    const zones = await json<{ totals: { ctr: number } }>(['report', 'zones', ...RANGE]);
    const explorer = await json<{ totals: { ctr: number } }>(['explorer', ...RANGE]);
    const advertisers = await json<{ totals: { ctr: number } }>(['report', 'advertisers', ...RANGE]);
    const ctrs = [dashboard.summary.ctr, dashboard.totals.ctr, zones.totals.ctr, explorer.totals.ctr, advertisers.totals.ctr];
    expect(ctrs.map((c) => formatPercent(c))).toEqual(Array(5).fill('0,78%'));
    expect(await terminal(['dashboard', ...RANGE])).toContain('0,78%');
  });

  it('the CSV the terminal saves adds up to the report’s total to the cent, in both flavours', async () => {
    for (const excel of [false, true]) {
      const file = path.join(dir, `zonas${excel ? '-excel' : ''}.csv`);
      const r = await runCli(['report', 'zones', ...RANGE, '--csv', file, ...(excel ? ['--excel'] : [])], dir, server.url);
      expect(r.code, r.stderr).toBe(0);
      const [head, ...rows] = parseCsv(await readFile(file, 'utf8'), excel ? ';' : ',');
      const at = head.indexOf('revenue');
      const sum = rows.reduce((a, cells) => a + Number(excel ? cells[at].replace(',', '.') : cells[at]), 0);
      expect(roundTo(sum, 2)).toBe(4);
    }
  });
});

describe('Rentabilidad in the terminal says what is missing', () => {
  it('a day whose spend was never synced is listed and reads “sin sincronizar”, never a spend of 0', async () => {
    const days = ['--by', 'day', '--from', D1, '--to', D3];
    const answer = await json<ProfitTable>(['profit', ...days]);
    expect(answer.totals.unsynced_days).toEqual([D3]);
    const d3 = answer.rows.find((r) => r.key === D3)!;
    expect(d3).toMatchObject({ spend: null, profit: null, roi: null, spend_unsynced: true });
    expect(d3.visits).toBe(5);
    const text = await terminal(['profit', ...days]);
    const line = text.split('\n').find((l) => l.includes(formatDateDMY(D3)) && l.includes(UNSYNCED_CELL));
    expect(line, text).toBeDefined();
    expect(text).toContain(formatDateDMY(D3));
  });
});
