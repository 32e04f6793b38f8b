// `adops alerts list|history|rules|create|mute|unmute|delete|actions|undo` (and explain, in
// alerts-trust.ts): Alertas in a
// terminal — what fired (open by default; history: every state), the rules with their condition
// in words, a new rule from key=value parameters (a campaign rule with the profit guard's action), muting, what the campaign rules' actions did
// on Meta and undoing a pause. A table on a terminal, JSON with --json.
import type { Command } from 'commander';
import {
  PROFIT_METRICS,
  formatProfitFigure,
  ALERT_ACTION_MODES,
  ALERT_KIND_LABELS,
  ALERT_RULE_KINDS,
  alertStateText,
  ALERT_STATES,
  alertActionLabel,
  alertRuleActionText,
  alertRuleCondition,
  alertRuleParamKeys,
  deliverySummary,
  formatDateTimeDMY,
  type Alert,
  type AlertAction,
  type AlertRule,
  type AlertRuleActionInput,
  type AlertRuleKind,
} from '@adops/core/lite';
import { CliError, EXIT } from '../io.js';
import { networkCurrency } from '../currency.js';
import type { Cli } from '../context.js';
import { zoneNote } from '../text.js';
import { offerValues } from './option-values.js';
import type { Column } from '../ui/Table.js';
import { registerAlertTrust } from './alerts-trust.js';

/** The alerts table, times on the reporting zone's clock (tz). */
export const alertColumns = (tz: string): Column<Alert>[] => [
  { key: 'id', header: 'Id', maxWidth: 36 },
  { key: 'state', header: 'Estado', format: (_, a) => alertStateText(a) },
  { key: 'fired_at', header: 'Disparada', format: (v) => formatDateTimeDMY(String(v), tz) },
  { key: 'rule_name', header: 'Regla', maxWidth: 28 },
  { key: 'subject', header: 'Sobre', maxWidth: 28 },
  { key: 'message', header: 'Qué pasó', maxWidth: 80 },
  { key: 'deliveries', header: 'Avisos', maxWidth: 60, format: (_, a) => deliverySummary(a.deliveries) },
];

const RULE_COLUMNS: Column<AlertRule>[] = [
  { key: 'id', header: 'Id', maxWidth: 36 },
  { key: 'name', header: 'Regla', maxWidth: 30 },
  { key: 'kind', header: 'Tipo', format: (v) => ALERT_KIND_LABELS[v as AlertRuleKind] },
  { key: 'params', header: 'Condición', format: (_, r) => alertRuleCondition(r), maxWidth: 80 },
  { key: 'action', header: 'Acción', format: (_, r) => alertRuleActionText(r.action) ?? '', maxWidth: 60 },
  { key: 'enabled', header: 'Activa', format: (v) => (v ? 'sí' : 'no') },
];

const actionColumns = (tz: string): Column<AlertAction>[] => [
  { key: 'id', header: 'Id', maxWidth: 36 },
  { key: 'at', header: 'Cuándo', format: (v) => formatDateTimeDMY(String(v), tz) },
  { key: 'action', header: 'Acción', format: (_, a) => alertActionLabel(a) },
  { key: 'subject', header: 'Campaña / conjunto', maxWidth: 24 },
  { key: 'rule_name', header: 'Regla', maxWidth: 24 },
  // Figures as Rentabilidad and the web's Acciones show them (core's one formatter, network currency).
  {
    key: 'spend',
    header: PROFIT_METRICS.spend.label,
    align: 'right',
    format: (_, a) => formatProfitFigure('spend', a.figures.spend, networkCurrency()),
  },
  { key: 'figures', header: PROFIT_METRICS.roi.label, align: 'right', format: (_, a) => formatProfitFigure('roi', a.figures.roi, networkCurrency()) },
  { key: 'undone_by', header: 'Deshecha por', maxWidth: 28, format: (v) => (v ? String(v) : '') },
  { key: 'reason', header: 'Por qué', maxWidth: 70, format: (v, a) => (a.detail ? `${a.detail} — ${v}` : String(v)) },
];

