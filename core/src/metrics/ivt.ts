// The referrers' one figure: the IVT rate (invalid traffic), its definition, rule and format.
import { JSON_DECIMALS, roundTo } from '../rounding.js';
import { formatByKind, ratioValue } from './registry.js';

/**
 * The IVT rate (invalid traffic): events flagged as bots or spam over every event of a zone or
 * publisher, in percent (2 decimals); null without events. The one definition: the server's
 * IVT table (its rows, totals and the SQL that sorts by it) and every face read it from here.
 */
export const IVT_RATE = {
  label: 'IVT %',
  name: 'Tasa de tráfico inválido (IVT)',
  kind: 'percent',
  decimals: 2,
  formula: { num: 'bot_hits', den: 'hits', scale: 100 },
  definition: 'Visitas marcadas como bots o spam ÷ todas las visitas × 100.',
} as const;

/** The IVT rate of a group: bot_hits / hits × 100, null when it had no hits. */
export function ivtRate(s: { hits: number; bot_hits: number }): number | null {
  const { num, den, scale } = IVT_RATE.formula;
  return roundTo(ratioValue(s[num], s[den], scale, true), JSON_DECIMALS);
}

/** An IVT rate as the screens show it ('12,50%'; '-' when null). */
export function formatIvtRate(value: number | null): string {
  return formatByKind(IVT_RATE.kind, value, IVT_RATE.decimals);
}
