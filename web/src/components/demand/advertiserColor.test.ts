// Demand brand colours: fixed per advertiser name, distinct for the three fixed advertisers,
// margin always a lighter tint of the revenue colour.
import { describe, expect, test } from 'vitest';
import { FIXED_ADVERTISERS } from '@adops/core';
import { ADVERTISER_PALETTE, advertiserColor } from './advertiserColor';

describe('advertiserColor', () => {
  test('the three fixed advertisers get three different colours', () => {
    const bases = FIXED_ADVERTISERS.map((a) => advertiserColor(a).base);
    expect(new Set(bases).size).toBe(3);
  });

  test('the same name always gets the same colour, and margin is a lighter shade of it', () => {
    for (const name of ['AdNova', 'Otra Marca', 'Ñandú Ads', '']) {
      const c = advertiserColor(name);
      expect(advertiserColor(name)).toEqual(c);
      expect(ADVERTISER_PALETTE).toContain(c.base);
      expect(c.revenue).toBe(`${c.base}-600`);
      expect(c.margin).toBe(`${c.base}-300`);
    }
  });

  test('other advertisers never take a fixed advertiser colour and spread over the rest of the palette', () => {
    const fixed = new Set(FIXED_ADVERTISERS.map((a) => advertiserColor(a).base));
    const others = Array.from({ length: 200 }, (_, i) => advertiserColor(`Advertiser ${i}`).base);
    for (const base of others) expect(fixed.has(base)).toBe(false);
    expect(new Set(others).size).toBe(ADVERTISER_PALETTE.length - FIXED_ADVERTISERS.length);
  });
});
