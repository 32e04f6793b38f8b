// A campaign rule's window, built from per-day figures: which of the window's days count (spend
// synced, and the zone report final unless the rule uses estimates), each campaign's (ad set's)
// sums over those days and the registry's figures from them, and what each one did on the days
// left out. Live evaluations and backtests build it the same way; only who says which days were
// synced and final differs (the store's records now, or what was known at a past instant).
import { addDays, dayRangeWords, formatDateDMY, profitFigures, type ProfitFigures, type ProfitSums } from '@adops/core';
import type { DayFigures, ProfitDays } from './profit.js';

/** What was known of one day at the evaluation's instant. */
export interface DayKnown {
  /** Its Meta spend synced. */
  synced: boolean;
  /** Its zone report final (its revenue no estimate). */
  final: boolean;
}

/** The per-day figures a campaign rule reads and what was known of each day then. */
export interface CampaignDays {
  days: ProfitDays;
  known(day: string): DayKnown;
}

/** Why a day of the window was left out. */
export type LeftOutWhy = 'unsynced' | 'not_final';

/** One campaign's (ad set's) window. */
export interface WindowRow {
  key: string;
  name: string | null;
  /** The registry's figures over the counted days (spend null when a month lacks its exchange rate). */
  figures: ProfitFigures;
  estimated_visits: number;
  /** Whether it had spend or visits on a counted day. */
  active: boolean;
  /** Days left out on which it had spend or visits, and why each was. */
  leftOut: Array<{ day: string; why: LeftOutWhy }>;
}

export interface CampaignWindow {
  from: string;
  to: string;
  counted: string[];
  leftOut: Array<{ day: string; why: LeftOutWhy }>;
  /** The window in words, with the days left out and why ('del 03/11 al 04/11 (sin 04/11: …)'). */
  span: string;
  /** Counted days whose revenue is an estimate. */
  estimatedDays: string[];
  rows: WindowRow[];
}

const emptySums = (): ProfitSums => ({
  spend: 0,
  meta_clicks: 0,
  meta_impressions: 0,
  visits: 0,
  revenue: 0,
  tq_weighted: 0,
  tq_weight: 0,
});

function add(to: ProfitSums, f: DayFigures): void {
  to.spend = to.spend === null || f.spend === null ? null : to.spend + f.spend;
  to.meta_clicks = (to.meta_clicks ?? 0) + f.meta_clicks;
  to.meta_impressions = (to.meta_impressions ?? 0) + f.meta_impressions;
  to.visits = (to.visits ?? 0) + f.visits;
  to.revenue = (to.revenue ?? 0) + f.revenue;
  to.tq_weighted = (to.tq_weighted ?? 0) + f.tq_weighted;
  to.tq_weight = (to.tq_weight ?? 0) + f.tq_weight;
}

/**
 * The window [from, to] of `source`: a day counts when its spend is synced and — unless the rule
 * uses estimates — its report is final; every group's figures over the counted days.
 */
export function campaignWindow(source: CampaignDays, from: string, to: string, useEstimates: boolean): CampaignWindow {
  const counted: string[] = [];
  const leftOut: Array<{ day: string; why: LeftOutWhy }> = [];
  for (let d = from; d <= to; d = addDays(d, 1)) {
    const k = source.known(d);
    if (!k.synced) leftOut.push({ day: d, why: 'unsynced' });
    else if (!useEstimates && !k.final) leftOut.push({ day: d, why: 'not_final' });
    else counted.push(d);
  }
  const groups = new Map<string, { sums: ProfitSums; estimated: number; active: boolean; leftOut: Array<{ day: string; why: LeftOutWhy }> }>();
  const group = (key: string) => {
    let g = groups.get(key);
    if (!g) {
      g = { sums: emptySums(), estimated: 0, active: false, leftOut: [] };
      groups.set(key, g);
    }
    return g;
  };
  const estimatedDays: string[] = [];
  for (const day of counted) {
    let estimated = false;
    for (const [key, f] of source.days.days.get(day) ?? []) {
      const g = group(key);
      add(g.sums, f);
      g.estimated += f.estimated_visits;
      g.active = true;
      if (f.estimated_visits > 0) estimated = true;
    }
    if (estimated) estimatedDays.push(day);
  }
  for (const { day, why } of leftOut) for (const key of source.days.days.get(day)?.keys() ?? []) group(key).leftOut.push({ day, why });
  const rows: WindowRow[] = [];
  for (const [key, g] of groups)
    rows.push({
      key,
      name: source.days.names.get(key) ?? null,
      figures: profitFigures(g.sums),
      estimated_visits: g.estimated,
      active: g.active,
      leftOut: g.leftOut,
    });
  // What the sentence says of the days: the window, and those left out and why.
  const why = useEstimates ? 'gasto sin sincronizar' : 'gasto sin sincronizar o informe sin cerrar';
  const span = `${dayRangeWords({ from, to })}${leftOut.length ? ` (sin ${leftOut.map((l) => formatDateDMY(l.day)).join(', ')}: ${why})` : ''}`;
  return { from, to, counted, leftOut, span, estimatedDays, rows };
}

/** What was known of each day now: the store's records (Rentabilidad's completeness). */
export function knownNow(days: ProfitDays): CampaignDays {
  const unsynced = new Set(days.completeness.unsynced);
  const final = new Set(days.completeness.final);
  return { days, known: (d) => ({ synced: !unsynced.has(d), final: final.has(d) }) };
}
