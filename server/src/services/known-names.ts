// Sense before saving: a rule's target or a token's publisher must be one the network knows —
// a zone or advertiser some zone report named, a publisher reported or given a revenue share —
// so a typo is refused with the reason instead of saved to watch (or serve) nothing forever.
import type { AlertRuleSpec } from '@adops/core';
import { DomainError } from '../domain-errors.js';
import { samePublisherName } from '../store/types.js';
import type { ReportService } from './reports.js';
import type { RevenueShareService } from './revenue-shares.js';

/** The known spelling of `name` (case aside, as tokens match publishers), or undefined. */
export const knownSpelling = (known: readonly string[], name: string): string | undefined =>
  known.find((k) => k === name) ?? known.find((k) => samePublisherName(k, name));

const SCOPE_WORDS = {
  zone: ['la zona', 'Zone ID'],
  publisher: ['el publisher', 'Publisher'],
  advertiser: ['el advertiser', 'Advertiser'],
} as const;

/**
 * Refuses a TQ or revenue rule whose target no zone report has named. Traffic and campaign
 * rules are left as they are: a referrer host may be new (that is what a burst rule watches)
 * and campaign ids live on Meta. A known target is set to its reported spelling.
 */
export async function checkRuleTarget(reports: ReportService, spec: AlertRuleSpec | undefined): Promise<void> {
  if (!spec || (spec.kind !== 'tq_low' && spec.kind !== 'revenue_drop')) return;
  const { scope, target } = spec.params;
  if (target === null) return;
  const spelling = knownSpelling(await reports.knownNames(scope), target);
  // Saved as the reports spell it: the evaluator matches subjects exactly.
  if (spelling !== undefined) {
    spec.params.target = spelling;
    return;
  }
  const [what, filter] = SCOPE_WORDS[scope];
  throw new DomainError(
    'invalid',
    `Objetivo: ${what} «${target.slice(0, 80)}» no aparece en ningún informe de zonas; elige uno de la lista de ${filter} o deja el objetivo vacío para vigilarlos todos`,
  );
}

/** Refuses a token for a publisher the network does not know (names match as tokens do: case aside). */
export async function knownPublisher(shares: RevenueShareService, name: string): Promise<void> {
  const spelling = knownSpelling(
    (await shares.list()).map((p) => p.name),
    name,
  );
  if (spelling === undefined)
    throw new DomainError(
      'invalid',
      `El publisher «${name.slice(0, 80)}» no aparece en ningún informe de zonas ni en Publishers: su URL no devolvería nada. Elige uno de la lista o dale antes un revenue share`,
    );
}
