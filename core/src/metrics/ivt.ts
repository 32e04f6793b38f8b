// The referrers' one figure: the IVT rate (invalid traffic), its definition, rule and format.
import { JSON_DECIMALS, roundTo } from '../rounding.js';
import { REGISTRY, figureValue } from './entries.js';
import { formatByKind } from './registry.js';

/**
 * The IVT rate (invalid traffic): events flagged as bots or spam over every event of a zone or
 * publisher, in percent (2 decimals); null without events. The one definition is the registry's
 * `ivt` family: the server's IVT table (its rows, totals and the SQL that sorts by it) and every
 * face read it through this view.
 */
export const IVT_RATE = REGISTRY.ivt.ivt_rate;

/** The IVT rate of a group: bot_hits / hits × 100, null when it had no hits. */
export function ivtRate(s: { hits: number; bot_hits: number }): number | null {
  return roundTo(figureValue('ivt', 'ivt_rate', s), JSON_DECIMALS);
}

/** An IVT rate as the screens show it ('12,50%'; '-' when null). */
export function formatIvtRate(value: number | null): string {
  return formatByKind(IVT_RATE.kind, value, IVT_RATE.decimals);
}
