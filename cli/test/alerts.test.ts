// `adops alerts`: a rule created from the terminal, what it fired listed, muted by its id and
// found muted in the history; bad input refused before anything is sent.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Alert, AlertList, AlertRule } from '@adops/core';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/helpers.js';
import { event } from '../../server/test/warehouse-contract.js';
import { newConfigDir, runAnswering, runCli } from './helpers.js';
import { parseParams } from '../src/commands/alerts.js';

let server: TestServer;
let dir: string;
const cli = (args: string[]) => runCli(args, dir, server.url);
/** On a terminal: tables and sentences instead of JSON. */
const tty = (args: string[]) => runCli(args, dir, server.url, { isTTY: true, columns: 250 });

beforeAll(async () => {
  server = await startTestServer({ alerts: { everySeconds: 0, mailFrom: 'a@b.c', webhookAttempts: 1, webhookBackoffMs: 1, appUrl: null } });
  dir = await newConfigDir();
  expect((await runCli(['login', '--email', ADMIN.email], dir, server.url, { stdin: `${ADMIN.password}\n` })).code).toBe(0);
});
afterAll(async () => {
  await server?.close();
});

/** `adops alerts create --name TQ --kind tq_low` with these `--param` pairs. */
const createTqRule = (...params: string[]) => cli(['alerts', 'create', '--name', 'TQ', '--kind', 'tq_low', ...params.flatMap((p) => ['--param', p])]);

it('reads key=value parameters as numbers, booleans or text', () => {
  expect(parseParams(['visits=500', 'threshold=0,5', 'new_only=true', 'target=news.example.com'])).toEqual({
    visits: 500,
    threshold: 0.5,
    new_only: true,
    target: 'news.example.com',
  });
  expect(() => parseParams(['visits'])).toThrow(/clave=valor/);
});

it('refuses a parameter the kind does not take (exit 2), naming the valid ones, before anything is sent', async () => {
  const before = await server.storedEntities();
  const r = await createTqRule('scope=zone', 'min_impresions=10', 'hours=6');
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(
    'Parámetro desconocido para tq_low: min_impresions (¿quisiste decir min_impressions?). Válidos: scope, target, threshold, hours, min_impressions',
  );
  expect(() => parseParams(['zzz=1'], 'ip_burst')).toThrow('Parámetro desconocido para ip_burst: zzz. Válidos: visits, minutes');
  expect(await server.storedEntities()).toBe(before);
});

it('refuses an empty cooldown (exit 2) instead of saving 0 minutes', async () => {
  const r = await cli(['alerts', 'create', '--name', 'IPs', '--kind', 'ip_burst', '--param', 'visits=10', '--param', 'minutes=5', '--cooldown', '']);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('--cooldown no válido');
});

it('shows the server refusing a TQ threshold off its 0–1 scale in the user words', async () => {
  const r = await createTqRule('scope=zone', 'threshold=5', 'hours=6');
  expect(r.code).not.toBe(0);
  expect(r.stderr).toContain('Umbral: debe ser como máximo 1');
});

/** `adops alerts create` of an IP-burst rule (10 visits in 15 min) named `name`, as JSON: the rule stored. */
async function createIpRule(name: string): Promise<AlertRule> {
  const created = await cli(['alerts', 'create', '--name', name, '--kind', 'ip_burst', '--param', 'visits=10', '--param', 'minutes=15', '--json']);
  expect(created.code, created.stderr).toBe(0);
  return JSON.parse(created.stdout) as AlertRule;
}

