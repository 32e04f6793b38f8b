// Why 'Probar en el pasado' is fast on a cold DuckDB server: a backtest reads its whole month in
// a bounded number of warehouse reads — the same for 7 days (169 hourly evaluations) as for 14
// (337) — and writes nothing. Before, its one profit query first counted every past day missing
// from the warehouse's visit cache into the cache's tables (a writer job per week of days), which
// on 30 days × 1.000 campaigns cost a cold server over three times the rest of the backtest. The
// reads and writes are counted on the real warehouse's own database (wrapped, not mocked), and
// the answer is the same once a Rentabilidad query has filled the cache.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { AlertBacktest, Api } from '@adops/core';
import type { Db } from '../src/warehouse/duckdb/db.js';
import { startTestServer, type TestServer } from './helpers.js';
import { BACKTEST_RULE, D, loadBacktestHistory, TODAY } from './backtest-history.js';

let s: TestServer;
let admin: Api & { token: string };
let ruleId: string;
const counts = { reads: 0, writes: 0 };

beforeAll(async () => {
  s = await startTestServer({ alerts: { everySeconds: 0, mailFrom: 'a@b.c', webhookAttempts: 1, webhookBackoffMs: 1, appUrl: null } });
  admin = await s.admin();
  await loadBacktestHistory(s, admin.token);
  ruleId = (await admin.alerts.createRule(BACKTEST_RULE)).id;
  // The DuckDB warehouse's database: every read and every writer job counted on their way through.
  const { db } = s.app.services.warehouse as unknown as { db: Db };
  const all = db.all.bind(db);
  const serialWrite = db.serialWrite.bind(db);
  db.all = ((sql: string, params?: never) => {
    counts.reads++;
    return all(sql, params);
  }) as Db['all'];
  db.serialWrite = ((work: never) => {
    counts.writes++;
    return serialWrite(work);
  }) as Db['serialWrite'];
});
afterAll(() => s?.close());

/** A backtest and the warehouse reads and writes it made. */
async function counted(days: 7 | 14): Promise<{ b: AlertBacktest; reads: number; writes: number }> {
  const before = { ...counts };
  const b = await admin.alerts.backtestRule({ id: ruleId, days });
  return { b, reads: counts.reads - before.reads, writes: counts.writes - before.writes };
}

/** The answer without what moves with the clock (the last hour replayed and today's paused hours). */
const steady = (b: AlertBacktest) => ({ ...b, to: null, evaluations: null, daily: b.daily.filter((d) => d.date !== TODAY) });

test('a cold backtest reads a bounded number of times whatever its evaluations, writes nothing, and answers as a warm one', async () => {
  expect(s.app.services.warehouse.engine).toBe('duckdb');
  const week = await counted(7);
  const fortnight = await counted(14);
  expect(week.b.evaluations).toBeGreaterThan(7 * 24);
  expect(fortnight.b.evaluations).toBeGreaterThan(14 * 24);
  expect(fortnight.b.summary).toMatchObject({ alerts: 6, pauses: 5, resumes: 3 });
  // The visit cache is left as it was: nothing counted into it first.
  expect([week.writes, fortnight.writes]).toEqual([0, 0]);
  // The same reads for twice the evaluations: none per evaluation.
  expect(fortnight.reads).toBe(week.reads);
  expect(fortnight.reads).toBeLessThanOrEqual(8);

  // Rentabilidad over the same days counts them into the cache (writer jobs); the backtest then reads the cache and answers the same.
  const writes = counts.writes;
  await admin.profit.table({ by: 'campaign', start_date: D(-2), end_date: TODAY, page_size: 50 });
  expect(counts.writes).toBeGreaterThan(writes);
  const warm = await counted(14);
  expect(warm.writes).toBe(0);
  expect(steady(warm.b)).toEqual(steady(fortnight.b));
});
