// `adops alerts actions|undo`: what the campaign rules' actions did on Meta, listed with the
// rule, the campaign and the figures, and a pause undone by its id (the sandbox receives the
// resume); staff are refused with the server's words. `alerts create --action`: a campaign rule
// with the profit guard's action.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { formatProfitFigure, type AlertAction, type AlertActionList, type AlertRule } from '@adops/core';
import { ONLY_ADMINS_SET_ACTIONS } from '../../server/src/services/alert-guard.js';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/helpers.js';
import { newConfigDir, runAnswering, runCli } from './helpers.js';

let server: TestServer;
let dir: string;
let staffDir: string;
const cli = (args: string[]) => runCli(args, dir, server.url);
const tty = (args: string[]) => runCli(args, dir, server.url, { isTTY: true, columns: 250 });
const answered = (args: string[], key: string) => runAnswering(args, dir, server.url, key, { columns: 250 });

beforeAll(async () => {
  server = await startTestServer({ alerts: { everySeconds: 0, mailFrom: 'a@b.c', webhookAttempts: 1, webhookBackoffMs: 1, appUrl: null } });
  dir = await newConfigDir();
  staffDir = await newConfigDir();
  expect((await runCli(['login', '--email', ADMIN.email], dir, server.url, { stdin: `${ADMIN.password}\n` })).code).toBe(0);
  const admin = await server.admin();
  await admin.admin.createUser({ first_name: 'Ana', last_name: 'Gómez', email: 'ana@example.com', password: 'una-clave-larga-1' });
  expect((await runCli(['login', '--email', 'ana@example.com'], staffDir, server.url, { stdin: 'una-clave-larga-1\n' })).code).toBe(0);
});
afterAll(async () => {
  await server?.close();
});

it('lists the actions and undoes a pause by its id; staff get the 403', async () => {
  expect((await tty(['alerts', 'actions'])).stdout).toContain('Ninguna regla ha actuado en Meta.');
  // A pause the profit guard made on a sandbox campaign (alerts-guard.test.ts makes them through the rules).
  const sandbox = server.app.services.campaigns.providers.metaSandbox!;
  const campaign = sandbox.ads().find((a) => sandbox.objects.get(a.campaign_id)?.status === 'ACTIVE')!.campaign_id;
  await server.app.services.campaigns.providers.meta.setStatus(campaign, 'PAUSED');
  await server.app.services.store.alertActions.create({
    id: 'accion-1',
    rule_id: 'regla-1',
    rule_name: 'Campañas que pierden',
    subject: campaign,
    level: 'campaign',
    account: 'act_1000000000001',
    action: 'pause',
    trigger: 'rule',
    status: 'done',
    detail: null,
    reason: `Campaña ${campaign}: ROI −80,0 % (umbral 0,0 %)`,
    figures: { spend: 50, revenue: 10, profit: -40, roi: -80, cpc: 2.5, break_even_cpc: 0.5 },
    at: new Date().toISOString(),
    undone_at: null,
    undone_by: null,
    undone_by_rule: false,
  });
  const listed = await tty(['alerts', 'actions']);
  expect(listed.code, listed.stderr).toBe(0);
  expect(listed.stdout).toContain('accion-1');
  expect(listed.stdout).toContain('Pausa');
  // The figures as Rentabilidad shows them: spend in the network's currency, ROI with its decimals.
  expect(listed.stdout).toContain(formatProfitFigure('spend', 50, 'USD'));
  expect(listed.stdout).toContain(formatProfitFigure('roi', -80, 'USD'));
  expect(listed.stdout).toContain('Campañas que pierden');
  const json = JSON.parse((await cli(['alerts', 'actions', '--json'])).stdout) as AlertActionList;
  expect(json.rows.map((a) => [a.id, a.undoable])).toEqual([['accion-1', true]]);

  const refused = await runCli(['alerts', 'undo', 'accion-1', '--yes'], staffDir, server.url);
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain('No autorizado');

  // Off a terminal nobody can confirm: a usage error naming --yes, and the campaign stays paused.
  const unconfirmed = await tty(['alerts', 'undo', 'accion-1']);
  expect(unconfirmed.code).toBe(2);
  expect(unconfirmed.stderr).toContain('--yes');
  // At a terminal it asks, naming the campaign; "n" keeps it paused.
  const kept = await answered(['alerts', 'undo', 'accion-1'], 'n');
  expect(kept.code).toBe(130);
  expect(kept.stderr).toContain(`¿Reactivar en Meta la campaña ${campaign} (regla «Campañas que pierden»)? Volverá a gastar [s/N]`);
  expect(sandbox.statusChanges.filter((c) => c.id === campaign).map((c) => c.to)).toEqual(['PAUSED']);

  const undone = await tty(['alerts', 'undo', 'accion-1', '--yes']);
  expect(undone.code, undone.stderr).toBe(0);
  expect(undone.stdout).toContain(`Pausa deshecha: la campaña ${campaign} vuelve a estar activa en Meta (regla «Campañas que pierden»)`);
  expect(sandbox.statusChanges.filter((c) => c.id === campaign).map((c) => c.to)).toEqual(['PAUSED', 'ACTIVE']);
  const after = JSON.parse((await cli(['alerts', 'actions', '--json'])).stdout) as AlertActionList;
  expect(after.rows[0]).toMatchObject({ undone_by: ADMIN.email, undoable: false } satisfies Partial<AlertAction>);
  const again = await cli(['alerts', 'undo', 'accion-1', '--yes']);
  expect(again.stderr).toContain(`Esta pausa ya se deshizo (${ADMIN.email})`);
});

