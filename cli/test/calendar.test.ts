// One calendar in the terminal: every time is shown on the reporting zone's clock (the server's
// ADOPS_TZ, or ADOPS_TZ here), never this machine's; `adops` notices when the server's zone
// changed since login and says so; dates read dd/MM/yyyy; comparisons are the server's, like
// with like. This machine runs on Pacific/Kiritimati (UTC+14) for the whole file, the server on
// America/Bogota (UTC−5): the two never agree on the hour, and rarely on the day.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, formatDateDMY, formatDateTimeDMY, todayIn, type DashboardComparison } from '@adops/core';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/helpers.js';
import { event } from '../../server/test/warehouse-contract.js';
import { run } from '../src/main.js';
import { newConfigDir, runCli, waitFor } from './helpers.js';

process.env.TZ = 'Pacific/Kiritimati';
const SERVER_TZ = 'America/Bogota';
/** Zones whose calendar days always differ (UTC−12 and UTC+14): a range computed in the wrong one shows. */
const WEST = 'Etc/GMT+12';
const EAST = 'Etc/GMT-14';
/** Of those, one whose day differs from the server's right now (they never both agree with it). */
const OTHER = todayIn(EAST) !== todayIn(SERVER_TZ) ? EAST : WEST;

let server: TestServer;
let dir: string;
const cli = (args: string[], options?: Parameters<typeof runCli>[3]) => runCli(args, dir, server.url, options);
const credentialsFile = () => path.join(dir, 'credentials.json');
const storedZone = async () => (JSON.parse(await readFile(credentialsFile(), 'utf8')) as { tz?: string }).tz;
const setStoredZone = async (tz: string) => {
  const stored = JSON.parse(await readFile(credentialsFile(), 'utf8'));
  await writeFile(credentialsFile(), JSON.stringify({ ...stored, tz }), { mode: 0o600 });
};

beforeAll(async () => {
  server = await startTestServer({ tz: SERVER_TZ, alerts: { everySeconds: 0, mailFrom: 'a@b.c', appUrl: null } });
  dir = await newConfigDir();
  const login = await cli(['login', '--email', ADMIN.email], { stdin: `${ADMIN.password}\n` });
  expect(login.code, login.stderr).toBe(0);
});
afterAll(() => server?.close());

describe('times on the reporting zone’s clock', () => {
  it('users list shows when each user was created in the server’s zone, and names it', async () => {
    const [admin] = await (await server.admin()).admin.listUsers();
    const r = await cli(['users', 'list'], { isTTY: true });
    expect(r.code, r.stderr).toBe(0);
    const text = stripVTControlCharacters(r.stdout);
    expect(text).toContain(formatDateTimeDMY(admin.created_at, SERVER_TZ));
    expect(text).toMatch(/Horas en America\/Bogota \(UTC-05:00\)/);
    // ADOPS_TZ here wins over the server's.
    const own = stripVTControlCharacters((await cli(['users', 'list'], { isTTY: true, env: { ADOPS_TZ: 'Asia/Tokyo' } })).stdout);
    expect(own).toContain(formatDateTimeDMY(admin.created_at, 'Asia/Tokyo'));
    expect(own).toContain('Horas en Asia/Tokyo (UTC+09:00)');
  });

  it('tokens list and a user’s sessions show their times in the same zone', async () => {
    const api = await server.admin();
    await api.publishers.set({ name: 'Pub Reloj', revenue_share: 0.5 });
    const token = await api.admin.createToken({ publisher_name: 'Pub Reloj' });
    const tokens = stripVTControlCharacters((await cli(['tokens', 'list'], { isTTY: true, columns: 300 })).stdout);
    expect(tokens).toContain(formatDateTimeDMY(token.created_at, SERVER_TZ));
    const [me] = await api.admin.listUsers();
    const sessions = await api.admin.userSessions({ id: me.id });
    const shown = stripVTControlCharacters((await cli(['users', 'sessions', ADMIN.email], { isTTY: true })).stdout);
    expect(shown).toContain(formatDateTimeDMY(sessions[0].expires_at, SERVER_TZ));
  });

  it('tail --alerts prints each alert at its time in ADOPS_TZ, not this machine’s', async () => {
    const api = await server.admin();
    const rule = await api.alerts.createRule({ name: 'Reloj', kind: 'ip_burst', params: { visits: 20, minutes: 10 } });
    const at = Date.parse('2026-03-10T03:30:00Z');
    await server.app.services.warehouse.referrers.append(
      Array.from({ length: 25 }, (_, i) => event(9000 + i, at - 60_000 + i, { zone_id: 'Z-1', ip: '10.9.9.9' })),
    );
    await server.app.services.alerts.evaluate(at);
    const tail = (env: Record<string, string>) => {
      let text = '';
      const stdout = Object.assign(new PassThrough(), { columns: 200 });
      stdout.on('data', (c) => (text += c));
      const stderr = new PassThrough();
      let err = '';
      stderr.on('data', (c) => (err += c));
      const stdin = new PassThrough();
      stdin.end();
      const controller = new AbortController();
      const done = run(['tail', '--alerts', '-n', '1'], {
        stdout,
        stderr,
        stdin,
        env: { ADOPS_CONFIG_DIR: dir, ADOPS_URL: server.url, ...env },
        isTTY: true,
        signal: controller.signal,
      });
      return { out: () => text, err: () => err, stop: () => controller.abort(), done };
    };
    for (const [env, zone] of [
      [{}, SERVER_TZ],
      [{ ADOPS_TZ: 'Asia/Kolkata' }, 'Asia/Kolkata'],
    ] as const) {
      const t = tail(env);
      await waitFor(() => t.out().includes('10.9.9.9'), 'the event on the screen');
      t.stop();
      expect(await t.done).toBe(0);
      // 03:30 UTC is 22:30 the day before in Bogota, 09:00 in Kolkata (and 17:30 on this machine).
      expect(t.out()).toMatch(new RegExp(`^${formatDateTimeDMY(at, zone).replace(/\//g, '\\/')} {2}DISPARADA {2}.*10\\.9\\.9\\.9`, 'm'));
      expect(t.err()).toContain(`horas en ${zone}`);
    }
    expect(formatDateTimeDMY(at, SERVER_TZ)).toBe('09/03/2026 22:30');
    await api.alerts.deleteRule({ id: rule.id });
  });
});

