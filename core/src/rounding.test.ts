import { describe, expect, it } from 'vitest';
import { formatMoney, formatNumber, formatPercent } from './format.js';
import { jsonFigures, jsonNumber, plainDecimal, roundTo, shownFigure, withoutNoise } from './rounding.js';
import { seeded } from './test-seeded.js';

describe('roundTo: half away from zero, on the decimal a figure stands for', () => {
  it.each<[number, number, number]>([
    [1.005, 2, 1.01], // its double is 1.00499999…
    [-1.005, 2, -1.01],
    [0.285, 2, 0.29],
    [2.344, 2, 2.34],
    [0.1 + 0.2, 2, 0.3],
    [1.3333 + 1.3333 + 1.3334, 2, 4],
    [52721.404999999999, 2, 52721.41], // a sum's noise below the half cent
    [0.125, 2, 0.13],
    [-0.001, 2, 0],
    [12.34565, 4, 12.3457],
  ])('%d to %d decimals is %d', (value, decimals, expected) => {
    expect(roundTo(value, decimals)).toBe(expected);
  });

  it('never answers -0, and null for what is not a finite number', () => {
    expect(Object.is(roundTo(-0.004, 2), 0)).toBe(true);
    expect([roundTo(Number.NaN, 2), roundTo(Number.POSITIVE_INFINITY, 2), roundTo('3', 2), roundTo(null, 2)]).toEqual([null, null, null, null]);
  });

  it('is what every display format shows: 1.005 is "1,01" (Intl alone would show "1,00")', () => {
    expect(formatNumber(1.005)).toBe('1,01');
    expect(formatMoney(-1.005)).toBe('-$1,01');
    expect(formatMoney(52721.404999999999)).toBe('$52.721,41');
    expect(formatPercent(0.125)).toBe('0,13%');
  });
});

describe('export numbers: stored precision without binary noise, plain notation', () => {
  it.each<[number, string]>([
    [895.3009999999999, '895.301'],
    [0.1 + 0.2, '0.3'],
    [1.3333, '1.3333'],
    [36527.37123456, '36527.37123456'],
    [-12.5, '-12.5'],
    [42, '42'],
    [1e-7, '0.0000001'],
    [-2.5e-8, '-0.000000025'],
  ])('%d is written %s', (value, text) => {
    expect(plainDecimal(value)).toBe(text);
  });

  it('keeps every digit a stored figure has', () => {
    expect(withoutNoise(123456.789012)).toBe(123456.789012);
    expect(withoutNoise(0.000123456789)).toBe(0.000123456789);
  });
});

describe('jsonNumber and jsonFigures: JSON answers carry figures to 4 decimals', () => {
  it.each<[number, number]>([
    [895.3009999999999, 895.301],
    [1.0639223706540186, 1.0639],
    [36510.455099999905, 36510.4551],
    [0.08365246990519025, 0.0837],
    [-2.71239, -2.7124],
    [124207, 124207],
  ])('%d → %d', (value, expected) => {
    expect(jsonNumber(value)).toBe(expected);
  });

  it('never carries a figure across a half cent: 1.00496 is 1.0049, so a face rounding it shows 1,00 as the exact figure', () => {
    expect(jsonNumber(1.00496)).toBe(1.0049);
    expect(jsonNumber(-1.00496)).toBe(-1.0049);
    expect(formatMoney(jsonNumber(1.00496))).toBe(formatMoney(1.00496));
  });

  it('a face rounding a JSON figure to 2 decimals always shows the exact figure rounded once', () => {
    const rand = seeded(25);
    for (let i = 0; i < 5000; i++) {
      const value = Math.round((rand() * 20000 - 5000) * 1e6) / 1e6;
      const sent = jsonNumber(value);
      expect(Math.abs(sent - value)).toBeLessThanOrEqual(0.0001 + 1e-9);
      expect(roundTo(sent, 2)).toBe(roundTo(value, 2));
    }
  });

  it('shownFigure is what a face shows from the JSON figure: the exact value rounded once at 2 decimals, the JSON figure at 4', () => {
    expect([shownFigure(1.00496, 2), shownFigure(1.00496, 4), shownFigure(0.5428571, 4), shownFigure(null, 2)]).toEqual([1, 1.0049, 0.5429, null]);
    const rand = seeded(7);
    for (let i = 0; i < 2000; i++) {
      const value = Math.round(rand() * 1e9) / 1e7;
      expect(shownFigure(value, 2)).toBe(roundTo(value, 2));
      expect(shownFigure(value, 4)).toBe(roundTo(jsonNumber(value), 4));
    }
  });

  it('rounds every figure of an answer at any depth; counts, text, dates and settings stay as they are', () => {
    const at = new Date('2026-11-27T10:00:00Z');
    const answer = {
      rows: [{ zone_id: '10', impressions: 124207, revenue: 10.219560000000001, ctr: 1.0639223706540186, tq: 0.74866597, rate_applied: 0.123456789 }],
      totals: { revenue: 36510.455099999905, cpc: 0.08365246990519025, '2026-11': 52721.404999999999, clicks: 436454, tq: null },
      alert: { figures: { roi: -12.345678, spend: 895.3009999999999 } },
      rates: [{ month: '2026-11', currency: 'EUR', rate: 1.0876543 }],
      publishers: [{ name: 'PubA', revenue_share: 0.123456 }],
      at,
      page: 1,
    };
    expect(jsonFigures(answer)).toEqual({
      rows: [{ zone_id: '10', impressions: 124207, revenue: 10.2196, ctr: 1.0639, tq: 0.7487, rate_applied: 0.1235 }],
      totals: { revenue: 36510.4551, cpc: 0.0837, '2026-11': 52721.405, clicks: 436454, tq: null },
      alert: { figures: { roi: -12.3457, spend: 895.301 } },
      rates: [{ month: '2026-11', currency: 'EUR', rate: 1.0876543 }],
      publishers: [{ name: 'PubA', revenue_share: 0.123456 }],
      at,
      page: 1,
    });
    expect(jsonFigures(answer).at).toBe(at);
  });
});
