// The Dashboard's top lists: zone rows summed per publisher and zone inside the range, zero
// revenue and empty zone ids left out, five at most, largest revenue first.
import { describe, expect, test } from 'vitest';
import type { SummaryRow, ZoneRow } from '@adops/core';
import { topAdvertisers, topZones } from './useReports';

const zone = (date: string, publisher: string, zone_id: string, revenue: number, margin: number): ZoneRow => ({
  date, advertiser: 'AdNova', publisher, zone_id, geo: 'ES', source: 'search', domain: 'a.com',
  impressions: 100, monetized_impressions: 100, clicks: 1, revenue, rate_applied: null, p_revenue: revenue - margin, margin, tq: null,
  ctr: null, cpm: null, cpc: null, cost: null, rs_percent: null, margin_percent: null, p_cpm: null, p_cpc: null,
});
const advertiserDay = (date: string, advertiser: string, revenue: number): SummaryRow => ({
  date, advertiser, impressions: 100, monetized_impressions: 100, clicks: 1, revenue, p_revenue: 0, margin: revenue, tq: null,
  ctr: null, cpm: null, cpc: null, cost: null, rs_percent: null, margin_percent: null, p_cpm: null, p_cpc: null,
});
const range = { from: '2026-03-01', to: '2026-03-07' };

describe('topZones', () => {
  test('sums each publisher and zone across days and ranks by revenue', () => {
    const rows = [
      zone('2026-03-01', 'PubA', 'Z-1', 10, 4),
      zone('2026-03-02', 'PubA', 'Z-1', 15, 5),
      zone('2026-03-02', 'PubB', 'Z-2', 20, 8),
      // Same zone id under another publisher is another zone.
      zone('2026-03-03', 'PubC', 'Z-1', 1, 1),
    ];
    expect(topZones(rows, range)).toEqual([
      { publisher: 'PubA', zone_id: 'Z-1', revenue: 25, margin: 9 },
      { publisher: 'PubB', zone_id: 'Z-2', revenue: 20, margin: 8 },
      { publisher: 'PubC', zone_id: 'Z-1', revenue: 1, margin: 1 },
    ]);
  });

  test('leaves out rows outside the range, without a zone id, and zones whose revenue sums to zero', () => {
    const rows = [
      zone('2026-02-28', 'PubA', 'Z-1', 99, 1),
      zone('2026-03-08', 'PubA', 'Z-1', 99, 1),
      zone('2026-03-02', 'PubA', ' ', 50, 1),
      zone('2026-03-02', 'PubB', 'Z-0', 0, 0),
      zone('2026-03-03', 'PubD', 'Z-9', 5, -1),
      zone('2026-03-04', 'PubD', 'Z-9', -5, 1),
      zone('2026-03-02', 'PubA', 'Z-1', 3, 1),
    ];
    expect(topZones(rows, range)).toEqual([{ publisher: 'PubA', zone_id: 'Z-1', revenue: 3, margin: 1 }]);
  });

  test('keeps five at most', () => {
    const rows = Array.from({ length: 8 }, (_, i) => zone('2026-03-01', 'PubA', `Z-${i}`, i + 1, 0));
    expect(topZones(rows, range).map((z) => z.zone_id)).toEqual(['Z-7', 'Z-6', 'Z-5', 'Z-4', 'Z-3']);
    expect(topZones([], range)).toEqual([]);
  });
});

test('topAdvertisers sums the days of the range per advertiser, largest first, without zero revenue', () => {
  const rows = [
    advertiserDay('2026-03-01', 'AdNova', 10),
    advertiserDay('2026-03-02', 'AdNova', 5),
    advertiserDay('2026-03-02', 'BidSphere', 30),
    advertiserDay('2026-03-02', 'Clickora', 0),
    advertiserDay('2026-03-09', 'Clickora', 100),
  ];
  expect(topAdvertisers(rows, range)).toEqual([
    { advertiser: 'BidSphere', revenue: 30, margin: 30 },
    { advertiser: 'AdNova', revenue: 15, margin: 15 },
  ]);
});
