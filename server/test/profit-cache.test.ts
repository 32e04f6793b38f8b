// DuckDB keeps the profit query's visit counts of past days (profit/visit-cache.ts) so a month
// is not counted again from the raw events at every call. The answers must stay those of the raw
// events whatever happens after a day was kept: events appended later on that day (a late batch,
// adops migrate), retention deleting its events, a restart in between; and today, still
// filling, is always counted from the raw events. What a kept day's visits earned is kept too,
// until its zone report is replaced, and read only while that report is final. Each case is
// checked against a fresh warehouse given the same events at once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { addDays, todayIn } from '@adops/core';
import { openDuckDbWarehouse } from '../src/warehouse/duckdb/index.js';
import type { ProfitDimension, ProfitParts, ReferrerEvent, Warehouse } from '../src/warehouse/index.js';
import { C1, C2, D1, D2, SPEND, ZONES, loadProfitFixture, visits } from './profit-fixture.js';
import { event, importRows } from './warehouse-contract.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const open = (dir?: string) => {
  const d = dir ?? mkdtempSync(path.join(tmpdir(), 'adops-profit-cache-'));
  if (!dir) dirs.push(d);
  return openDuckDbWarehouse(d).then((w) => ({ w, dir: d }));
};

/** The parts sorted by key, revenue to the millionth (the engines' sums may differ in the last bits). */
const answer = (p: ProfitParts) => ({
  visits: [...p.visits]
    .sort((a, b) => String(a.key).localeCompare(String(b.key)))
    .map((v) => ({ ...v, revenue: Math.round(v.revenue * 1e6) / 1e6, tq_weighted: Math.round(v.tq_weighted * 1e6) / 1e6 })),
  estimatedDays: p.estimatedDays,
});
const parts = (w: Warehouse, by: ProfitDimension, from = D1, to = D2, partialDays?: string[]) =>
  w.profit.parts({ by, from, to, tz: 'Europe/Madrid', partialDays }).then(answer);

/** What a warehouse given exactly these events (and the fixture's reports, or `zones`, and spend) answers. */
async function fresh(events: ReferrerEvent[], by: ProfitDimension, from = D1, to = D2, zones = ZONES, partialDays?: string[]) {
  const { w } = await open();
  try {
    await importRows(w, zones);
    await w.spend.upsert(SPEND);
    await w.referrers.append(events);
    return await parts(w, by, from, to, partialDays);
  } finally {
    await w.close();
  }
}

/** The days the cache keeps (any zone); `values`: the days whose visits' values it keeps. */
const keptDays = async (w: Warehouse, values = false) =>
  (
    await (w as Warehouse & { db: { all<T>(sql: string): Promise<T[]> } }).db.all<{ day: string }>(
      `SELECT DISTINCT day FROM ${values ? 'profit_value_day' : 'profit_day'} ORDER BY day`,
    )
  ).map((r) => String(r.day));

