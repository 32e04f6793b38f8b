import { describe, expect, it } from 'vitest';
import {
  cost,
  cpc,
  cpm,
  ctr,
  dashboardCtr,
  derive,
  marginPercent,
  pCpc,
  pCpm,
  pRevenue,
  ratio,
  rsPercent,
  totals,
  weightedTq,
} from './formulas.js';

type Case = [string, number | null, number | null];

/** Runs each [description, actual, expected] with floating-point tolerance. */
function check(cases: Case[]) {
  it.each(cases)('%s', (_what, actual, expected) => {
    if (expected === null) expect(actual).toBeNull();
    else expect(actual).toBeCloseTo(expected, 10);
  });
}

describe('CTR', () => {
  check([
    ['is clicks over monetized impressions × 100 when those are given', ctr(5, 1000, 500), 1],
    ['falls back to impressions when monetized impressions are absent', ctr(5, 1000), 0.5],
    ['falls back to impressions when monetized impressions are 0', ctr(5, 1000, 0), 0.5],
    ['falls back to impressions when monetized impressions are null', ctr(5, 1000, null), 0.5],
    ['is null with zero impressions', ctr(5, 0), null],
    ['is 0 with no clicks', ctr(0, 200), 0],
    ['is null when clicks are not finite', ctr(NaN, 200), null],
    ['on the Dashboard is clicks over impressions even with monetized ones', dashboardCtr(5, 1000), 0.5],
    ['on the Dashboard is null with zero impressions', dashboardCtr(5, 0), null],
  ]);
});

describe('money ratios', () => {
  check([
    ['CPM is revenue per thousand impressions', cpm(12.5, 5000), 2.5],
    ['CPM is null with zero impressions', cpm(12.5, 0), null],
    ['CPM is null when revenue is missing', cpm(null, 5000), null],
    ['CPC is revenue per click', cpc(3, 12), 0.25],
    ['CPC is null with zero clicks', cpc(3, 0), null],
    ['CPC is null when revenue is Infinity', cpc(Infinity, 4), null],
    ['ratio scales the quotient', ratio(1, 4, 100), 25],
  ]);
});

describe('cost and revenue share', () => {
  check([
    ['cost is revenue minus margin', cost(100, 30), 70],
    ['cost exceeds revenue when margin is negative', cost(100, -20), 120],
    ['cost is null when margin is missing', cost(100, undefined), null],
    ['RS% is margin over revenue × 100', rsPercent(30, 120), 25],
    ['RS% is negative with a negative margin', rsPercent(-15, 60), -25],
    ['RS% is null with zero revenue', rsPercent(10, 0), null],
    ['RS% is null with negative revenue', rsPercent(10, -50), null],
    ['RS% is null when margin is missing', rsPercent(null, 50), null],
    ['Margin % is the same as RS%', marginPercent(30, 120), 25],
  ]);
});

describe('publisher revenue', () => {
  check([
    ['P.Revenue is the supplied p_revenue when finite', pRevenue(100, 30, 65), 65],
    ['P.Revenue is revenue minus margin when not supplied', pRevenue(100, 30), 70],
    ['P.Revenue ignores a non-finite supplied value', pRevenue(100, 30, NaN), 70],
    ['P.Revenue keeps a supplied 0', pRevenue(100, 30, 0), 0],
    ['P.Revenue is null with neither p_revenue nor margin', pRevenue(100, null, null), null],
    ['P.CPM is publisher revenue per thousand impressions', pCpm(70, 20000), 3.5],
    ['P.CPM is null with zero impressions', pCpm(70, 0), null],
    ['P.CPC is publisher revenue per click', pCpc(70, 140), 0.5],
    ['P.CPC is null with zero clicks', pCpc(70, 0), null],
  ]);
});

describe('weightedTq', () => {
  check([
    // (0.8×1000 + 0.2×3000) / 4000 = 1400 / 4000
    ['weights each tq by its impressions', weightedTq([{ impressions: 1000, tq: 0.8 }, { impressions: 3000, tq: 0.2 }]), 0.35],
    [
      'ignores rows whose tq is missing, zero, negative or not finite',
      weightedTq([
        { impressions: 1000, tq: 0.5 },
        { impressions: 9000, tq: null },
        { impressions: 9000 },
        { impressions: 9000, tq: 0 },
        { impressions: 9000, tq: -1 },
        { impressions: 9000, tq: NaN },
      ]),
      0.5,
    ],
    ['ignores rows without impressions', weightedTq([{ impressions: 0, tq: 9 }, { impressions: 10, tq: 2 }]), 2],
    ['is null when no row qualifies', weightedTq([{ impressions: 100, tq: 0 }, { impressions: 0, tq: 1 }]), null],
    ['is null for no rows', weightedTq([]), null],
  ]);
});

