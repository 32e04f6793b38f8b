// `adops alerts list|history|rules|create|mute|unmute|delete`: Alertas in a terminal — what
// fired (open by default; history: every state), the rules with their condition in words, a
// new rule from key=value parameters, and muting. A table on a terminal, JSON with --json.
import type { Command } from 'commander';
import {
  ALERT_KIND_LABELS,
  ALERT_RULE_KINDS,
  ALERT_STATE_LABELS,
  ALERT_STATES,
  alertRuleCondition,
  type Alert,
  type AlertRule,
  type AlertRuleKind,
} from '@adops/core';
import { CliError, EXIT } from '../io.js';
import type { Cli } from '../context.js';
import { formatDateTimeLocal } from '../text.js';
import type { Column } from '../ui/Table.js';

export const ALERT_COLUMNS: Column<Alert>[] = [
  { key: 'id', header: 'Id', maxWidth: 36 },
  { key: 'state', header: 'Estado', format: (v) => ALERT_STATE_LABELS[v as Alert['state']] },
  { key: 'fired_at', header: 'Disparada', format: (v) => formatDateTimeLocal(String(v)) },
  { key: 'rule_name', header: 'Regla', maxWidth: 28 },
  { key: 'subject', header: 'Sobre', maxWidth: 28 },
  { key: 'message', header: 'Qué pasó', maxWidth: 80 },
];

const RULE_COLUMNS: Column<AlertRule>[] = [
  { key: 'id', header: 'Id', maxWidth: 36 },
  { key: 'name', header: 'Regla', maxWidth: 30 },
  { key: 'kind', header: 'Tipo', format: (v) => ALERT_KIND_LABELS[v as AlertRuleKind] },
  { key: 'params', header: 'Condición', format: (_, r) => alertRuleCondition(r), maxWidth: 80 },
  { key: 'enabled', header: 'Activa', format: (v) => (v ? 'sí' : 'no') },
];

/** 'visits=500', 'target=news.example.com', 'new_only=true' → { visits: 500, … }. */
export function parseParams(pairs: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new CliError(`Parámetro no válido: ${pair} (usa clave=valor, p. ej. visits=500)`, EXIT.usage);
    const key = pair.slice(0, at).trim();
    const raw = pair.slice(at + 1).trim();
    const n = Number(raw.replace(',', '.'));
    out[key] = raw === 'true' ? true : raw === 'false' ? false : raw !== '' && Number.isFinite(n) ? n : raw;
  }
  return out;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function registerAlerts(program: Command, cli: Cli): void {
  const alerts = program.command('alerts').description('Alertas: lo que dispararon las reglas, las reglas y el silencio de una alerta');

  const list = async (state: string | undefined, opts: { rule?: string; json?: boolean }, cmd: Command) => {
    if (state !== undefined && state !== 'all' && !(ALERT_STATES as readonly string[]).includes(state))
      throw new CliError(`Estado no válido: ${state} (open, muted, resolved o all)`, EXIT.usage);
    const { api } = await cli.api(cmd);
    const page = await api.alerts.list({ state: state as 'open' | undefined, rule_id: opts.rule, page_size: 500 });
    if (cli.machine(opts.json)) return cli.json(page);
    await cli.table<Alert>({ columns: ALERT_COLUMNS, rows: page.rows, rowKey: (a) => a.id, emptyText: 'No hay alertas.' });
  };

  alerts
    .command('list')
    .description('Alertas abiertas (o del estado que digas), la última disparada primero')
    .option('--state <estado>', 'open (por defecto), muted, resolved o all', 'open')
    .option('--rule <id>', 'solo las de esta regla')
    .option('--json', 'salida JSON')
    .action((opts: { state: string; rule?: string; json?: boolean }, cmd: Command) => list(opts.state, opts, cmd));

  alerts
    .command('history')
    .description('Todo lo que dispararon las reglas: abiertas, silenciadas y resueltas')
    .option('--rule <id>', 'solo las de esta regla')
    .option('--json', 'salida JSON')
    .action((opts: { rule?: string; json?: boolean }, cmd: Command) => list('all', opts, cmd));

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

  alerts
    .command('create')
    .description('Crea una regla de alerta')
    .requiredOption('--name <nombre>', 'nombre de la regla')
    .requiredOption('--kind <tipo>', ALERT_RULE_KINDS.join(', '))
    .option('--param <clave=valor>', 'parámetro del tipo (repetible): visits=500, minutes=10, target=…', collect)
    .option('--cooldown <minutos>', 'espera entre avisos de la misma regla y sujeto', '60')
    .option('--disabled', 'la crea desactivada')
    .option('--json', 'salida JSON')
    .action(async (opts: { name: string; kind: string; param?: string[]; cooldown: string; disabled?: boolean; json?: boolean }, cmd: Command) => {
      if (!(ALERT_RULE_KINDS as readonly string[]).includes(opts.kind))
        throw new CliError(`Tipo no válido: ${opts.kind} (${ALERT_RULE_KINDS.join(', ')})`, EXIT.usage);
      const cooldown = Number(opts.cooldown);
      const { api } = await cli.api(cmd);
      const rule = await api.alerts.createRule({
        name: opts.name,
        kind: opts.kind,
        params: parseParams(opts.param ?? []),
        cooldown_minutes: cooldown,
        enabled: !opts.disabled,
      } as Parameters<typeof api.alerts.createRule>[0]);
      if (cli.machine(opts.json)) return cli.json(rule);
      cli.say(`Regla creada: ${rule.name} (${rule.id}) — ${alertRuleCondition(rule)}`);
    });

  alerts
    .command('mute')
    .description('Silencia una alerta: no avisa por ningún canal mientras dure')
    .argument('<id>', 'id de la alerta')
    .option('--minutes <n>', 'durante n minutos (por defecto: hasta que se resuelva)')
    .option('--json', 'salida JSON')
    .action(async (id: string, opts: { minutes?: string; json?: boolean }, cmd: Command) => {
      const minutes = opts.minutes === undefined ? null : Number(opts.minutes);
      if (minutes !== null && !Number.isInteger(minutes)) throw new CliError(`Minutos no válidos: ${opts.minutes}`, EXIT.usage);
      const { api } = await cli.api(cmd);
      const a = await api.alerts.mute({ id, minutes });
      if (cli.machine(opts.json)) return cli.json(a);
      cli.say(`Alerta silenciada ${a.muted_until ? `hasta ${formatDateTimeLocal(a.muted_until)}` : 'hasta que se resuelva'}: ${a.message}`);
    });

  alerts
    .command('unmute')
    .description('Quita el silencio de una alerta')
    .argument('<id>', 'id de la alerta')
    .option('--json', 'salida JSON')
    .action(async (id: string, opts: { json?: boolean }, cmd: Command) => {
      const { api } = await cli.api(cmd);
      const a = await api.alerts.unmute({ id });
      if (cli.machine(opts.json)) return cli.json(a);
      cli.say(`Alerta abierta de nuevo: ${a.message}`);
    });

  alerts
    .command('delete')
    .description('Elimina una regla y sus alertas (quien la creó o un administrador)')
    .argument('<id>', 'id de la regla')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const { api } = await cli.api(cmd);
      await api.alerts.deleteRule({ id });
      cli.say('Regla eliminada');
    });
}
