// `adops alerts explain`: why each evaluation of a rule acted or not on each campaign, zone or
// referrer (the rule's evaluation log: the latest word on each subject, or one subject's history
// with --campaign). Figures through core's formatters; JSON with --json.
import type { Command } from 'commander';
import {
  ALERT_OUTCOME_LABELS,
  ALERT_OUTCOME_WHY,
  alertFiguresText,
  alertRuleCondition,
  formatDateTimeDMY,
  formatInt,
  type AlertEvaluationEntry,
} from '@adops/core';
import { networkCurrency } from '../currency.js';
import type { Cli } from '../context.js';
import { zoneNote } from '../text.js';

/** One entry of the log in words: what, why, the figures, the guard and when. */
function entryLines(e: AlertEvaluationEntry, tz: string, currency: string): string[] {
  const when =
    e.evaluations === 1
      ? `1 evaluación, el ${formatDateTimeDMY(e.last_at, tz)}`
      : `${formatInt(e.evaluations)} evaluaciones seguidas, del ${formatDateTimeDMY(e.first_at, tz)} al ${formatDateTimeDMY(e.last_at, tz)}`;
  const figures = alertFiguresText(e.figures, currency);
  return [
    `${e.subject}: ${ALERT_OUTCOME_LABELS[e.outcome]} — ${ALERT_OUTCOME_WHY[e.outcome]}`,
    ...(figures ? [`  Cifras: ${figures}`] : []),
    `  Por qué: ${e.reason}`,
    ...(e.guard ? [`  Guarda: ${e.guard}`] : []),
    `  ${when}`,
  ];
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
      if (rule) cli.say(`Regla «${rule.name}»: ${alertRuleCondition(rule)}`);
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
      for (const e of shown) cli.say(['', ...entryLines(e, cli.tz, currency)].join('\n'));
      cli.say(`\nSe guardan ${formatInt(page.totals.retention_days)} días y como máximo ${formatInt(page.totals.per_rule)} entradas por regla.`);
    });
}
