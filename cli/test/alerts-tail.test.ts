// `adops tail --alerts` against the real server: the latest alerts, then each one as the
// evaluator fires and resolves it (NDJSON in a pipe, a line each on a terminal); `adops alerts
// channels` turns the daily digest on; `adops alerts history` shows each notice's outcome.
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertStreamEvent, AlertSubscription } from '@adops/core';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/helpers.js';
import { event } from '../../server/test/warehouse-contract.js';
import { startSmtpSink, type SmtpSink } from '../../server/test/smtp-sink.js';
import { run } from '../src/main.js';
import { fakeTerminal, newConfigDir, runCli, waitFor } from './helpers.js';

const T = Math.floor((Date.now() - 86_400_000) / 3_600_000) * 3_600_000;
const MIN = 60_000;

let server: TestServer;
let smtp: SmtpSink;
let dir: string;
let nextId = 1;

beforeAll(async () => {
  smtp = await startSmtpSink();
  smtp.refuse.add(ADMIN.email);
  server = await startTestServer({
    alerts: { everySeconds: 0, smtpUrl: smtp.url, mailFrom: 'a@adops.test', webhookAttempts: 1, webhookBackoffMs: 1, appUrl: null, digestHour: 8 },
  });
  dir = await newConfigDir();
  expect((await runCli(['login', '--email', ADMIN.email], dir, server.url, { stdin: `${ADMIN.password}\n` })).code).toBe(0);
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const burst = (at: number, ip: string) =>
  server.app.services.warehouse.referrers.append(Array.from({ length: 25 }, (_, i) => event(nextId++, at + i, { zone_id: 'Z-1', ip })));

/** `adops <args>` running until stopped, its output collected. */
function start(args: string[], isTTY = false, columns = 200, keyboard?: PassThrough) {
  let text = '';
  let errText = '';
  const stdout = Object.assign(new PassThrough(), { columns });
  stdout.on('data', (c) => (text += c));
  const stderr = new PassThrough();
  stderr.on('data', (c) => (errText += c));
  const stdin = keyboard ?? new PassThrough();
  if (!keyboard) stdin.end();
  const controller = new AbortController();
  const done = run(args, {
    stdout,
    stderr,
    stdin,
    env: { ADOPS_CONFIG_DIR: dir, ADOPS_URL: server.url, ADOPS_TZ: 'UTC' },
    isTTY,
    signal: controller.signal,
  });
  return { stdout: () => text, stderr: () => errText, stop: () => controller.abort(), done };
}

describe('adops alerts channels', () => {
  it("turns 'Resumen diario' and e-mail on, keeping the rest; a bad value is a usage error", async () => {
    const set = await runCli(['alerts', 'channels', '--digest', 'sí', '--email', 'sí'], dir, server.url);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout) as AlertSubscription).toMatchObject({ in_app: true, email: true, digest: true, rule_ids: null });
    const shown = await runCli(['alerts', 'channels'], dir, server.url, { isTTY: true });
    expect(shown.stdout).toContain('Resumen diario: sí');
    expect(shown.stdout).toContain('Email: sí');
    const bad = await runCli(['alerts', 'channels', '--digest', 'quizá'], dir, server.url);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--digest no válido: quizá (sí o no)');
  });
});

