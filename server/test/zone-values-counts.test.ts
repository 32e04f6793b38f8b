// A day with its zone report that is still filling (today) has its 'Valor' re-read every minute;
// DuckDB keeps its visits counted and each read counts only the events appended since the last
// (profit/day-visits.ts). Whatever arrives in between — more visits, bot traffic, other days'
// events, a batch out of id order (a late batch, adops migrate), one appended while a read runs,
// retention — each read must answer what a warehouse given the same events at once answers,
// and the hand-worked RPV (the day's revenue ÷ its human visits).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, expect, test } from 'vitest';
import { addDays, zonedDayStart } from '@adops/core';
import { openDuckDbWarehouse } from '../src/warehouse/duckdb/index.js';
import type { ReferrerEvent, Warehouse } from '../src/warehouse/index.js';
import { zoneReportRow } from './helpers.js';
import { event, importRows } from './warehouse-contract.js';

// Tomorrow (UTC): a reported day still filling however late the suite runs (today would turn into yesterday at midnight).
const DAY = addDays(new Date().toISOString().slice(0, 10), 1);
const START = zonedDayStart(DAY, 'UTC').getTime();
const REPORT = [zoneReportRow(DAY, 'Z1', { revenue: 30, tq: 0.8 }), zoneReportRow(DAY, 'Z2', { revenue: 10, tq: 0.5 })];

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const open = async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'adops-day-visits-'));
  dirs.push(dir);
  const w = await openDuckDbWarehouse(dir);
  await importRows(w, REPORT);
  return Object.assign(w, { dir });
};

/** `n` events of `zone` on DAY (or `dayOffset` days from it), ids from `firstId`. */
const visits = (firstId: number, n: number, zone: string, over: Partial<ReferrerEvent> = {}, dayOffset = 0) =>
  Array.from({ length: n }, (_, i) => event(firstId + i, START + dayOffset * 86_400_000 + (firstId + i) * 1000, { zone_id: zone, ...over }));

/** Each zone's value on DAY, to the billionth. */
const values = async (w: Warehouse) =>
  Object.fromEntries(
    (await w.profit.zoneValues({ day: DAY, tz: 'UTC' }))
      .map((v) => [v.zone_id, { rpv: v.rpv === null ? null : Math.round(v.rpv * 1e9) / 1e9, tq: v.tq, estimated: v.estimated }] as const)
      .sort(([a], [b]) => a.localeCompare(b)),
  );

/** What a warehouse given exactly these events at once answers. */
async function fresh(events: ReferrerEvent[]) {
  const w = await open();
  try {
    await w.referrers.append(events);
    return await values(w);
  } finally {
    await w.close();
  }
}

let w: Warehouse & { dir: string };
let sent: ReferrerEvent[];
const append = async (events: ReferrerEvent[]) => {
  sent.push(...events);
  await w.referrers.append(events);
};
beforeEach(async () => {
  w = await open();
  sent = [];
});
afterEach(() => w.close());

test('each read counts the human visits appended since the last: RPV is the day’s revenue ÷ all its visits so far', async () => {
  await append([...visits(1, 10, 'Z1'), ...visits(11, 5, 'Z2'), ...visits(16, 3, 'Z1', { is_bot: true, reason: 'ip_rate' })]);
  expect(await values(w)).toEqual({
    Z1: { rpv: 3, tq: 0.8, estimated: false },
    Z2: { rpv: 2, tq: 0.5, estimated: false },
  });
  // More visits, bots, a zone without report rows (revenue 0), and the day before's events (not this day's).
  await append([
    ...visits(19, 5, 'Z1'),
    ...visits(24, 2, 'Z3'),
    ...visits(26, 4, 'Z2', { is_bot: true, reason: 'spam' }),
    ...visits(30, 7, 'Z2', {}, -1),
  ]);
  const second = await values(w);
  expect(second).toEqual({
    Z1: { rpv: 2, tq: 0.8, estimated: false },
    Z2: { rpv: 2, tq: 0.5, estimated: false },
    Z3: { rpv: 0, tq: null, estimated: false },
  });
  expect(second).toEqual(await fresh(sent));
  // Nothing new: the same answer.
  expect(await values(w)).toEqual(second);
});

test('a batch out of id order (a late batch, adops migrate) counts too, as does one appended while a read runs', async () => {
  await append(visits(100, 10, 'Z1'));
  expect((await values(w)).Z1.rpv).toBe(3);
  // Ids below those already counted.
  await append(visits(50, 5, 'Z1'));
  expect((await values(w)).Z1.rpv).toBe(2);
  // Out of order again, while a read runs; then in order, while another does.
  await Promise.all([values(w), append(visits(60, 5, 'Z1'))]);
  expect((await values(w)).Z1.rpv).toBe(1.5);
  await Promise.all([values(w), append(visits(200, 10, 'Z2'))]);
  const last = await values(w);
  expect(last).toMatchObject({ Z1: { rpv: 1.5 }, Z2: { rpv: 1 } });
  expect(last).toEqual(await fresh(sent));
});

test('retention and a restart in between leave the counts those of the raw events', async () => {
  await append([...visits(1, 8, 'Z1'), ...visits(9, 4, 'Z2')]);
  expect(await values(w)).toMatchObject({ Z1: { rpv: 3.75 }, Z2: { rpv: 2.5 } });
  // Retention up to the day's middle (a hypothetical cutoff: the counts must follow what is left).
  await w.referrers.rollUpBefore(START + 7_500);
  await append(visits(13, 2, 'Z2'));
  const kept = sent.filter((e) => e.seen_ms >= START + 7_500);
  expect(await values(w)).toEqual(await fresh(kept));
  const after = await values(w);
  expect(after.Z1.rpv).toBe(30);
  expect(after.Z2.rpv).toBeCloseTo(10 / 6, 8);
  // Restarted: counted afresh once, then kept up to date again.
  await w.close();
  w = Object.assign(await openDuckDbWarehouse(w.dir), { dir: w.dir });
  await append(visits(15, 1, 'Z1'));
  expect((await values(w)).Z1.rpv).toBe(15);
  await append(visits(16, 3, 'Z1'));
  expect(await values(w)).toEqual(await fresh(sent.filter((e) => e.seen_ms >= START + 7_500)));
  expect((await values(w)).Z1.rpv).toBe(6);
});