/** 'visits=500', 'target=news.example.com', 'new_only=true' → { visits: 500, … }. */
export function parseParams(pairs: readonly string[], kind?: AlertRuleKind): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const valid = kind ? alertRuleParamKeys(kind) : null;
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new CliError(`Parámetro no válido: ${pair} (usa clave=valor, p. ej. visits=500)`, EXIT.usage);
    const key = pair.slice(0, at).trim();
    // A mistyped key would otherwise be dropped and its default kept without a word.
    if (valid && !valid.includes(key)) {
      const near = closest(key, valid);
      throw new CliError(
        `Parámetro desconocido para ${kind}: ${key}${near ? ` (¿quisiste decir ${near}?)` : ''}. Válidos: ${valid.join(', ')}`,
        EXIT.usage,
      );
    }
    const raw = pair.slice(at + 1).trim();
    const n = Number(raw.replace(',', '.'));
    out[key] = raw === 'true' ? true : raw === 'false' ? false : raw !== '' && Number.isFinite(n) ? n : raw;
  }
  return out;
}

/** The valid key nearest to a mistyped one (at most 2 edits away), if any. */
function closest(key: string, valid: readonly string[]): string | undefined {
  const distance = (a: string, b: string) => {
    let row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const next = [i];
      for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      row = next;
    }
    return row[b.length];
  };
  const [best] = valid.map((v) => [v, distance(key.toLowerCase(), v)] as const).sort((x, y) => x[1] - y[1]);
  return best && best[1] <= 2 ? best[0] : undefined;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** 'sí' / 'no' (also si, yes, true, 1 / no, false, 0) of an option; undefined when absent. */
function yesNo(option: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (['sí', 'si', 'yes', 'true', '1', 'on'].includes(v)) return true;
  if (['no', 'false', '0', 'off'].includes(v)) return false;
  throw new CliError(`${option} no válido: ${value} (sí o no)`, EXIT.usage);
}

interface CreateOptions {
  name: string;
  kind: string;
  param?: string[];
  cooldown: string;
  disabled?: boolean;
  action?: string;
  actionCooldown?: string;
  dailyCap?: string;
  reactivate?: boolean;
  confirm?: string;
  hold?: string;
  useEstimates?: boolean;
  json?: boolean;
}

/** A whole number of an option; undefined when absent (the server checks its range). */
function wholeNumber(option: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.trim());
  if (value.trim() === '' || !Number.isInteger(n)) throw new CliError(`${option} no válido: ${value} (un número entero)`, EXIT.usage);
  return n;
}

/** The profit guard's action of `alerts create` (undefined: none), the server's defaults for what is left out. */
export function ruleAction(
  opts: Pick<CreateOptions, 'kind' | 'action' | 'actionCooldown' | 'dailyCap' | 'reactivate' | 'confirm' | 'hold'>,
): AlertRuleActionInput | undefined {
  if (opts.action === undefined) {
    const stray = [
      ['--action-cooldown', opts.actionCooldown],
      ['--daily-cap', opts.dailyCap],
      ['--reactivate', opts.reactivate],
      ['--confirm', opts.confirm],
      ['--hold', opts.hold],
    ].find(([, v]) => v !== undefined);
    if (stray) throw new CliError(`${stray[0]} va con --action notify|pause`, EXIT.usage);
    return undefined;
  }
  if (!(ALERT_ACTION_MODES as readonly string[]).includes(opts.action))
    throw new CliError(`Acción no válida: ${opts.action} (${ALERT_ACTION_MODES.join(' o ')})`, EXIT.usage);
  if (opts.kind !== 'campaign_roi') throw new CliError('--action es solo para reglas de campaña (--kind campaign_roi)', EXIT.usage);
  const cooldown = wholeNumber('--action-cooldown', opts.actionCooldown);
  const cap = wholeNumber('--daily-cap', opts.dailyCap);
  const confirm = wholeNumber('--confirm', opts.confirm);
  const hold = wholeNumber('--hold', opts.hold);
  return {
    mode: opts.action as AlertRuleActionInput['mode'],
    reactivate: opts.reactivate ?? false,
    ...(cooldown === undefined ? {} : { cooldown_minutes: cooldown }),
    ...(cap === undefined ? {} : { daily_cap: cap }),
    ...(confirm === undefined ? {} : { confirm_evaluations: confirm }),
    ...(hold === undefined ? {} : { hold_minutes: hold }),
  };
}

