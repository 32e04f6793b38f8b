// Media buying's rows as both engines answer them (numbers and texts as the driver gives them),
// read into the warehouse's shapes once: the profit query's parts and the spend per month.
import type { ProfitParts, ProfitSpendPart, ProfitVisitPart, SpendMonth } from './types.js';

const num = (v: unknown) => Number(v ?? 0);
const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
/** A flag as either engine answers it (DuckDB a boolean, ClickHouse 0/1). */
const flag = (v: unknown) => v === true || Number(v) === 1;

type Row = Record<string, unknown>;

/** Visits and spend rows by key (and whether on the query's apart days), and the days estimated (no final zone report). */
export function profitParts(visits: readonly Row[], spend: readonly Row[], estimatedDays: readonly string[]): ProfitParts {
  return {
    visits: visits.map(
      (r): ProfitVisitPart => ({
        key: text(r.key),
        campaign_id: text(r.campaign_id),
        adset_id: text(r.adset_id),
        visits: num(r.visits),
        revenue: num(r.revenue),
        estimated_visits: num(r.estimated_visits),
        tq_weighted: num(r.tq_weighted),
        tq_weight: num(r.tq_weight),
        apart: flag(r.apart),
        day: text(r.part_day),
      }),
    ),
    spend: spend.map(
      (r): ProfitSpendPart => ({
        key: text(r.key),
        name: text(r.name),
        campaign_id: text(r.campaign_id),
        adset_id: text(r.adset_id),
        month: String(r.month),
        currency: String(r.currency),
        spend: num(r.spend),
        impressions: num(r.impressions),
        clicks: num(r.clicks),
        apart: flag(r.apart),
        day: text(r.part_day),
      }),
    ),
    estimatedDays: [...estimatedDays],
  };
}

/** ad_spend per month as `adops migrate` compares it. */
export function spendMonths(rows: readonly Row[]): SpendMonth[] {
  return rows.map((r) => ({
    month: String(r.month),
    rows: Number(r.rows),
    spend: Number(r.spend),
    impressions: Number(r.impressions),
    clicks: Number(r.clicks),
  }));
}
