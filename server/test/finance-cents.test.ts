// Finance amounts in cents: a month's cells are apportioned so they add up to its TOTAL (the
// month's exact sum rounded once), by the largest-remainder method.
import { describe, expect, test } from 'vitest';
import { apportionCents } from '../src/services/reports.js';
import { prng } from '../src/demo/prng.js';

/** Whole cents of a decimal amount, half away from zero. */
const toCents = (v: number) => Math.sign(v) * Math.round(Math.abs(Number((v * 100).toFixed(6))));
const cents = (values: number[]) => values.map(toCents);
const sum = (values: number[]) => cents(values).reduce((a, b) => a + b, 0);

describe('apportionCents', () => {
  test.each([
    ['three thirds of a cent too many when rounded one by one', [0.335, 0.335, 0.335], 1.005, [0.34, 0.34, 0.33]],
    ['amounts already in cents stay as they are', [10.5, 3.25, 0.01], 13.76, [10.5, 3.25, 0.01]],
    ['the largest remainders get the cents left', [1.004, 2.006, 3.007], 6.017, [1.0, 2.01, 3.01]],
    ['a negative amount (a losing month) too', [-1.005, 0.335, 0.335], -0.335, [-1.0, 0.33, 0.33]],
    ['one cell is the total itself', [114092.994999], 114092.994999, [114092.99]],
    ['no cells', [], 0, []],
  ])('%s', (_what, values, total, expected) => {
    const out = apportionCents(values, total);
    expect(out).toEqual(expected);
    expect(sum(out)).toBe(toCents(total));
  });

  test('cells always add up to the rounded total, and never move more than a cent', () => {
    const rand = prng(7);
    for (let run = 0; run < 200; run++) {
      const values = Array.from({ length: 1 + Math.floor(rand() * 40) }, () => Math.round((rand() * 2000 - 200) * 1e6) / 1e6);
      const total = values.reduce((a, b) => a + b, 0);
      const out = apportionCents(values, total);
      expect(sum(out)).toBe(toCents(total));
      out.forEach((v, i) => {
        expect(Math.abs(v - values[i])).toBeLessThan(0.0100001);
      });
    }
  });
});
