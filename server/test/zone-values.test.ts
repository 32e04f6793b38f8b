// 'Valor' on the live stream never holds delivery on a read of the warehouse once a day is
// loaded: when a loaded day's values fall due, or an event's zone is not among them, the day is
// read again in the background and what is loaded serves meanwhile; only a day's first read is
// waited for. (Those reads used to hold every live event for as long as the day's query took —
// 85 ms after 7 million events that day — every 5 s while hits came for a zone without human
// visits.) Real DuckDB warehouse; its reads pass a gate the test opens.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openDuckDbWarehouse } from '../src/warehouse/duckdb/index.js';
import { ZoneValues } from '../src/services/zone-values.js';
import type { ZoneValuesQuery } from '../src/warehouse/index.js';
import { zoneReportRow } from './helpers.js';
import { event, importRows } from './warehouse-contract.js';

const TODAY = new Date().toISOString().slice(0, 10);
const NOON = Date.parse(`${TODAY}T12:00:00Z`);
let w: Awaited<ReturnType<typeof openDuckDbWarehouse>>;
let nextId = 1;
const visits = (n: number) => Array.from({ length: n }, (_, i) => event(nextId++, NOON - 3_600_000 + i * 1000, { zone_id: 'Z1' }));

beforeAll(async () => {
  w = await openDuckDbWarehouse(':memory:');
  await importRows(w, [zoneReportRow(TODAY, 'Z1', { revenue: 10 })]);
  await w.referrers.append(visits(4));
});
afterAll(() => w.close());

/**
 * ZoneValues on the warehouse whose every read waits at a gate the test opens (gates: one per
 * read asked); `settled()` waits for every read asked, so none outlives its test's warehouse.
 */
function gatedValues(now: () => number) {
  const gates: Array<() => void> = [];
  const asked: Promise<unknown>[] = [];
  const reads = {
    zoneValues: (q: ZoneValuesQuery) => {
      const read = (async () => {
        await new Promise<void>((open) => gates.push(open));
        return w.profit.zoneValues(q);
      })();
      asked.push(read);
      return read;
    },
  };
  const values = new ZoneValues(reads, 'UTC', () => {}, { ttlMs: 60_000, missRetryMs: 5_000, maxDays: 8 }, now);
  return { values, gates, settled: () => Promise.allSettled(asked) };
}

test('only a day’s first read is waited for: a due read, or one for a zone not known, runs in the background while what is loaded serves', async () => {
  let clock = NOON;
  const { values, gates } = gatedValues(() => clock);
  const settled = async (p: Promise<void> | undefined) => {
    let done = false;
    void p?.then(() => (done = true));
    await new Promise((r) => setTimeout(r, 20));
    return done;
  };

  // A day not loaded yet: the stream waits for its read.
  const first = values.ready([{ zone_id: 'Z1', ms: NOON }]);
  expect(first).toBeInstanceOf(Promise);
  expect(await settled(first)).toBe(false);
  gates.shift()!();
  await first;
  expect(values.peek('Z1', NOON).value).toBe(2.5); // 10 ÷ 4 visits

  // Four more visits; a minute on, the day's values are due: nothing to wait for, a read starts.
  await w.referrers.append(visits(4));
  clock += 61_000;
  expect(values.ready([{ zone_id: 'Z1', ms: NOON }])).toBeUndefined();
  expect(gates).toHaveLength(1);
  expect(values.peek('Z1', NOON).value).toBe(2.5); // the stale value meanwhile
  expect(values.ready([{ zone_id: 'Z1', ms: NOON }])).toBeUndefined(); // and no second read
  expect(gates).toHaveLength(1);
  gates.shift()!();
  for (let i = 0; i < 50 && values.peek('Z1', NOON).value !== 1.25; i++) await new Promise((r) => setTimeout(r, 10));
  expect(values.peek('Z1', NOON).value).toBe(1.25); // 10 ÷ 8

  // A zone not among the loaded day's (past missRetryMs): unknown at once, the day read again in the background.
  clock += 6_000;
  await importRows(w, [zoneReportRow(TODAY, 'Z7', { revenue: 3 })]);
  await w.referrers.append([event(nextId++, NOON, { zone_id: 'Z7' })]);
  expect(values.ready([{ zone_id: 'Z7', ms: NOON }])).toBeUndefined();
  expect(values.peek('Z7', NOON)).toEqual({ value: null, tq: null });
  expect(gates).toHaveLength(1);
  gates.shift()!();
  for (let i = 0; i < 50 && values.peek('Z7', NOON).value !== 3; i++) await new Promise((r) => setTimeout(r, 10));
  expect(values.peek('Z7', NOON).value).toBe(3); // 3 ÷ its 1 visit
});

test('warm() reads today in the background (at start), so the first live event finds it loaded', async () => {
  const { values, gates } = gatedValues(() => NOON);
  values.warm();
  expect(gates).toHaveLength(1);
  const waiting = values.ready([{ zone_id: 'Z1', ms: NOON }]); // while it reads: waits for that same read
  expect(gates).toHaveLength(1);
  gates.shift()!();
  await waiting;
  expect(values.ready([{ zone_id: 'Z1', ms: NOON }])).toBeUndefined();
  expect(values.peek('Z1', NOON).value).not.toBeNull();

  // An import forgets them: the next live event waits for a read that sees the visits after it.
  values.clear();
  const afterImport = values.ready([{ zone_id: 'Z1', ms: NOON }]);
  expect(afterImport).toBeInstanceOf(Promise);
  expect(gates).toHaveLength(1);
  gates.shift()!();
  await afterImport;
  expect(values.ready([{ zone_id: 'Z1', ms: NOON }])).toBeUndefined();
});

test('on a day without its zone report, a zone not among the values is not asked for again before the day is due: the days before give it none', async () => {
  const tomorrow = NOON + 86_400_000; // no zone report yet: Z1's value is its trailing RPV
  let clock = tomorrow;
  const { values, gates, settled } = gatedValues(() => clock);
  const first = values.ready([{ zone_id: 'Z1', ms: tomorrow }]);
  gates.shift()!();
  await first;
  expect(values.peek('Z1', tomorrow).value).not.toBeNull();

  // A zone with no visit in the days before: unknown, and no read every missRetryMs for it.
  for (let i = 0; i < 5; i++) {
    clock += 6_000;
    expect(values.ready([{ zone_id: 'Z-new', ms: tomorrow }])).toBeUndefined();
    expect(values.peek('Z-new', tomorrow)).toEqual({ value: null, tq: null });
  }
  expect(gates).toHaveLength(0);
  // Due a minute on: read again in the background.
  clock += 31_000;
  expect(values.ready([{ zone_id: 'Z-new', ms: tomorrow }])).toBeUndefined();
  expect(gates).toHaveLength(1);
  gates.shift()!();
  await settled();
});
