// The figures of one imported zone-report line checked against each other: counts (clicks and
// monetized impressions within impressions), money (margin = revenue − p_revenue within a cent,
// p_revenue never negative, the share it implies within 0–MAX_REVENUE_SHARE and, when the line
// also gives rate_applied, that rate) and TQ on its scale.
// A line that fails says which column, with its value and the rule in words; the import refuses
// the whole file (ingest-zone-report.ts): figures that contradict each other mean shifted or
// mislabelled columns, which the file's other lines may carry unseen.
import { MAX_REVENUE_SHARE, MONEY_TOLERANCE, TQ_SCALE } from '@adops/core';

export interface LineFigures {
  impressions: number;
  monetized_impressions: number | null;
  clicks: number;
  revenue: number;
  /** As given in the line (null: absent). */
  p_revenue: number | null;
  margin: number | null;
  /** As given in the line (null: absent); its own range is checked before. */
  rate_applied: number | null;
  tq: number | null;
}

/**
 * How far a given rate_applied may be from p_revenue ÷ revenue: half a point, as a source that
 * writes its share to two decimals (0,69 for 0,6942) rounds it, on top of the cent of money.
 */
const RATE_TOLERANCE = 0.005;

/** Numbers as the file wrote them (a dot for decimals), rounded where arithmetic left noise. */
const n = (v: number) => String(Math.round(v * 1e6) / 1e6);

/** Why the line's figures do not agree, or null when they do. */
export function figuresDisagree(f: LineFigures): string | null {
  if (f.clicks > f.impressions)
    return `clicks (${n(f.clicks)}) es mayor que impressions (${n(f.impressions)}): no puede haber más clics que impresiones`;
  if (f.monetized_impressions !== null && f.monetized_impressions > f.impressions)
    return `monetized_impressions (${n(f.monetized_impressions)}) es mayor que impressions (${n(f.impressions)}): no puede haber más impresiones monetizadas que impresiones`;
  if (f.tq !== null && (f.tq < TQ_SCALE.min || f.tq > TQ_SCALE.max))
    return `tq (${n(f.tq)}) está fuera de su escala: el TQ (calidad del tráfico) va de ${TQ_SCALE.min} a ${TQ_SCALE.max}`;
  if (f.p_revenue !== null && f.margin !== null) {
    const expected = f.revenue - f.p_revenue;
    if (Math.abs(f.margin - expected) > MONEY_TOLERANCE + 1e-9)
      return `margin (${n(f.margin)}) no es revenue − p_revenue (${n(f.revenue)} − ${n(f.p_revenue)} = ${n(expected)}): el margen es el revenue menos el revenue del publisher, con un céntimo de tolerancia`;
  }
  if (f.p_revenue === null && f.margin !== null && f.margin > f.revenue + MONEY_TOLERANCE)
    return `margin (${n(f.margin)}) es mayor que revenue (${n(f.revenue)}): el revenue del publisher (p_revenue = revenue − margin) sería ${n(f.revenue - f.margin)}, y no puede ser negativo`;
  const pRevenue = f.p_revenue ?? (f.margin === null ? null : f.revenue - f.margin);
  if (pRevenue !== null && pRevenue > f.revenue * MAX_REVENUE_SHARE + MONEY_TOLERANCE)
    return `p_revenue (${n(pRevenue)}) es más de ${MAX_REVENUE_SHARE} veces revenue (${n(f.revenue)}): el revenue share aplicado (rate_applied = p_revenue ÷ revenue) debe estar entre 0 y ${MAX_REVENUE_SHARE}`;
  // A rate beside the money it should explain: stored as given, it would show a share the
  // figures do not pay (rate 1,5 on a line paying half). Without revenue any rate pays nothing.
  if (
    f.rate_applied !== null &&
    pRevenue !== null &&
    f.revenue > 0 &&
    Math.abs(pRevenue - f.revenue * f.rate_applied) > MONEY_TOLERANCE + f.revenue * RATE_TOLERANCE + 1e-9
  ) {
    const share = f.p_revenue === null ? '(revenue − margin) ÷ revenue' : 'p_revenue ÷ revenue';
    return `rate_applied (${n(f.rate_applied)}) no es ${share} (${n(pRevenue)} ÷ ${n(f.revenue)} = ${n(pRevenue / f.revenue)}): el revenue share aplicado es el revenue del publisher dividido por el revenue`;
  }
  return null;
}
