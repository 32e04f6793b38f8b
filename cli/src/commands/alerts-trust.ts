// `adops alerts explain|backtest`: trusting a rule before it acts. explain: why each evaluation
// acted or not on each campaign, zone or referrer (the rule's evaluation log, the latest word on
// each subject, or one subject's history with --campaign). backtest: the rule replayed over the
// last 7, 14 or 30 days — what it would have done and its money effect. Figures through core's
// formatters; JSON with --json.
import type { Command } from 'commander';
import {
  ALERT_OUTCOME_LABELS,
  ALERT_OUTCOME_WHY,
  BACKTEST_ACTION_LABELS,
  BACKTEST_DAYS,
  alertFiguresText,
  alertRuleCondition,
  backtestSummaryLines,
  formatDateTimeDMY,
  formatInt,
  type AlertEvaluationEntry,
  type AlertRuleKind,
  type BacktestAction,
} from '@adops/core/lite';
import { CliError, EXIT } from '../io.js';
import { networkCurrency } from '../currency.js';
import type { Cli } from '../context.js';
import { zoneNote } from '../text.js';
import { offerValues } from './option-values.js';
import type { Column } from '../ui/Table.js';

/** One entry of the log in words: what, why, the figures, the guard and when. */
function entryLines(e: AlertEvaluationEntry, tz: string, currency: string, kind: AlertRuleKind): string[] {
  const when =
    e.evaluations === 1
      ? `1 evaluación, el ${formatDateTimeDMY(e.last_at, tz)}`
      : `${formatInt(e.evaluations)} evaluaciones seguidas, del ${formatDateTimeDMY(e.first_at, tz)} al ${formatDateTimeDMY(e.last_at, tz)}`;
  const figures = alertFiguresText(e.figures, currency, kind);
  return [
    `${e.subject}: ${ALERT_OUTCOME_LABELS[e.outcome]} — ${ALERT_OUTCOME_WHY[e.outcome]}`,
    ...(figures ? [`  Cifras: ${figures}`] : []),
    `  Por qué: ${e.reason}`,
    ...(e.guard ? [`  Guarda: ${e.guard}`] : []),
    `  ${when}`,
  ];
}

const actionColumns = (tz: string, currency: string, kind: AlertRuleKind): Column<BacktestAction>[] => [
  { key: 'at', header: 'Cuándo', format: (v) => formatDateTimeDMY(String(v), tz) },
  { key: 'action', header: 'Qué', format: (_, a) => BACKTEST_ACTION_LABELS[a.action] },
  { key: 'subject', header: 'Sobre', maxWidth: 32, format: (_, a) => (a.name ? `${a.name} (${a.subject})` : a.subject) },
  { key: 'figures', header: 'Cifras', maxWidth: 70, format: (_, a) => alertFiguresText(a.figures, currency, kind) },
  { key: 'reason', header: 'Por qué', maxWidth: 90 },
];

/** `--days`: 7, 14 or 30. */
function backtestDays(value: string): 7 | 14 | 30 {
  const n = Number(value.trim());
  if (!(BACKTEST_DAYS as readonly number[]).includes(n)) throw new CliError(`--days no válido: ${value} (7, 14 o 30)`, EXIT.usage);
  return n as 7 | 14 | 30;
}

export function registerAlertTrust(alerts: Command, cli: Cli): void {
  alerts
    .command('explain')
    .description('Por qué actuó o no una regla: lo último que cada evaluación dijo de cada campaña, zona o referrer (con --campaign, su historial)')
    .argument('<regla>', 'id de la regla (adops alerts rules)')
    .option('--campaign <id>', 'solo esta campaña, conjunto, zona, referrer o IP: su historial, lo más reciente primero')
    .option('--json', 'salida JSON (las entradas del historial)')
    .action(async (ruleId: string, opts: { campaign?: string; json?: boolean }, cmd: Command) => {
      const { api } = await cli.api(cmd);
      const page = await api.alerts.evaluations({ id: ruleId, subject: opts.campaign, page_size: 500 });
      if (cli.machine(opts.json)) return cli.json(page);
      const rule = (await api.alerts.rules()).find((r) => r.id === ruleId);
      if (rule) await cli.prose(`Regla «${rule.name}»: ${alertRuleCondition(rule)}`, '  ');
      const last = page.totals.last_evaluated_at;
      cli.say(
        last
          ? `Última evaluación: ${formatDateTimeDMY(last, cli.tz)} (${zoneNote(cli.tz, true)})`
          : 'Aún no hay evaluaciones guardadas de esta regla.',
      );
      // Without --campaign, each subject's latest entry; with it, that subject's whole history.
      const seen = new Set<string>();
      const shown = opts.campaign ? page.rows : page.rows.filter((e) => !seen.has(e.subject) && seen.add(e.subject));
      if (shown.length === 0 && last) cli.say(opts.campaign ? `Nada guardado sobre ${opts.campaign}.` : 'Nada guardado.');
      const currency = networkCurrency();
      // A rule gone since its entries were kept: its figures read as a campaign rule's (the kind that acts).
      const kind: AlertRuleKind = rule?.kind ?? 'campaign_roi';
      // Wrapped at words to the terminal; an entry's detail lines hang under their label.
      for (const e of shown) {
        cli.say('');
        for (const line of entryLines(e, cli.tz, currency, kind)) await cli.prose(line, line.startsWith('  ') ? '    ' : '  ');
      }
      cli.say(`\nSe guardan ${formatInt(page.totals.retention_days)} días y como máximo ${formatInt(page.totals.per_rule)} entradas por regla.`);
    });

  const backtest = alerts
    .command('backtest')
    .description('Prueba una regla en el pasado: lo que habría hecho cada hora de los últimos días y su efecto en dinero (nunca llama a Meta)')
    .argument('<regla>', 'id de la regla (adops alerts rules)')
    .option('--days <n>', '7, 14 o 30 días', '14')
    .option('--json', 'salida JSON')
    .action(async (ruleId: string, opts: { days: string; json?: boolean }, cmd: Command) => {
      const days = backtestDays(opts.days);
      const { api } = await cli.api(cmd);
      const b = await api.alerts.backtestRule({ id: ruleId, days });
      if (cli.machine(opts.json)) return cli.json(b);
      await cli.prose(`Regla «${b.rule.name ?? ruleId}»: ${b.rule.condition}`, '  ');
      cli.say(`Del ${formatDateTimeDMY(b.from, cli.tz)} al ${formatDateTimeDMY(b.to, cli.tz)} (${zoneNote(cli.tz, true)})`);
      for (const line of backtestSummaryLines(b)) await cli.prose(line, '  ');
      if (b.actions.length) {
        cli.say('');
        await cli.table<BacktestAction>({
          columns: actionColumns(cli.tz, b.currency, b.rule.kind),
          rows: b.actions,
          rowKey: (a) => `${a.at}|${a.action}|${a.subject}`,
          emptyText: '',
        });
        if (b.truncated) cli.say(`… y ${formatInt(b.truncated)} más que la respuesta no lista`);
      } else cli.say('No habría hecho nada.');
      if (b.notes.length) {
        cli.say('\nNotas:');
        for (const n of b.notes) await cli.prose(`- ${n}`, '  ');
      }
    });
  offerValues(backtest, '--days', BACKTEST_DAYS.map(String));
}
