// Rentabilidad's days are calendar days of the reporting time zone, on both engines: visits a
// second either side of local midnight land on their own day, on the days clocks go back and
// forward too, and in a zone a quarter of an hour off the hour. (The DuckDB query tells the day
// from the instant plus the zone's offset, the pieces of tz-offsets.ts, instead of converting
// every event.)
import { describe, expect, test } from 'vitest';
import type { ReferrerEvent, Warehouse } from '../src/warehouse/index.js';
import { offsetPieces } from '../src/warehouse/tz-offsets.js';
import { bothWarehouses } from './helpers.js';
import { event } from './warehouse-contract.js';

const HOUR = 3_600_000;
const ms = (iso: string) => Date.parse(iso);

describe('the reporting zone’s offsets over a window', () => {
  test('Madrid: +1 h, then +2 h from 01:00 UTC on the last Sunday of March, then +1 h from 01:00 UTC on the last Sunday of October', () => {
    expect(offsetPieces(ms('2026-01-01T00:00:00Z'), ms('2026-12-31T23:59:59.999Z'), 'Europe/Madrid')).toEqual({
      first: HOUR,
      changes: [
        { at: ms('2026-03-29T01:00:00Z'), offset: 2 * HOUR },
        { at: ms('2026-10-25T01:00:00Z'), offset: HOUR },
      ],
    });
  });

  test('UTC, Mexico City (no daylight saving since 2022) and Kathmandu (+5:45) never change', () => {
    expect(offsetPieces(ms('2025-01-01T00:00:00Z'), ms('2026-12-31T00:00:00Z'), 'UTC')).toEqual({ first: 0, changes: [] });
    expect(offsetPieces(ms('2025-01-01T00:00:00Z'), ms('2026-12-31T00:00:00Z'), 'America/Mexico_City')).toEqual({ first: -6 * HOUR, changes: [] });
    expect(offsetPieces(ms('2025-01-01T00:00:00Z'), ms('2026-12-31T00:00:00Z'), 'Asia/Kathmandu')).toEqual({ first: 5.75 * HOUR, changes: [] });
  });
});

/** Visits from one ad at these instants, on one zone. */
const visitsAt = (instants: string[]): ReferrerEvent[] =>
  instants.map((iso, i) => event(i + 1, ms(iso), { zone_id: 'Z1', campaign_id: 'C1', adset_id: 'S1', ad_id: 'A1', placement: null }));

async function visitsByDay(w: Warehouse, events: ReferrerEvent[], from: string, to: string, tz: string) {
  await w.referrers.append(events);
  const parts = await w.profit.parts({ by: 'day', from, to, tz });
  return Object.fromEntries(parts.visits.map((v) => [v.key, v.visits]).sort());
}

const MADRID = [
  '2025-10-25T21:59:59Z', // 23:59:59 (+2) on the 25th
  '2025-10-26T00:30:00Z', // 02:30 (+2), before the clocks go back
  '2025-10-26T01:30:00Z', // 02:30 (+1), after
  '2025-10-26T22:59:59Z', // 23:59:59 (+1): a 25-hour day
  '2025-10-26T23:00:00Z', // 00:00 on the 27th
  '2026-03-28T22:59:59Z', // 23:59:59 (+1) on the 28th
  '2026-03-28T23:00:00Z', // 00:00 on the 29th
  '2026-03-29T21:59:59Z', // 23:59:59 (+2): a 23-hour day
  '2026-03-29T22:00:00Z', // 00:00 on the 30th
];
const MADRID_DAYS = { '2025-10-25': 1, '2025-10-26': 3, '2025-10-27': 1, '2026-03-28': 1, '2026-03-29': 2, '2026-03-30': 1 };
const KATHMANDU = ['2026-01-10T18:14:59Z', '2026-01-10T18:15:00Z']; // 23:59:59 and 00:00 at +5:45

const engines = bothWarehouses('profit-days');

describe.each(engines)('visits by local day on %s', (_name, open) => {
  test('Madrid across both daylight-saving changes', async () => {
    const w = await open();
    try {
      expect(await visitsByDay(w, visitsAt(MADRID), '2025-10-20', '2026-04-05', 'Europe/Madrid')).toEqual(MADRID_DAYS);
    } finally {
      await w.close();
    }
  });

  test('Kathmandu, a quarter of an hour off the hour', async () => {
    const w = await open();
    try {
      expect(await visitsByDay(w, visitsAt(KATHMANDU), '2026-01-01', '2026-01-31', 'Asia/Kathmandu')).toEqual({ '2026-01-10': 1, '2026-01-11': 1 });
    } finally {
      await w.close();
    }
  });
});
