// `adops alerts backtest RULE --days 14 [--json]` on issue 28's hand-built history
// (server/test/backtest-history.ts; the numbers are worked out in server/test/alerts-backtest.test.ts):
// the terminal and the API agree — the same JSON, and on a terminal the same summary in words
// with money as every screen shows it — and it never calls Meta.
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { backtestSummaryLines, formatMoney, type AlertBacktest } from '@adops/core';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/helpers.js';
import { BACKTEST_RULE, loadBacktestHistory, type BacktestHistory } from '../../server/test/backtest-history.js';
import { newConfigDir, runCli } from './helpers.js';

let server: TestServer;
let dir: string;
let ruleId: string;
let h: BacktestHistory;
const requests = () => server.app.services.campaigns.providers.metaSandbox!.requests.length;

beforeAll(async () => {
  server = await startTestServer({ alerts: { everySeconds: 0, mailFrom: 'a@b.c', webhookAttempts: 1, webhookBackoffMs: 1, appUrl: null } });
  dir = await newConfigDir();
  expect((await runCli(['login', '--email', ADMIN.email], dir, server.url, { stdin: `${ADMIN.password}\n` })).code).toBe(0);
  const admin = await server.admin();
  h = await loadBacktestHistory(server, admin.token);
  ruleId = (await admin.alerts.createRule(BACKTEST_RULE)).id;
});
afterAll(() => server?.close());

/** The answer without what moves with the clock when the two calls fall in different hours (the last hour replayed, today's paused hours). */
const steady = (b: AlertBacktest, sameHour: boolean) => (sameHour ? b : { ...b, to: null, evaluations: null, daily: null });

it('--json is the API’s answer; on a terminal the summary, the actions and the notes in words', async () => {
  const before = requests();
  const json = await runCli(['alerts', 'backtest', ruleId, '--days', '14', '--json'], dir, server.url);
  expect(json.code, json.stderr).toBe(0);
  const cli = JSON.parse(json.stdout) as AlertBacktest;
  const api = await (await server.admin()).alerts.backtestRule({ id: ruleId, days: 14 });
  expect(steady(cli, cli.to === api.to)).toEqual(steady(api, cli.to === api.to));
  expect(cli.summary).toMatchObject({ alerts: 6, pauses: 5, resumes: 3 });

  const tty = await runCli(['alerts', 'backtest', ruleId, '--days', '14'], dir, server.url, { isTTY: true, columns: 250 });
  expect(tty.code, tty.stderr).toBe(0);
  const out = stripVTControlCharacters(tty.stdout);
  expect(out).toContain('Regla «Pierden dinero»: ROI < 0 % en cualquier campaña, últimas 24 h con gasto ≥ 10,00 (solo días cerrados)');
  for (const line of backtestSummaryLines(api)) expect(out).toContain(line);
  expect(out).toContain(
    `Gasto evitado ${formatMoney(182.5, 'USD')} · Revenue perdido ${formatMoney(127.92, 'USD')} · Efecto neto ${formatMoney(54.58, 'USD')}`,
  );
  expect(out).toContain(`Cambiaría de estado más de una vez (flapping): ${h.N.campaign_name} (${h.N.campaign_id}) ×4`);
  expect(out).toContain('Retenidas: 13 por la espera, 22 por el límite diario');
  expect(out.match(/Reactivación/g)).toHaveLength(3);
  expect(out).toContain('Meta no se consulta');
  expect(requests()).toBe(before);
});

it('at 80 columns the summary and the notes wrap between words, never inside one', async () => {
  const tty = await runCli(['alerts', 'backtest', ruleId, '--days', '14'], dir, server.url, { isTTY: true, columns: 80 });
  expect(tty.code, tty.stderr).toBe(0);
  const out = stripVTControlCharacters(tty.stdout);
  const [head, notes] = out.split('\nNotas:\n');
  // The prose: everything but the table of actions (Ink draws it at the same width, cells cut).
  const prose = [...head.split('\n\n')[0].split('\n'), ...notes.split('\n')];
  for (const line of prose) expect(line.length, line).toBeLessThanOrEqual(80);
  // Every word of every note and summary line is whole on some line: joined back, the texts reappear as the API has them.
  const api = await (await server.admin()).alerts.backtestRule({ id: ruleId, days: 14 });
  const joined = out.replace(/\n {2}/g, ' ');
  expect(api.notes.length).toBeGreaterThan(3);
  for (const n of api.notes) {
    expect(n.length).toBeGreaterThan(0);
    expect(joined).toContain(`- ${n}`);
  }
  for (const line of backtestSummaryLines(api)) expect(joined).toContain(line);
  // The long notes did need wrapping at 80.
  expect(api.notes.some((n) => n.length > 80)).toBe(true);
});

it('--days other than 7, 14 or 30 is a usage error before anything is sent; an unknown rule is the server’s 404', async () => {
  const bad = await runCli(['alerts', 'backtest', ruleId, '--days', '10'], dir, server.url);
  expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('--days no válido: 10 (7, 14 o 30)')]);
  const unknown = await runCli(['alerts', 'backtest', 'no-existe', '--json'], dir, server.url);
  expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringContaining('Regla no encontrada')]);
});