describe('a server whose zone changed since login', () => {
  it('is noticed on the next command: said once on stderr, kept with the session, and the days are the new zone’s', async () => {
    expect(await storedZone()).toBe(SERVER_TZ);
    expect(todayIn(OTHER)).not.toBe(todayIn(SERVER_TZ)); // the premise: the old zone's today is another day
    await setStoredZone(OTHER); // what `adops login` had learnt back then
    const r = await cli(['report', 'zones', '--preset', 'hoy', '--json'], { env: { ADOPS_TZ: undefined } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Aviso: la zona horaria del servidor es ahora ${SERVER_TZ} (antes ${OTHER})`);
    // 'Hoy' is the server's today now, not the old zone's.
    expect(JSON.parse(r.stdout)).toMatchObject({ start_date: todayIn(SERVER_TZ), end_date: todayIn(SERVER_TZ) });
    expect(await storedZone()).toBe(SERVER_TZ);
    const again = await cli(['report', 'zones', '--preset', 'hoy', '--json']);
    expect(again.stderr).not.toContain('Aviso');
  });

  it('an ADOPS_TZ here still wins, and the notice says so', async () => {
    await setStoredZone(WEST);
    const r = await cli(['report', 'zones', '--preset', 'hoy', '--json'], { env: { ADOPS_TZ: EAST } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`es ahora ${SERVER_TZ} (antes ${WEST}); ADOPS_TZ=${EAST} en tu entorno sigue mandando`);
    expect(JSON.parse(r.stdout)).toMatchObject({ start_date: todayIn(EAST) });
    expect(await storedZone()).toBe(SERVER_TZ);
  });

  it('whoami names the zone in use', async () => {
    const r = await cli(['whoami'], { isTTY: true });
    expect(r.stdout).toMatch(/^Zona: +America\/Bogota \(UTC-05:00\)$/m);
  });
});

describe('comparisons and dates on the terminal', () => {
  beforeAll(async () => {
    const today = todayIn(SERVER_TZ);
    const rows = [
      'date,advertiser,publisher,zone_id,geo,source,domain,impressions,clicks,revenue',
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13].map((k) => `${addDays(today, -k)},AdNova,Pub,Z-1,ES,search,a.com,1000,10,100`),
      `${today},AdNova,Pub,Z-1,ES,search,a.com,100,1,10`,
    ].join('\n');
    const res = await server.fetch('/api/ingest/zone-report', {
      method: 'POST',
      headers: { authorization: `Bearer ${(await server.admin()).token}`, 'content-type': 'text/csv' },
      body: rows,
    });
    expect(res.status).toBe(200);
  });

  it('dashboard --compare: a week with today compares complete days only (no fall from a partial today), in JSON and on screen', async () => {
    const today = todayIn(SERVER_TZ);
    const r = await cli(['dashboard', '--compare', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const c = JSON.parse(r.stdout).comparison as DashboardComparison;
    expect(c).toMatchObject({ basis: 'complete_days', current: { from: addDays(today, -6), to: addDays(today, -1) } });
    expect(c.change.revenue).toBe(0);
    const screen = stripVTControlCharacters((await cli(['dashboard', '--compare'], { isTTY: true })).stdout);
    expect(screen).toContain('Últimos 7 días (con hoy)');
    expect(screen.replace(/\s+/g, ' ')).toContain(`Días completos: ${formatDateDMY(addDays(today, -6))} – ${formatDateDMY(addDays(today, -1))}`);
    expect(screen).toContain('▼ 0,00%');
    // Without --compare the Δ are yesterday against the day before, and say so.
    expect(stripVTControlCharacters((await cli(['dashboard'], { isTTY: true })).stdout)).toContain(
      'variación de ayer frente a anteayer (días completos)',
    );
  });

  it('"Últimos 7 días" is the same 7 days ending yesterday on every command; the one with today has its own name', async () => {
    const today = todayIn(SERVER_TZ);
    const week = { start_date: addDays(today, -7), end_date: addDays(today, -1) };
    for (const args of [['dashboard'], ['report', 'zones'], ['demand'], ['referrers'], ['profit']]) {
      const r = await cli([...args, '--preset', 'ultimos7', '--json']);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(JSON.parse(r.stdout), args.join(' ')).toMatchObject(week);
    }
    const withToday = await cli(['report', 'zones', '--preset', 'ultimos7_hoy', '--json']);
    expect(JSON.parse(withToday.stdout)).toMatchObject({ start_date: addDays(today, -6), end_date: today });
    const demand = await cli(['demand', '--preset', 'ultimos7_hoy']);
    expect(demand.code).toBe(2);
  });

  it('referrers on a terminal compare today’s visits with yesterday’s up to the same minute', async () => {
    const screen = stripVTControlCharacters((await cli(['referrers'], { isTTY: true, columns: 250 })).stdout);
    expect(screen).toMatch(/Visitas 0: - hasta las \d\d:\d\d frente a ayer a la misma hora \(0\)/);
    expect(screen).toContain(`Hoy (${formatDateDMY(todayIn(SERVER_TZ))})`);
  });
});