describe('the profit visit cache (DuckDB)', () => {
  test('an event appended later on a kept day counts at once, also after a restart', async () => {
    const first = await open();
    let w = first.w;
    await loadProfitFixture(w);
    const before = await parts(w, 'campaign');
    expect(before.visits.map((v) => [v.key, v.visits])).toEqual([
      ['C1', 22],
      ['C2', 22],
    ]);
    expect(await keptDays(w)).toEqual(expect.arrayContaining([D1, D2]));
    const late = [1, 2, 3].map((i) => event(1000 + i, Date.parse(`${D1}T12:00:00Z`) + i, { zone_id: 'Z1', ...C1 }));
    await w.referrers.append(late);
    const after = await parts(w, 'campaign');
    expect(after.visits.map((v) => [v.key, v.visits])).toEqual([
      ['C1', 25],
      ['C2', 22],
    ]);
    // Z1's RPV on D1 fell from 30 / 30 to 30 / 33: C2's 5 visits there are worth less too.
    expect(after.visits[1].revenue).toBeLessThan(before.visits[1].revenue);
    expect(after).toEqual(await fresh([...visits(), ...late], 'campaign'));

    await w.close();
    w = (await open(first.dir)).w;
    expect(await parts(w, 'campaign')).toEqual(after);
    const later = [event(2000, Date.parse(`${D2}T23:30:00Z`), { zone_id: 'Z3', ...C2 })]; // 00:30 on D2 + 1 in Madrid: outside the range
    const earlier = [event(2001, Date.parse(`${D2}T21:30:00Z`), { zone_id: 'Z3', ...C2 })]; // 23:30 on D2
    await w.referrers.append([...later, ...earlier]);
    for (const by of ['campaign', 'ad', 'keyword', 'day'] as const)
      expect(await parts(w, by), by).toEqual(await fresh([...visits(), ...late, ...later, ...earlier], by));
    await w.close();
  });

  test('retention deleting a kept day’s events leaves the answer of the events left', async () => {
    const { w } = await open();
    await loadProfitFixture(w);
    await parts(w, 'ad');
    // The cutoff falls within D1 (10:00:20 UTC): its first twenty events go.
    const cutoff = Date.parse(`${D1}T10:00:20Z`);
    await w.referrers.rollUpBefore(cutoff);
    const left = visits().filter((e) => e.seen_ms >= cutoff);
    expect(left.length).toBeLessThan(visits().length);
    for (const by of ['ad', 'keyword'] as const) expect(await parts(w, by), by).toEqual(await fresh(left, by));
    await w.close();
  });

  test('a kept day’s values follow its zone report: replaced, it answers what the new report does; partial, it is estimated again', async () => {
    const { w } = await open();
    await loadProfitFixture(w);
    const before = await parts(w, 'ad');
    // D1 has its report: what its visits earned is kept; D2 has none (estimated from D1's RPV), so nothing is.
    expect(await keptDays(w, true)).toEqual([D1]);
    expect(before.estimatedDays).toEqual([D2]);
    // A new report for D1: Z1 earned twice as much.
    const doubled = ZONES.map((z) => (z.zone_id === 'Z1' ? { ...z, revenue: z.revenue * 2, p_revenue: z.p_revenue * 2, margin: z.margin * 2 } : z));
    await importRows(w, doubled);
    expect(await keptDays(w, true)).toEqual([]);
    for (const by of ['campaign', 'ad', 'keyword', 'day'] as const)
      expect(await parts(w, by), by).toEqual(await fresh(visits(), by, D1, D2, doubled));
    expect((await parts(w, 'ad')).visits.map((v) => v.revenue)).not.toEqual(before.visits.map((v) => v.revenue));
    expect(await keptDays(w, true)).toEqual([D1]);
    // The same report flagged partial: D1 is estimated (no week before it: its visits are worth 0), not read from what was kept.
    const partial = await parts(w, 'campaign', D1, D2, [D1]);
    expect(partial.estimatedDays).toEqual([D1, D2]);
    expect(partial).toEqual(await fresh(visits(), 'campaign', D1, D2, doubled, [D1]));
    await w.close();
  });

  test('today is counted from the raw events at every call; yesterday and before are kept', async () => {
    const { w } = await open();
    const today = todayIn('Europe/Madrid');
    const from = addDays(today, -3);
    const now = Date.now();
    const at = (ms: number, id: number, c = C1) => event(id, ms, { zone_id: 'Z1', ...c });
    await w.referrers.append([at(now - 3 * 86_400_000, 1), at(now - 2 * 86_400_000, 2), at(now - 60_000, 3)]);
    const one = await parts(w, 'campaign', from, today);
    expect(one.visits[0].visits).toBe(3);
    await w.referrers.append([at(now - 1000, 4), at(now - 500, 5, C2)]);
    const two = await parts(w, 'campaign', from, today);
    expect(two.visits.map((v) => [v.key, v.visits])).toEqual([
      ['C1', 4],
      ['C2', 1],
    ]);
    const kept = await keptDays(w);
    expect(kept).not.toContain(today);
    expect(kept).toContain(addDays(today, -2));
    await w.close();
  });
});