export function registerAlerts(program: Command, cli: Cli): void {
  const alerts = program.command('alerts').description('Alertas: lo que dispararon las reglas, las reglas y el silencio de una alerta');

  const list = async (state: string | undefined, opts: { rule?: string; json?: boolean }, cmd: Command) => {
    if (state !== undefined && state !== 'all' && !(ALERT_STATES as readonly string[]).includes(state))
      throw new CliError(`Estado no válido: ${state} (open, muted, resolved o all)`, EXIT.usage);
    const { api } = await cli.api(cmd);
    const page = await api.alerts.list({ state: state as 'open' | undefined, rule_id: opts.rule, page_size: 500 });
    if (cli.machine(opts.json)) return cli.json(page);
    await cli.table<Alert>({ columns: alertColumns(cli.tz), rows: page.rows, rowKey: (a) => a.id, emptyText: 'No hay alertas.' });
    if (page.rows.length) cli.say(zoneNote(cli.tz));
  };

  const listCommand = alerts
    .command('list')
    .description('Alertas abiertas (o del estado que digas), la última disparada primero')
    .option('--state <estado>', 'open (por defecto), muted, resolved o all', 'open')
    .option('--rule <id>', 'solo las de esta regla')
    .option('--json', 'salida JSON')
    .action((opts: { state: string; rule?: string; json?: boolean }, cmd: Command) => list(opts.state, opts, cmd));
  offerValues(listCommand, '--state', [...ALERT_STATES, 'all']);

  alerts
    .command('history')
    .description('Todo lo que dispararon las reglas: abiertas, silenciadas y resueltas')
    .option('--rule <id>', 'solo las de esta regla')
    .option('--json', 'salida JSON')
    .action((opts: { rule?: string; json?: boolean }, cmd: Command) => list('all', opts, cmd));

  alerts
    .command('channels')
    .description('Tus canales de alerta; con opciones, los cambia (el resto sigue igual)')
    .option('--in-app <sí|no>', 'la campana de la app')
    .option('--email <sí|no>', 'cada alerta por email a tu dirección')
    .option('--digest <sí|no>', 'el resumen diario por email (tarjetas de ayer, mayores cambios y alertas abiertas)')
    .option('--json', 'salida JSON')
    .action(async (opts: { inApp?: string; email?: string; digest?: string; json?: boolean }, cmd: Command) => {
      const change = { in_app: yesNo('--in-app', opts.inApp), email: yesNo('--email', opts.email), digest: yesNo('--digest', opts.digest) };
      const { api } = await cli.api(cmd);
      let sub = await api.alerts.subscription();
      if (Object.values(change).some((v) => v !== undefined)) {
        const { in_app, email, webhook_url, rule_ids, digest } = sub;
        sub = await api.alerts.setSubscription({
          in_app: change.in_app ?? in_app,
          email: change.email ?? email,
          digest: change.digest ?? digest,
          webhook_url,
          rule_ids,
        });
      }
      if (cli.machine(opts.json)) return cli.json(sub);
      const word = (on: boolean) => (on ? 'sí' : 'no');
      cli.say(
        [
          `App (campana): ${word(sub.in_app)}`,
          `Email: ${word(sub.email)}`,
          `Resumen diario: ${word(sub.digest)}`,
          `Webhook: ${sub.webhook_url ?? 'ninguno'}`,
          `Reglas: ${sub.rule_ids ? sub.rule_ids.join(', ') : 'todas'}`,
        ].join('\n'),
      );
    });

  alerts
    .command('rules')
    .description('Las reglas de alerta con su condición')
    .option('--json', 'salida JSON')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const { api } = await cli.api(cmd);
      const rules = await api.alerts.rules();
      if (cli.machine(opts.json)) return cli.json(rules);
      await cli.table<AlertRule>({ columns: RULE_COLUMNS, rows: rules, rowKey: (r) => r.id, emptyText: 'No hay reglas.' });
    });

  const createCommand = alerts
    .command('create')
    .description('Crea una regla de alerta')
    .requiredOption('--name <nombre>', 'nombre de la regla')
    .requiredOption('--kind <tipo>', ALERT_RULE_KINDS.join(', '))
    .option('--param <clave=valor>', 'parámetro del tipo (repetible): visits=500, minutes=10, target=…', collect)
    .option('--cooldown <minutos>', 'espera entre avisos de la misma regla y sujeto', '60')
    .option('--disabled', 'la crea desactivada')
    .option('--action <modo>', 'reglas campaign_roi (administradores): notify (solo avisa de lo que pausaría) o pause (la pausa en Meta)')
    .option('--action-cooldown <minutos>', 'con --action: espera entre acciones sobre la misma campaña (por defecto 60)')
    .option('--daily-cap <n>', 'con --action: acciones automáticas como máximo al día por cuenta publicitaria (por defecto 5)')
    .option('--reactivate', 'con --action: la reactiva en Meta cuando su ROI se recupera')
    .option('--confirm <n>', 'con --action: actúa solo cuando la condición se cumple en n evaluaciones seguidas (por defecto 1)')
    .option('--hold <minutos>', 'con --action pause: pausa temporal, la reactiva sola pasados estos minutos')
    .option(
      '--use-estimates',
      'reglas campaign_roi: cuentan también los días con revenue estimado (informe parcial o sin informe); sin ella, solo días con gasto sincronizado e informe final',
    )
    .option('--json', 'salida JSON')
    .action(async (opts: CreateOptions, cmd: Command) => {
      if (!(ALERT_RULE_KINDS as readonly string[]).includes(opts.kind))
        throw new CliError(`Tipo no válido: ${opts.kind} (${ALERT_RULE_KINDS.join(', ')})`, EXIT.usage);
      if (opts.useEstimates && opts.kind !== 'campaign_roi') throw new CliError('--use-estimates es solo para reglas campaign_roi', EXIT.usage);
      // Empty is refused, never read as 0 minutes (Number('') is 0).
      const cooldown = wholeNumber('--cooldown', opts.cooldown);
      const params = parseParams(opts.param ?? [], opts.kind as AlertRuleKind);
      const action = ruleAction(opts);
      const { api } = await cli.api(cmd);
      const rule = await api.alerts.createRule({
        name: opts.name,
        kind: opts.kind,
        params: { ...params, ...(opts.useEstimates ? { use_estimates: true } : {}) },
        cooldown_minutes: cooldown,
        enabled: !opts.disabled,
        ...(action ? { action } : {}),
      } as Parameters<typeof api.alerts.createRule>[0]);
      if (cli.machine(opts.json)) return cli.json(rule);
      const acts = alertRuleActionText(rule.action);
      cli.say(`Regla creada: ${rule.name} (${rule.id}) — ${alertRuleCondition(rule)}${acts ? `\nAcción: ${acts}` : ''}`);
    });
  offerValues(createCommand, '--kind', ALERT_RULE_KINDS);
  offerValues(createCommand, '--action', ALERT_ACTION_MODES);

  alerts
    .command('mute')
    .description('Silencia una alerta para ti (los demás la siguen viendo); con --everyone, para todos (administradores)')
    .argument('<id>', 'id de la alerta')
    .option('--minutes <n>', 'durante n minutos (por defecto: hasta que se resuelva)')
    .option('--everyone', 'para todos los usuarios, no solo para ti (solo administradores)')
    .option('--json', 'salida JSON')
    .action(async (id: string, opts: { minutes?: string; everyone?: boolean; json?: boolean }, cmd: Command) => {
      const minutes = opts.minutes === undefined ? null : Number(opts.minutes);
      if (minutes !== null && !Number.isInteger(minutes)) throw new CliError(`Minutos no válidos: ${opts.minutes}`, EXIT.usage);
      const { api } = await cli.api(cmd);
      const a = await api.alerts.mute({ id, minutes, for_everyone: opts.everyone === true });
      if (cli.machine(opts.json)) return cli.json(a);
      const whom = a.muted_for === 'everyone' ? 'para todos' : 'para ti';
      cli.say(
        `Alerta silenciada ${whom} ${a.muted_until ? `hasta ${formatDateTimeDMY(a.muted_until, cli.tz)}` : 'hasta que se resuelva'}: ${a.message}`,
      );
    });

  alerts
    .command('unmute')
    .description('Quita tu silencio de una alerta; con --everyone, el silencio para todos (administradores)')
    .argument('<id>', 'id de la alerta')
    .option('--everyone', 'quita el silencio para todos (solo administradores)')
    .option('--json', 'salida JSON')
    .action(async (id: string, opts: { everyone?: boolean; json?: boolean }, cmd: Command) => {
      const { api } = await cli.api(cmd);
      const a = await api.alerts.unmute({ id, for_everyone: opts.everyone === true });
      if (cli.machine(opts.json)) return cli.json(a);
      cli.say(a.state === 'muted' ? `Quitado tu silencio; sigue silenciada para todos: ${a.message}` : `Alerta abierta de nuevo: ${a.message}`);
    });

  alerts
    .command('delete')
    .description('Elimina una regla y sus alertas (quien la creó o un administrador); pide confirmación salvo con --yes')
    .argument('<id>', 'id de la regla')
    .option('-y, --yes', 'no pedir confirmación (obligatorio fuera de una terminal)')
    .action(async (id: string, opts: { yes?: boolean }, cmd: Command) => {
      cli.prompt.needsYes(opts.yes);
      const { api } = await cli.api(cmd);
      if (!opts.yes) {
        // Named by the rule's own words when it is found; the server still answers an unknown id.
        const rule = (await api.alerts.rules()).find((r) => r.id === id);
        const what = rule ? `la regla «${rule.name}» (${alertRuleCondition(rule)})` : `la regla ${id}`;
        if (!(await cli.prompt.confirm(`¿Eliminar ${what} y todas sus alertas?`))) throw new CliError('Cancelado', EXIT.cancelled);
      }
      await api.alerts.deleteRule({ id });
      cli.say('Regla eliminada');
    });

  alerts
    .command('actions')
    .description('Lo que hicieron en Meta las acciones de las reglas de campaña (pausas, reactivaciones), la más reciente primero')
    .option('--rule <id>', 'solo las de esta regla')
    .option('--json', 'salida JSON')
    .action(async (opts: { rule?: string; json?: boolean }, cmd: Command) => {
      const { api } = await cli.api(cmd);
      const page = await api.alerts.actions({ rule_id: opts.rule, page_size: 500 });
      if (cli.machine(opts.json)) return cli.json(page);
      await cli.table<AlertAction>({
        columns: actionColumns(cli.tz),
        rows: page.rows,
        rowKey: (a) => a.id,
        emptyText: 'Ninguna regla ha actuado en Meta.',
      });
      if (page.rows.length) cli.say(zoneNote(cli.tz));
      cli.say(`Acciones automáticas hoy en ${page.totals.account}: ${page.totals.today}`);
    });

  alerts
    .command('undo')
    .description('Deshace una pausa de una regla: reactiva la campaña o el conjunto en Meta (administradores); pide confirmación salvo con --yes')
    .argument('<id>', 'id de la acción (adops alerts actions)')
    .option('-y, --yes', 'no pedir confirmación (obligatorio fuera de una terminal)')
    .option('--json', 'salida JSON')
    .action(async (id: string, opts: { yes?: boolean; json?: boolean }, cmd: Command) => {
      cli.prompt.needsYes(opts.yes);
      const { api } = await cli.api(cmd);
      if (!opts.yes) {
        // Resuming spends money on Meta: the question names what comes back to life.
        const action = (await api.alerts.actions({ page_size: 500 })).rows.find((a) => a.id === id);
        const what = action
          ? `${action.level === 'campaign' ? 'la campaña' : 'el conjunto'} ${action.subject} (regla «${action.rule_name}»)`
          : `lo que pausó la acción ${id}`;
        if (!(await cli.prompt.confirm(`¿Reactivar en Meta ${what}? Volverá a gastar`))) throw new CliError('Cancelado', EXIT.cancelled);
      }
      const a = await api.alerts.undoAction({ id });
      if (cli.machine(opts.json)) return cli.json(a);
      cli.say(
        `Pausa deshecha: ${a.level === 'campaign' ? 'la campaña' : 'el conjunto'} ${a.subject} vuelve a estar activa en Meta (regla «${a.rule_name}»)`,
      );
    });

  registerAlertTrust(alerts, cli);
}