it('creates a rule, lists what it fired, mutes it by id and finds it muted in the history', async () => {
  const rule = await createIpRule('IPs calientes');
  expect(rule).toMatchObject({ name: 'IPs calientes', kind: 'ip_burst', params: { visits: 10, minutes: 15 }, enabled: true });
  const rules = await tty(['alerts', 'rules']);
  expect(rules.stdout).toContain('Una IP con > 10 visitas humanas en 15 min');

  const now = Date.now();
  await server.app.services.warehouse.referrers.append(
    Array.from({ length: 12 }, (_, i) => event(i + 1, now - 60_000 + i, { zone_id: 'Z-1', ip: '10.11.12.13' })),
  );
  await server.app.services.alerts.evaluate(now);

  const listed = await tty(['alerts', 'list']);
  expect(listed.code).toBe(0);
  expect(listed.stdout).toContain('IP 10.11.12.13: 12 visitas humanas en 15 min (umbral 10)');
  expect(listed.stdout).toContain('Abierta');
  const [alert] = (JSON.parse((await cli(['alerts', 'list', '--json'])).stdout) as AlertList).rows;

  const muted = await tty(['alerts', 'mute', alert.id, '--minutes', '30']);
  expect(muted.code, muted.stderr).toBe(0);
  expect(muted.stdout).toMatch(/^Alerta silenciada para ti hasta .+: IP 10\.11\.12\.13/);
  expect((await tty(['alerts', 'list'])).stdout).toContain('No hay alertas.');
  const history = JSON.parse((await cli(['alerts', 'history', '--json'])).stdout) as AlertList;
  expect(history.rows.map((a: Alert) => [a.id, a.state, a.muted_by, a.muted_for])).toEqual([[alert.id, 'muted', ADMIN.email, 'me']]);
  expect((await tty(['alerts', 'history'])).stdout).toContain('Silenciada para ti');
  expect((await tty(['alerts', 'unmute', alert.id])).stdout).toContain('Alerta abierta de nuevo');

  // A staff user's mute is theirs: the admin still lists it open. Only an admin mutes it for everyone.
  const admin = await server.admin();
  await admin.admin.createUser({ first_name: 'Bea', last_name: 'Ruiz', email: 'bea@example.com', password: 'una-clave-larga-1' });
  const beaDir = await newConfigDir();
  const bea = (args: string[]) => runCli(args, beaDir, server.url, { isTTY: true, columns: 250 });
  expect((await runCli(['login', '--email', 'bea@example.com'], beaDir, server.url, { stdin: 'una-clave-larga-1\n' })).code).toBe(0);
  const refused = await bea(['alerts', 'mute', alert.id, '--everyone']);
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain('Solo un administrador puede silenciar una alerta para todos');
  expect((await bea(['alerts', 'mute', alert.id])).stdout).toMatch(/^Alerta silenciada para ti hasta que se resuelva: IP 10\.11\.12\.13/);
  expect((await bea(['alerts', 'list'])).stdout).toContain('No hay alertas.');
  expect((await tty(['alerts', 'list'])).stdout).toContain('IP 10.11.12.13');
  expect((await tty(['alerts', 'mute', alert.id, '--everyone'])).stdout).toMatch(/^Alerta silenciada para todos hasta que se resuelva/);
  expect((await tty(['alerts', 'history'])).stdout).toContain('Silenciada para todos');
  expect((await tty(['alerts', 'unmute', alert.id, '--everyone'])).stdout).toContain('Alerta abierta de nuevo');
  expect((await bea(['alerts', 'history'])).stdout).toContain('Silenciada para ti');
});

it('refuses a bad kind or state before sending, and says the server detail for a bad parameter', async () => {
  const kind = await cli(['alerts', 'create', '--name', 'x', '--kind', 'nope']);
  expect(kind.code).not.toBe(0);
  expect(kind.stderr).toContain('Tipo no válido: nope');
  const state = await cli(['alerts', 'list', '--state', 'rota']);
  expect(state.stderr).toContain('Estado no válido: rota');
  const param = await cli(['alerts', 'create', '--name', 'x', '--kind', 'ip_burst', '--param', 'visits=-3', '--param', 'minutes=5']);
  expect(param.code).not.toBe(0);
  expect(param.stderr).toContain('Visitas: debe ser al menos 1');
  const gone = await cli(['alerts', 'mute', 'no-existe']);
  expect(gone.stderr).toContain('Alerta no encontrada');
});

it('--use-estimates makes a campaign rule count days with estimated revenue, and says so; without it the rule waits for closed days', async () => {
  const base = ['alerts', 'create', '--kind', 'campaign_roi', '--param', 'level=campaign', '--param', 'hours=24'];
  const waits = await tty([...base, '--name', 'Cerrados']);
  expect(waits.code).toBe(0);
  expect(waits.stdout).toContain('(solo días cerrados)');
  const said = await tty([...base, '--name', 'Estimados', '--use-estimates']);
  expect(said.stdout).toContain('con revenue estimado');
  const rule = (JSON.parse((await cli(['alerts', 'rules', '--json'])).stdout) as AlertRule[]).find((x) => x.name === 'Estimados');
  expect(rule?.params).toMatchObject({ use_estimates: true });
  const wrongKind = await cli([
    'alerts',
    'create',
    '--name',
    'x',
    '--kind',
    'ip_burst',
    '--param',
    'visits=5',
    '--param',
    'minutes=5',
    '--use-estimates',
  ]);
  expect(wrongKind.code).toBe(2);
  expect(wrongKind.stderr).toContain('--use-estimates es solo para reglas campaign_roi');
});

it('delete asks at a terminal, naming the rule ("n" keeps it), needs --yes off one (exit 2) and deletes with it', async () => {
  const rule = await createIpRule('Para borrar');
  const stored = async () => (await server.app.services.alerts.rules()).some((r) => r.id === rule.id);

  const piped = await cli(['alerts', 'delete', rule.id]);
  expect(piped.code).toBe(2);
  expect(piped.stderr).toContain('--yes');
  const kept = await runAnswering(['alerts', 'delete', rule.id], dir, server.url, 'n');
  expect(kept.code).toBe(130);
  expect(kept.stderr).toContain('¿Eliminar la regla «Para borrar» (Una IP con > 10 visitas humanas');
  expect(kept.stderr).toContain('y todas sus alertas? [s/N]');
  expect(await stored()).toBe(true);

  const deleted = await cli(['alerts', 'delete', rule.id, '--yes']);
  expect(deleted.code, deleted.stderr).toBe(0);
  expect(deleted.stdout).toContain('Regla eliminada');
  expect(await stored()).toBe(false);
});