it("creates a campaign rule with the profit guard's action (admins), its defaults when left out, and refuses it elsewhere", async () => {
  const base = ['alerts', 'create', '--kind', 'campaign_roi', '--param', 'level=campaign', '--param', 'threshold=0', '--param', 'hours=24'];
  const created = await cli([
    ...base,
    '--name',
    'Campañas que pierden',
    '--param',
    'min_spend=20',
    '--action',
    'pause',
    '--action-cooldown',
    '120',
    '--daily-cap',
    '3',
    '--reactivate',
    '--json',
  ]);
  expect(created.code, created.stderr).toBe(0);
  const rule = JSON.parse(created.stdout) as AlertRule;
  expect(rule).toMatchObject({ kind: 'campaign_roi', action: { mode: 'pause', reactivate: true, cooldown_minutes: 120, daily_cap: 3 } });
  expect((await server.app.services.store.alerts.rules.byId(rule.id))?.action).toEqual({
    mode: 'pause',
    reactivate: true,
    cooldown_minutes: 120,
    daily_cap: 3,
    confirm_evaluations: 1,
    hold_minutes: null,
  });

  const notify = await tty([...base, '--name', 'Solo aviso', '--action', 'notify']);
  expect(notify.code, notify.stderr).toBe(0);
  expect(notify.stdout).toContain('Acción: Solo avisa de lo que pausaría · espera 60 min · máx. 5 acciones al día por cuenta');
  const rules = JSON.parse((await cli(['alerts', 'rules', '--json'])).stdout) as AlertRule[];
  expect(rules.find((r) => r.name === 'Solo aviso')?.action).toEqual({
    mode: 'notify',
    reactivate: false,
    cooldown_minutes: 60,
    daily_cap: 5,
    confirm_evaluations: 1,
    hold_minutes: null,
  });
  expect((await tty(['alerts', 'rules'])).stdout).toContain('Pausa en Meta · espera 120 min · máx. 3 acciones'); // the column is cut at 60
  const plain = JSON.parse((await cli([...base, '--name', 'Sin acción', '--json'])).stdout) as AlertRule;
  expect(plain.action).toBeNull();

  // Wrong usage, before anything is sent (exit 2).
  for (const [args, said] of [
    [['--action', 'pausar'], 'Acción no válida: pausar (notify o pause)'],
    [['--daily-cap', '3'], '--daily-cap va con --action notify|pause'],
    [['--reactivate'], '--reactivate va con --action notify|pause'],
    [['--action', 'pause', '--action-cooldown', '1.5'], '--action-cooldown no válido: 1.5 (un número entero)'],
  ] as const) {
    const r = await cli([...base, '--name', 'x', ...args]);
    expect([r.code, r.stderr], args.join(' ')).toEqual([2, expect.stringContaining(said)]);
  }
  const other = await cli([
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
    '--action',
    'notify',
  ]);
  expect([other.code, other.stderr]).toEqual([2, expect.stringContaining('--action es solo para reglas de campaña (--kind campaign_roi)')]);
  // The server's range and its rule that only admins set an action.
  const cap = await cli([...base, '--name', 'x', '--action', 'pause', '--daily-cap', '0']);
  expect([cap.code, cap.stderr]).toEqual([1, expect.stringContaining('Máximo de acciones al día por cuenta: debe ser al menos 1')]);
  const staff = await runCli([...base, '--name', 'x', '--action', 'notify'], staffDir, server.url);
  expect([staff.code, staff.stderr]).toEqual([4, expect.stringContaining(ONLY_ADMINS_SET_ACTIONS)]);
  expect((await server.app.services.store.alerts.rules.list()).map((r) => r.name)).toEqual(['Campañas que pierden', 'Solo aviso', 'Sin acción']);
});

it("--confirm and --hold set the guards of the rule's action; without --action they are a usage error", async () => {
  const base = ['alerts', 'create', '--kind', 'campaign_roi', '--param', 'level=campaign', '--param', 'hours=24'];
  const created = await cli([
    ...base,
    '--name',
    'Con guardas',
    '--param',
    'min_clicks=50',
    '--action',
    'pause',
    '--confirm',
    '3',
    '--hold',
    '120',
    '--json',
  ]);
  expect(created.code, created.stderr).toBe(0);
  const rule = JSON.parse(created.stdout) as AlertRule;
  expect(rule).toMatchObject({ params: { min_clicks: 50 }, action: { mode: 'pause', confirm_evaluations: 3, hold_minutes: 120 } });
  const said = await tty([...base, '--name', 'Con guardas 2', '--param', 'min_visits=100', '--action', 'pause', '--confirm', '2', '--hold', '30']);
  expect(said.stdout).toContain('≥ 100 visitas');
  expect(said.stdout).toContain('tras 2 evaluaciones seguidas · pausa temporal de 30 min');
  for (const [args, words] of [
    [['--confirm', '2'], '--confirm va con --action notify|pause'],
    [['--hold', '30'], '--hold va con --action notify|pause'],
    [['--action', 'pause', '--hold', 'media'], '--hold no válido: media (un número entero)'],
  ] as const) {
    const r = await cli([...base, '--name', 'x', ...args]);
    expect([r.code, r.stderr], args.join(' ')).toEqual([2, expect.stringContaining(words)]);
  }
});
