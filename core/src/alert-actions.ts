// The profit guard's words, defined once: a campaign rule's action as one sentence and what an
// action record did, for the web page and the terminal alike.
import type { AlertAction, AlertRuleAction } from './contract/alert-actions.js';

/** 'Pausa en Meta · espera 60 min · máx. 5 al día por cuenta · tras 3 evaluaciones seguidas · pausa temporal de 120 min · reactiva al recuperarse' (null: no action). */
export function alertRuleActionText(
  action:
    | (Omit<AlertRuleAction, 'confirm_evaluations' | 'hold_minutes'> & Partial<Pick<AlertRuleAction, 'confirm_evaluations' | 'hold_minutes'>>)
    | null,
): string | null {
  if (!action) return null;
  const what = action.mode === 'pause' ? 'Pausa en Meta' : 'Solo avisa de lo que pausaría';
  const parts = [what, `espera ${action.cooldown_minutes} min`, `máx. ${action.daily_cap} acciones al día por cuenta`];
  if ((action.confirm_evaluations ?? 1) > 1) parts.push(`tras ${action.confirm_evaluations} evaluaciones seguidas`);
  if (action.hold_minutes) parts.push(`pausa temporal de ${action.hold_minutes} min`);
  if (action.reactivate) parts.push('reactiva al recuperarse');
  return parts.join(' · ');
}

/** 'Pausa', 'Reactivación', with '(falló)' when Meta refused it. */
export function alertActionLabel(a: Pick<AlertAction, 'action' | 'status'>): string {
  return `${a.action === 'pause' ? 'Pausa' : 'Reactivación'}${a.status === 'failed' ? ' (falló)' : ''}`;
}