describe('derive', () => {
  it('adds every derived metric to a zone row and keeps its fields', () => {
    const row = derive({
      zone_id: 'z1',
      impressions: 20000,
      monetized_impressions: 10000,
      clicks: 50,
      revenue: 40,
      margin: 10,
      tq: 0.7,
    });
    expect(row.zone_id).toBe('z1');
    expect(row.tq).toBe(0.7);
    expect(row.ctr).toBeCloseTo(0.5); // 50 / 10 000 × 100
    expect(row.cpm).toBeCloseTo(2); // 40 / 20 000 × 1000
    expect(row.cpc).toBeCloseTo(0.8); // 40 / 50
    expect(row.cost).toBeCloseTo(30);
    expect(row.rs_percent).toBeCloseTo(25);
    expect(row.margin_percent).toBeCloseTo(25);
    expect(row.p_revenue).toBeCloseTo(30);
    expect(row.p_cpm).toBeCloseTo(1.5); // 30 / 20 000 × 1000
    expect(row.p_cpc).toBeCloseTo(0.6); // 30 / 50
  });

  it('uses impressions for CTR when asked for the Dashboard basis', () => {
    const row = derive({ impressions: 20000, monetized_impressions: 10000, clicks: 50, revenue: 40 }, { ctrBasis: 'impressions' });
    expect(row.ctr).toBeCloseTo(0.25);
  });

  it('leaves every ratio null for a row with no traffic', () => {
    const row = derive({ impressions: 0, clicks: 0, revenue: 0, margin: 0 });
    expect(row).toMatchObject({ ctr: null, cpm: null, cpc: null, rs_percent: null, p_cpm: null, p_cpc: null });
    expect(row.cost).toBe(0);
    expect(row.p_revenue).toBe(0);
  });

  it('prefers a supplied p_revenue for the publisher metrics', () => {
    const row = derive({ impressions: 1000, clicks: 10, revenue: 5, margin: 1, p_revenue: 3 });
    expect(row.p_revenue).toBe(3);
    expect(row.p_cpm).toBeCloseTo(3);
    expect(row.p_cpc).toBeCloseTo(0.3);
  });

  it('handles a negative margin', () => {
    const row = derive({ impressions: 1000, clicks: 10, revenue: 10, margin: -2 });
    expect(row.cost).toBeCloseTo(12);
    expect(row.rs_percent).toBeCloseTo(-20);
    expect(row.p_revenue).toBeCloseTo(12);
  });

  it('has no cost, RS% or publisher metrics when margin and p_revenue are missing', () => {
    const row = derive({ impressions: 1000, clicks: 10, revenue: 10 });
    expect(row).toMatchObject({ cost: null, rs_percent: null, p_revenue: null, p_cpm: null, p_cpc: null });
  });
});

describe('totals', () => {
  const rows = [
    { impressions: 1000, monetized_impressions: 500, clicks: 10, revenue: 10, margin: 4, tq: 0.9 },
    { impressions: 3000, monetized_impressions: 1500, clicks: 5, revenue: 2, margin: -1, tq: 0.1 },
  ];

  it('sums counts and money', () => {
    expect(totals(rows)).toMatchObject({ impressions: 4000, monetized_impressions: 2000, clicks: 15, revenue: 12, margin: 3 });
  });

  it('computes ratios from the sums, not as averages of row ratios', () => {
    const t = totals(rows);
    // Row CPMs are 10 and 0.667 (mean 5.33); from the sums it is 12 / 4000 × 1000 = 3.
    expect(t.cpm).toBeCloseTo(3);
    expect(t.ctr).toBeCloseTo(0.75); // 15 / 2000 × 100
    expect(t.cpc).toBeCloseTo(0.8); // 12 / 15
    expect(t.cost).toBeCloseTo(9); // 12 − 3
    expect(t.rs_percent).toBeCloseTo(25); // 3 / 12 × 100
    expect(t.p_revenue).toBeCloseTo(9); // (10 − 4) + (2 + 1)
    expect(t.p_cpm).toBeCloseTo(2.25); // 9 / 4000 × 1000
    expect(t.p_cpc).toBeCloseTo(0.6); // 9 / 15
  });

  it('weights TQ by impressions', () => {
    expect(totals(rows).tq).toBeCloseTo(0.3); // (0.9×1000 + 0.1×3000) / 4000
  });

  it('uses each row’s own CTR base when only some rows have monetized impressions', () => {
    const t = totals([
      { impressions: 1000, monetized_impressions: 200, clicks: 4, revenue: 1 },
      { impressions: 800, clicks: 4, revenue: 1 },
    ]);
    expect(t.ctr).toBeCloseTo(0.8); // 8 / (200 + 800) × 100
  });

  it('uses impressions for CTR on the Dashboard basis', () => {
    expect(totals(rows, { ctrBasis: 'impressions' }).ctr).toBeCloseTo(0.375); // 15 / 4000 × 100
  });

  it('skips missing and non-finite values instead of spreading NaN', () => {
    const t = totals([
      { impressions: 100, clicks: 1, revenue: NaN, margin: null },
      { impressions: 100, clicks: 1, revenue: 4, margin: 1 },
    ]);
    expect(t.revenue).toBe(4);
    expect(t.margin).toBe(1);
    expect(t.p_revenue).toBeCloseTo(3);
  });

  it('of no rows is zeros with null ratios and null margin', () => {
    expect(totals([])).toEqual({
      impressions: 0,
      monetized_impressions: 0,
      clicks: 0,
      revenue: 0,
      margin: null,
      ctr: null,
      cpm: null,
      cpc: null,
      cost: null,
      rs_percent: null,
      margin_percent: null,
      p_revenue: null,
      p_cpm: null,
      p_cpc: null,
      tq: null,
    });
  });
});
