import { describe, expect, it } from 'vitest';
import { formatMoney } from './format.js';
import {
  AD_REPORT_COLUMNS,
  API_EXPLORER_COLUMNS,
  DASHBOARD_CARDS,
  DASHBOARD_COLUMNS,
  METRICS,
  formatMetric,
  formatProfitFigure,
  formatProfitMetric,
  isMetricKey,
  percentChange,
  roundMetric,
  type MetricKey,
} from './metrics.js';

describe('the metrics registry', () => {
  it.each<[MetricKey, string]>([
    ['impressions', 'Impr.'],
    ['monetized_impressions', 'M. Impr.'],
    ['ctr', 'CTR%'],
    ['cpm', 'CPM'],
    ['cpc', 'CPC'],
    ['revenue', 'Rev'],
    ['margin', 'Marg.'],
    ['tq', 'TQ'],
    ['rs_percent', 'RS%'],
    ['p_cpm', 'P.CPM'],
    ['p_cpc', 'P.CPC'],
    ['p_revenue', 'P.Revenue'],
    ['zone_id', 'Zone ID'],
  ])('labels %s as %s', (key, label) => {
    expect(METRICS[key].label).toBe(label);
  });

  it('knows every metric the spec names', () => {
    const keys = [
      'date',
      'advertiser',
      'publisher',
      'zone_id',
      'geo',
      'source',
      'impressions',
      'monetized_impressions',
      'clicks',
      'ctr',
      'cpm',
      'cpc',
      'revenue',
      'margin',
      'rs_percent',
      'p_revenue',
      'p_cpm',
      'p_cpc',
      'tq',
    ];
    expect(keys.filter((k) => !isMetricKey(k))).toEqual([]);
    expect(isMetricKey('constructor')).toBe(false);
  });

  it('shows the Dashboard table headers in the spec’s order', () => {
    expect(DASHBOARD_COLUMNS.map((c) => c.header)).toEqual([
      'Date',
      'Impr.',
      'M. Impr.',
      'Clicks',
      'CTR%',
      'CPM',
      'CPC',
      'Rev',
      'P.Revenue',
      'Marg.',
      'Marg %',
      'TQ',
    ]);
  });

  it('has 19 Ad Report columns ending with RS% and including tq', () => {
    expect(AD_REPORT_COLUMNS).toHaveLength(19);
    expect(AD_REPORT_COLUMNS.map((c) => c.key)).toContain('tq');
    expect(AD_REPORT_COLUMNS.at(-1)).toEqual({ key: 'rs_percent', header: 'RS%' });
  });

  it('names revenue and margin in full in the Api Explorer', () => {
    expect(API_EXPLORER_COLUMNS.map((c) => c.header)).toEqual([
      'Date',
      'Advertiser',
      'Zone ID',
      'Publisher',
      'Impr.',
      'Clicks',
      'CTR%',
      'CPM',
      'CPC',
      'Revenue',
      'Margin',
      'RS%',
      'P.CPM',
      'P.CPC',
      'TQ',
    ]);
  });

  it('titles the six Dashboard cards', () => {
    expect(DASHBOARD_CARDS.map((c) => c.header)).toEqual(['Revenue', 'Margin', 'Impressions', 'Clicks', 'CTR%', 'TQ Avg']);
  });
});

describe('formatMetric', () => {
  it.each<[MetricKey, unknown, string]>([
    ['revenue', 1234.5, '$1.234,50'],
    ['margin', -12.345, '-$12,35'],
    ['impressions', 1234567, '1.234.567'],
    ['ctr', 0.4567, '0,46%'],
    ['rs_percent', 25, '25,00%'],
    ['tq', 0.8512, '0,85'],
    ['p_cpm', 3.5, '$3,50'],
    ['zone_id', 'z-42', 'z-42'],
    ['date', '2026-03-05', '05/03/2026'],
    ['revenue', null, '-'],
    ['revenue', NaN, '-'],
    ['revenue', Infinity, '-'],
    ['cpm', '12', '-'],
  ])('formats %s = %j as %s', (key, value, expected) => {
    expect(formatMetric(key, value)).toBe(expected);
  });

  it('shows missing text as -', () => {
    expect([formatMetric('publisher', ''), formatMetric('publisher', null)]).toEqual(['-', '-']);
  });

  it('shows money in euros when asked', () => {
    expect(formatMetric('revenue', 8, '€')).toBe('€8,00');
  });

  it('honours a decimals override (CPC totals with 4)', () => {
    expect(formatMetric('cpc', 0.123456, '$', { decimals: 4 })).toBe('$0,1235');
  });
});

describe('roundMetric', () => {
  it.each<[MetricKey, unknown, number | null]>([
    ['revenue', 1.005, 1.01],
    ['revenue', 2.344, 2.34],
    ['impressions', 10.6, 11],
    ['revenue', -0.001, 0],
    ['revenue', NaN, null],
    ['revenue', '3', null],
  ])('rounds %s = %j to %j', (key, value, expected) => {
    expect(roundMetric(key, value)).toBe(expected);
  });
});

describe('percentChange', () => {
  it.each([
    [150, 100, 50],
    [50, 100, -50],
    [-50, -100, 50],
    [0, 40, -100],
    [100, 100, 0],
  ])('%s against %s is %s%%', (now, base, expected) => {
    expect(percentChange(now, base)).toBeCloseTo(expected, 10);
  });

  it('is null without a base (0, missing or not finite) or without a figure', () => {
    expect(percentChange(10, 0)).toBeNull();
    expect(percentChange(10, null)).toBeNull();
    expect(percentChange(null, 10)).toBeNull();
    expect(percentChange(Number.NaN, 10)).toBeNull();
    expect(percentChange(10, Number.POSITIVE_INFINITY)).toBeNull();
  });
});

describe('formatProfitFigure (Rentabilidad in the web and the terminal)', () => {
  it('shows money in the network currency: $ for USD, € for EUR, any other ISO code after the number', () => {
    expect(formatProfitFigure('profit', -1234.5, 'USD')).toBe(formatMoney(-1234.5, '$', 2));
    expect(formatProfitFigure('profit', -1234.5, 'EUR')).toBe(formatMoney(-1234.5, '€', 2));
    expect(formatProfitFigure('profit', 1234.5, 'GBP')).toBe('1.234,50 GBP');
    expect(formatProfitFigure('spend', null, 'GBP')).toBe('-');
  });
  it('leaves the other kinds as the registry formats them, whatever the currency', () => {
    for (const key of ['roi', 'visits', 'roas'] as const) expect(formatProfitFigure(key, 12.345, 'GBP')).toBe(formatProfitMetric(key, 12.345));
  });
});
