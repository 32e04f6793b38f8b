import { describe, expect, it } from 'vitest';
import {
  DERIVED_KEYS,
  EMPTY_SUMS,
  METRICS,
  addSums,
  deriveMetrics,
  evaluate,
  groupMetrics,
  rowSums,
  type MetricDef,
  type MetricKey,
  type Sums,
} from './metrics.js';

const sums = (s: Partial<Sums>): Sums => ({ ...EMPTY_SUMS, ...s });
const formula = (key: keyof typeof METRICS) => (METRICS[key] as MetricDef).formula!;

/** Runs each [description, actual, expected] with floating-point tolerance. */
function check(cases: Array<[string, number | null, number | null]>) {
  it.each(cases)('%s', (_what, actual, expected) => {
    if (expected === null) expect(actual).toBeNull();
    else expect(actual).toBeCloseTo(expected, 10);
  });
}

describe('the registry formulas (SPEC §5)', () => {
  check([
    ['CTR is clicks over the CTR base × 100', evaluate(formula('ctr'), sums({ clicks: 5, ctr_base: 500 })), 1],
    ['CTR is null with a zero base', evaluate(formula('ctr'), sums({ clicks: 5, ctr_base: 0 })), null],
    ['CTR is 0 with no clicks', evaluate(formula('ctr'), sums({ clicks: 0, ctr_base: 200 })), 0],
    ['CPM is revenue per thousand impressions', evaluate(formula('cpm'), sums({ revenue: 12.5, impressions: 5000 })), 2.5],
    ['CPM is null with zero impressions', evaluate(formula('cpm'), sums({ revenue: 12.5 })), null],
    ['CPC is revenue per click', evaluate(formula('cpc'), sums({ revenue: 3, clicks: 12 })), 0.25],
    ['CPC is null with zero clicks', evaluate(formula('cpc'), sums({ revenue: 3 })), null],
    ['RS% is margin over revenue × 100', evaluate(formula('rs_percent'), sums({ margin: 30, revenue: 120 })), 25],
    ['RS% is negative with a negative margin', evaluate(formula('rs_percent'), sums({ margin: -15, revenue: 60 })), -25],
    ['RS% is null with zero revenue', evaluate(formula('rs_percent'), sums({ margin: 10 })), null],
    ['RS% is null with negative revenue', evaluate(formula('rs_percent'), sums({ margin: 10, revenue: -50 })), null],
    ['P.CPM is publisher revenue per thousand impressions', evaluate(formula('p_cpm'), sums({ p_revenue: 70, impressions: 20000 })), 3.5],
    ['P.CPC is publisher revenue per click', evaluate(formula('p_cpc'), sums({ p_revenue: 70, clicks: 140 })), 0.5],
    ['TQ is the impression-weighted mean', evaluate(formula('tq'), sums({ tq_weighted: 1400, tq_weight: 4000 })), 0.35],
    ['TQ is null when no row had a positive tq', evaluate(formula('tq'), sums({ tq_weighted: 0, tq_weight: 0 })), null],
    ['a missing value gives null, not NaN', evaluate(formula('cpm'), { ...sums({ impressions: 10 }), revenue: null }), null],
  ]);

  it('derives every ratio and the difference, and no other key', () => {
    expect(DERIVED_KEYS).toEqual(['ctr', 'cpm', 'cpc', 'rs_percent', 'p_cpm', 'p_cpc', 'tq']);
    expect(Object.keys(deriveMetrics(EMPTY_SUMS)).sort()).toEqual([...DERIVED_KEYS].sort());
  });

  it('has one field per meaning: no margin_percent beside rs_percent', () => {
    expect(Object.keys(METRICS)).not.toContain('margin_percent');
  });
});

describe('rowSums: a stored row as a group of one', () => {
  it('takes monetized impressions as the CTR base when above 0, else impressions (SPEC §5)', () => {
    const row = { impressions: 1000, clicks: 5, revenue: 2, p_revenue: 1, margin: 1, tq: 0.5 };
    expect(rowSums({ ...row, monetized_impressions: 500 }).ctr_base).toBe(500);
    expect(rowSums({ ...row, monetized_impressions: 0 }).ctr_base).toBe(1000);
    expect(rowSums({ ...row, monetized_impressions: null }).ctr_base).toBe(1000);
  });

  it('weighs tq only when tq and impressions are positive', () => {
    const row = { impressions: 1000, monetized_impressions: null, clicks: 5, revenue: 2, p_revenue: 1, margin: 1 };
    expect(rowSums({ ...row, tq: 0.8 })).toMatchObject({ tq_weighted: 800, tq_weight: 1000 });
    for (const tq of [0, -1, null]) expect(rowSums({ ...row, tq })).toMatchObject({ tq_weighted: 0, tq_weight: 0 });
    expect(rowSums({ ...row, impressions: 0, tq: 0.9 })).toMatchObject({ tq_weighted: 0, tq_weight: 0 });
  });
});

describe('totals are ratios of sums, never averages of ratios', () => {
  it('adds sums and derives the group’s figures from them', () => {
    // R1: 1000 impr (800 monetized), 20 clicks, $10, margin 4, tq 0.8; R2: 2000 impr, 10 clicks, $4, margin 1.2, no tq.
    const r1 = rowSums({ impressions: 1000, monetized_impressions: 800, clicks: 20, revenue: 10, p_revenue: 6, margin: 4, tq: 0.8 });
    const r2 = rowSums({ impressions: 2000, monetized_impressions: null, clicks: 10, revenue: 4, p_revenue: 2.8, margin: 1.2, tq: null });
    const t = groupMetrics(addSums(r1, r2));
    expect(t.impressions).toBe(3000);
    expect(t.ctr).toBeCloseTo((30 / 2800) * 100); // each row's own base: 800 + 2000
    expect(t.cpm).toBeCloseTo((14 / 3000) * 1000);
    expect(t.rs_percent).toBeCloseTo((5.2 / 14) * 100);
    expect(t.tq).toBeCloseTo(0.8); // only R1 has a tq
  });

  it('has one CTR: clicks over the CTR base, never over every impression when some were monetized', () => {
    const s = sums({ clicks: 30, impressions: 3000, ctr_base: 2800 });
    expect(groupMetrics(s).ctr).toBeCloseTo((30 / 2800) * 100);
    expect(Object.keys(METRICS).filter((k) => METRICS[k as MetricKey].label.startsWith('CTR'))).toEqual(['ctr']);
  });
});
