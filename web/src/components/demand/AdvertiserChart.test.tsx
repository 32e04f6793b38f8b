// A Demand card shows the totals the server answered for its advertiser (never a sum of its
// own), in the network's currency like every other screen; today's bars are labelled '(parcial)';
// the shared scale reads the answer.
import { afterEach, describe, expect, test } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { AdvertiserRevenue } from '@adops/core';
import { AdvertiserChart, dayLabel } from './AdvertiserChart';
import { largestBar } from '../../pages/Demand';
import { setNetworkCurrency } from '../../lib/currency';

afterEach(() => setNetworkCurrency('USD'));

const points = [
  { date: '2026-03-01', revenue: 0.1, margin: 0.05 },
  { date: '2026-03-02', revenue: 0.2, margin: 0.05 },
];

const shown = (html: string, testId: string) => html.match(new RegExp(`data-testid="${testId}"[^>]*>([^<]*)<`))?.[1];

describe('AdvertiserChart', () => {
  test('the header shows the server’s revenue and margin totals in the network’s currency, not always euros', () => {
    const html = renderToStaticMarkup(<AdvertiserChart advertiser="AdNova" points={points} totals={{ revenue: 1234.5, margin: -7 }} />);
    expect(shown(html, 'advertiser-revenue')).toBe('$1.234,50');
    expect(shown(html, 'advertiser-margin')).toBe('-$7,00');
    setNetworkCurrency('EUR');
    const euros = renderToStaticMarkup(<AdvertiserChart advertiser="AdNova" points={points} totals={{ revenue: 1234.5, margin: -7 }} />);
    expect(shown(euros, 'advertiser-revenue')).toBe('€1.234,50');
  });

  test('without totals in the answer the header shows a dash, not a figure of its own', () => {
    const html = renderToStaticMarkup(<AdvertiserChart advertiser="AdNova" points={points} totals={undefined} />);
    expect(shown(html, 'advertiser-revenue')).toBe('-');
    expect(shown(html, 'advertiser-margin')).toBe('-');
  });

  test('today’s day is labelled as partial', () => {
    expect(dayLabel('2026-03-02', '2026-03-02')).toBe('02/03/2026 (parcial)');
    expect(dayLabel('2026-03-01', '2026-03-02')).toBe('01/03/2026');
  });
});

describe('largestBar', () => {
  test('is the largest revenue or margin bar of any advertiser in the answer', () => {
    const answer: AdvertiserRevenue = {
      advertisers: { A: points, B: [{ date: '2026-03-01', revenue: 3, margin: 4.5 }] },
      totals: { A: { revenue: 0.3, margin: 0.1 }, B: { revenue: 3, margin: 4.5 } },
    };
    expect(largestBar(answer)).toBe(4.5);
    expect(largestBar({ advertisers: {}, totals: {} })).toBeUndefined();
    expect(largestBar(undefined)).toBeUndefined();
  });
});
