// ClickHouse's Top Zones, refused whole for the engine's memory, is summed in parts — each the
// zones of one value of a hash of the zone id, its own top; the top of those is the whole's, as a
// zone is in one part — then in more parts when a part is refused too. At 100 M rows on the
// embedded engine at its default 128 MB, a month's or a year's Top Zones was answered 503; now in
// 1.7–6 s. A range as long as one refused whole starts in the parts that answered it. The refusals
// are injected here (the engine's own code, 241); the answers are the engine's.
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { openClickHouseWarehouse } from '../src/warehouse/clickhouse/index.js';
import { prng } from '../src/sandbox/demo/prng.js';
import { addDays } from '@adops/core';
import { importRows, randomRows } from './warehouse-contract.js';
import { chdbClient } from './helpers.js';

const { client } = await chdbClient('top-zones-parts');
let loaded: Awaited<ReturnType<typeof openClickHouseWarehouse>>;
beforeAll(async () => {
  loaded = await openClickHouseWarehouse(client, { database: 'top' });
  const rand = prng(1130);
  // 70 days from 2 February: whole months, whole weeks and days at the ends for the ranges below.
  await importRows(
    loaded,
    randomRows(rand, 3000).map((r, i) => ({ ...r, zone_id: `Z-${i % 173}`, date: addDays('2026-02-02', Math.floor(rand() * 70)) })),
  );
});
afterAll(() => loaded?.close());

const refusal = () => Object.assign(new Error('Query memory limit exceeded: would use 130.2 MiB, maximum: 128.00 MiB'), { code: '241' });
/** Sums to 6 decimals: ClickHouse adds doubles in no fixed order. */
const rounded = <T extends { revenue: number; margin: number }>(xs: T[]) =>
  xs.map((x) => ({ ...x, revenue: Math.round(x.revenue * 1e6) / 1e6, margin: Math.round(x.margin * 1e6) / 1e6 }));

/** The part a statement sums ([parts, part]), or null for the whole. */
function partOf(sql: string, params: Record<string, unknown> = {}): [unknown, unknown] | null {
  const m = /cityHash64\(zone_id\) % \{(\w+):UInt64\} = \{(\w+):UInt64\}/.exec(sql);
  return m ? [params[m[1]], params[m[2]]] : null;
}

test.each([
  ['a range of whole months, weeks and days', { start_date: '2026-02-05', end_date: '2026-04-10' }],
  ['a range of days only', { start_date: '2026-03-03', end_date: '2026-03-06' }],
  ['a publisher’s', { start_date: '2026-02-05', end_date: '2026-04-10', publisher: 'Pub B' }],
])(
  '%s: refused whole, summed in four parts; refused in four, in sixteen; asked again, in sixteen at once; the answer is the whole one',
  async (_what, filters) => {
    // A warehouse of its own: what it learnt of the parts a range needs starts empty.
    const w = await openClickHouseWarehouse(client, { database: 'top' });
    const whole = await w.zoneReports.topEarners(filters, 10);
    expect(whole.zones.length).toBe(10);
    const all = w.db.all.bind(w.db);
    const asked: Array<[unknown, unknown] | null> = [];
    let refused: (part: [unknown, unknown] | null) => boolean = (part) => part === null;
    const spy = vi.spyOn(w.db, 'all').mockImplementation((async (sql: string, params?: Record<string, unknown>) => {
      if (sql.includes('GROUP BY publisher, zone_id')) {
        const part = partOf(sql, params);
        asked.push(part);
        if (refused(part)) throw refusal();
      }
      return all(sql, params as never);
    }) as never);
    try {
      const inFour = await w.zoneReports.topEarners(filters, 10);
      expect(asked).toEqual([null, [4, 0], [4, 1], [4, 2], [4, 3]]);
      expect(rounded(inFour.zones)).toEqual(rounded(whole.zones));
      expect(rounded(inFour.advertisers)).toEqual(rounded(whole.advertisers));

      asked.length = 0;
      // Refused in four too: the range starts in four (no whole try), then in sixteen.
      refused = (part) => part === null || part[0] === 4;
      const inSixteen = await w.zoneReports.topEarners(filters, 10);
      expect(asked).toEqual([[4, 0], ...Array.from({ length: 16 }, (_, i) => [16, i])]);
      expect(rounded(inSixteen.zones)).toEqual(rounded(whole.zones));

      // Asked again, the range (or a longer one) starts in sixteen parts, not refused whole first;
      // a shorter one is tried whole.
      asked.length = 0;
      refused = () => false;
      expect(rounded((await w.zoneReports.topEarners(filters, 10)).zones)).toEqual(rounded(whole.zones));
      expect(asked).toEqual(Array.from({ length: 16 }, (_, i) => [16, i]));
      asked.length = 0;
      await w.zoneReports.topEarners({ ...filters, start_date: addDays(filters.end_date, -1) }, 10);
      expect(asked).toEqual([null]);

      // Refused in sixteen too, it is the engine's refusal (a 503 in words, warehouse-memory-refusal.test.ts).
      refused = () => true;
      await expect(w.zoneReports.topEarners(filters, 10)).rejects.toMatchObject({ code: '241' });
    } finally {
      spy.mockRestore();
      await w.close();
    }
  },
);