describe('adops tail --alerts', () => {
  it('prints the latest alerts, then each one as it fires and resolves (NDJSON); the history shows each notice', async () => {
    const admin = await server.admin();
    const rule = await admin.alerts.createRule({ name: 'IPs calientes', kind: 'ip_burst', params: { visits: 20, minutes: 10 } });
    await burst(T - MIN, '10.1.1.1');
    await server.app.services.alerts.evaluate(T); // before the tail: its backlog

    const tail = start(['tail', '--alerts', '-n', '5', '--json']);
    await waitFor(() => tail.stderr().includes('alertas en vivo'), 'the stream to open');
    await burst(T + 2 * MIN, '10.2.2.2');
    await server.app.services.alerts.evaluate(T + 3 * MIN);
    await server.app.services.alerts.evaluate(T + 30 * MIN); // both resolve
    const records = () =>
      tail
        .stdout()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as AlertStreamEvent);
    await waitFor(() => records().length >= 4, 'four records');
    tail.stop();
    expect(await tail.done).toBe(0);
    expect(records().map((r) => [r.event, r.alert.subject, r.alert.state])).toEqual([
      ['fired', '10.1.1.1', 'open'],
      ['fired', '10.2.2.2', 'open'],
      ['resolved', '10.1.1.1', 'resolved'],
      ['resolved', '10.2.2.2', 'resolved'],
    ]);
    expect(records()[0].id).toBeUndefined(); // the backlog has no stream id
    expect(records()[1].id).toEqual(expect.any(Number));

    // Each alert tried the admin's e-mail, which the SMTP server refused: the history says so
    // once the notices, sent in the background, have had their answer.
    await server.app.services.alerts.deliveries();
    const history = await runCli(['alerts', 'history', '--rule', rule.id], dir, server.url, { isTTY: true, env: { COLUMNS: '300' } });
    expect(history.code, history.stderr).toBe(0);
    expect(history.stdout).toContain('Avisos');
    expect(history.stdout).toMatch(/Email ✗ \(1 intento: Can't send mail/);
    const json = JSON.parse((await runCli(['alerts', 'history', '--rule', rule.id], dir, server.url)).stdout);
    expect(json.rows[0].deliveries).toEqual([
      expect.objectContaining({ channel: 'email', to: ADMIN.email, status: 'failed', attempts: 1, detail: expect.stringContaining('550') }),
    ]);
    await admin.alerts.deleteRule({ id: rule.id });
  });

  it('on a terminal, a line per alert saying whether it fired or resolved', async () => {
    const admin = await server.admin();
    const rule = await admin.alerts.createRule({ name: 'Pantalla', kind: 'ip_burst', params: { visits: 20, minutes: 10 } });
    const tail = start(['tail', '--alerts', '-n', '0'], true);
    await waitFor(() => tail.stderr().includes('alertas en vivo'), 'the stream to open');
    await burst(T + 120 * MIN, '10.3.3.3');
    await server.app.services.alerts.evaluate(T + 121 * MIN);
    await waitFor(() => tail.stdout().includes('10.3.3.3'), 'the alert');
    tail.stop();
    expect(await tail.done).toBe(0);
    expect(tail.stdout()).toMatch(
      /^\d\d\/\d\d\/\d{4} \d\d:\d\d(:\d\d)? {2}DISPARADA {2}\[Alertas\] Pico de una IP: IP 10\.3\.3\.3: 25 visitas humanas en 10 min \(umbral 20\) — regla «Pantalla»$/m,
    );
    await admin.alerts.deleteRule({ id: rule.id });
  });

  it('on an 80-column terminal, a long alert wraps under its text, clear of the time and state columns', async () => {
    const admin = await server.admin();
    const name = 'Pico de visitas desde una sola dirección en la red de display';
    const rule = await admin.alerts.createRule({ name, kind: 'ip_burst', params: { visits: 20, minutes: 10 } });
    const tail = start(['tail', '--alerts', '-n', '0'], true, 80);
    await waitFor(() => tail.stderr().includes('alertas en vivo'), 'the stream to open');
    await burst(T + 180 * MIN, '10.4.4.4');
    await server.app.services.alerts.evaluate(T + 181 * MIN);
    await waitFor(() => tail.stdout().includes('»'), 'the whole alert');
    tail.stop();
    expect(await tail.done).toBe(0);
    const lines = tail.stdout().split('\n').filter(Boolean);
    const head = /^\d\d\/\d\d\/\d{4} \d\d:\d\d(:\d\d)? {2}DISPARADA {2}/.exec(lines[0])?.[0];
    expect(head, lines[0]).toBeDefined();
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(80);
    for (const line of lines.slice(1)) expect(line).toMatch(new RegExp(`^ {${head!.length}}\\S`));
    // Read back, the pieces are the alert's whole text.
    const text = lines.map((l, i) => (i === 0 ? l.slice(head!.length) : l.trim())).join(' ');
    expect(text).toBe(`[Alertas] Pico de una IP: IP 10.4.4.4: 25 visitas humanas en 10 min (umbral 20) — regla «${name}»`);
    await admin.alerts.deleteRule({ id: rule.id });
  });

  it('q quits it at a terminal with exit 0, the keyboard back in line mode and the output ending its line', async () => {
    const keyboard = fakeTerminal();
    const tail = start(['tail', '--alerts', '-n', '0'], true, 80, keyboard);
    await waitFor(() => tail.stderr().includes('alertas en vivo'), 'the stream to open');
    expect(tail.stderr()).toContain('q sale');
    keyboard.write('q');
    expect(await tail.done).toBe(0);
    expect(keyboard.rawModes).toEqual([true, false]);
    expect(tail.stderr().endsWith('\n')).toBe(true);
  });

  it('a re-fired alert streams in order, at the time it fired again, after its resolution; the backlog shows both ends', async () => {
    const admin = await server.admin();
    const rule = await admin.alerts.createRule({ name: 'Vuelve', kind: 'ip_burst', params: { visits: 20, minutes: 10 }, cooldown_minutes: 60 });
    const tail = start(['tail', '--alerts', '-n', '0'], true, 250);
    await waitFor(() => tail.stderr().includes('alertas en vivo'), 'the stream to open');
    // On the evaluator's clock: half an hour ago, then 5 minutes ago, then later.
    const before = Date.now();
    const at = before - 30 * MIN;
    await burst(at - MIN, '10.5.5.5');
    await server.app.services.alerts.evaluate(at); // fires
    await server.app.services.alerts.evaluate(at + 20 * MIN); // resolves
    // The re-fire's evaluation runs on a clock 5 minutes behind its arrival: the line tells the evaluation's time.
    const again = before - 5 * MIN;
    await burst(again - MIN, '10.5.5.5');
    await server.app.services.alerts.evaluate(again); // fires again, within the hour's cooldown
    await waitFor(() => tail.stdout().includes('DE NUEVO'), 'the re-fire');
    await server.app.services.alerts.evaluate(again + 20 * MIN); // resolves again
    await waitFor(() => tail.stdout().split('RESUELTA').length === 3, 'the second resolution');
    tail.stop();
    expect(await tail.done).toBe(0);
    const lines = tail.stdout().split('\n').filter(Boolean);
    expect(lines.map((l) => l.slice(18, 27))).toEqual(['DISPARADA', 'RESUELTA ', 'DE NUEVO ', 'RESUELTA ']);
    expect(lines[2]).toContain('regla «Vuelve» (2.ª vez)');
    // Each line's time: none earlier than the one before it; the re-fire's is when it fired again.
    const times = lines.map((l) => l.slice(0, 16));
    const minutes = (t: string) => Date.UTC(+t.slice(6, 10), +t.slice(3, 5) - 1, +t.slice(0, 2), +t.slice(11, 13), +t.slice(14, 16));
    for (let i = 1; i < times.length; i++) expect(minutes(times[i]), lines.join('\n')).toBeGreaterThanOrEqual(minutes(times[i - 1]));
    expect(minutes(times[2])).toBe(Math.floor(again / MIN) * MIN);

    // Listed afterwards, the alert shows when it first fired and when it last resolved, in that order.
    const backlog = start(['tail', '--alerts', '-n', '1'], true, 250);
    await waitFor(() => backlog.stderr().includes('alertas en vivo'), 'the stream to open');
    backlog.stop();
    expect(await backlog.done).toBe(0);
    expect(
      backlog
        .stdout()
        .split('\n')
        .filter(Boolean)
        .map((l) => l.slice(18, 27)),
    ).toEqual(['DISPARADA', 'RESUELTA ']);
    expect(backlog.stdout()).toContain('(disparada 2 veces)');
    await admin.alerts.deleteRule({ id: rule.id });
  });

  it('refuses referrer filters with --alerts', async () => {
    const r = await runCli(['tail', '--alerts', '--zone', 'Z-1'], dir, server.url);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--alerts no admite --zone');
  });
});
