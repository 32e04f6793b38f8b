// An export read in windows sorts its next window while the client reads this one — when it is
// the only such export. A window's sorted rows stay pinned until the next query on its
// connection, so two exports reading ahead held four windows at once and the second broke at
// DuckDB's 128 MB limit (bench:reports, two 5 M-row exports). With another under way, each reads
// its next window only after this one, on the same connection; the rows are the same either way.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { Db } from '../src/warehouse/duckdb/db.js';

let db: Db;
/** Windows of 5,000 rows: three chunks each. */
const windows = (from: number, count: number) =>
  Array.from({ length: count }, (_, w) => ({
    sql: `SELECT i, i * 3 AS v FROM t WHERE i >= ${from + w * 5000} AND i < ${from + (w + 1) * 5000} ORDER BY v DESC`,
    params: {},
  }));

beforeAll(async () => {
  db = await Db.open(':memory:');
  await db.exec('CREATE TABLE t AS SELECT i FROM range(100000) r(i)');
});
afterAll(() => db.close());

/** Each query's run to its first chunk (its sort), counted. */
const opened = () => vi.spyOn(db as unknown as { openNow: (...a: unknown[]) => Promise<unknown> }, 'openNow');
const tick = () => new Promise((r) => setTimeout(r, 20));

async function rest(stream: AsyncGenerator<{ rows: number; columns: Record<string, unknown[]> }>, into: unknown[]) {
  for await (const chunk of stream) into.push(...chunk.columns.i);
}

describe('an export of several windows', () => {
  test('alone, it sorts its next window while this one is read', async () => {
    const spy = opened();
    const stream = db.streamColumns(windows(0, 3));
    await stream.next();
    await vi.waitFor(() => expect(spy).toHaveBeenCalledTimes(2)); // the second window, ahead
    await stream.return(undefined);
    spy.mockRestore();
  });

  test('with another at once, neither reads ahead; each has its rows whole and in order', async () => {
    const spy = opened();
    // …and their windows are sorted one at a time, never two at once.
    const original = spy.getMockImplementation() ?? (Db.prototype as unknown as { openNow: (...a: unknown[]) => Promise<unknown> }).openNow;
    let sorting = 0;
    let most = 0;
    spy.mockImplementation(async function (this: Db, ...args: unknown[]) {
      most = Math.max(most, ++sorting);
      try {
        return await original.apply(this, args);
      } finally {
        sorting--;
      }
    });
    const a = db.streamColumns(windows(0, 3));
    const b = db.streamColumns(windows(20000, 3));
    const [first, second] = await Promise.all([a.next(), b.next()]);
    await tick();
    expect(spy).toHaveBeenCalledTimes(2); // one window each, none ahead
    const rowsA: unknown[] = [...(first.value?.columns.i ?? [])];
    const rowsB: unknown[] = [...(second.value?.columns.i ?? [])];
    await Promise.all([rest(a, rowsA), rest(b, rowsB)]);
    expect(spy).toHaveBeenCalledTimes(6);
    expect(most).toBe(1);
    const expected = async (from: number) => (await Promise.all(windows(from, 3).map((q) => db.all<{ i: number }>(q.sql)))).flat().map((r) => r.i);
    expect(rowsA).toEqual(await expected(0));
    expect(rowsB).toEqual(await expected(20000));
    spy.mockRestore();
  });

  test('once the other has ended, it reads ahead again', async () => {
    const spy = opened();
    const a = db.streamColumns(windows(0, 4));
    const b = db.streamColumns(windows(20000, 2));
    await Promise.all([a.next(), b.next()]);
    await rest(b, []);
    const before = spy.mock.calls.length;
    // The rest of a's first window (three chunks of 2,048, 2,048 and 904 rows), then its second's first chunk:
    for (let k = 0; k < 3; k++) await a.next();
    // its second window opened after the first (b was under way then), its third ahead again.
    await vi.waitFor(() => expect(spy.mock.calls.length).toBe(before + 2));
    const rowsA: unknown[] = [];
    await rest(a, rowsA);
    expect(spy.mock.calls.length).toBe(before + 3);
    expect(rowsA).toHaveLength(4 * 5000 - 5000 - 2048); // all but the first window and the second's first chunk
    spy.mockRestore();
  });
});

describe('a window the engine could not hold within its memory limit', () => {
  const OOM = () => new Error('Out of Memory Error: failed to pin block of size 256.0 KiB (121.9 MiB/122.0 MiB used)');
  type Open = { result: { fetchChunk(): Promise<unknown> }; names: string[]; first: unknown };
  const expected = async (qs: ReturnType<typeof windows>) => (await Promise.all(qs.map((q) => db.all<{ i: number }>(q.sql)))).flat().map((r) => r.i);
  const read = async (qs: ReturnType<typeof windows>) => {
    const rows: unknown[] = [];
    await rest(db.streamColumns(qs), rows);
    return rows;
  };

  test('sorted ahead, it is run again alone: every row once, in order', async () => {
    const spy = opened();
    const original = (Db.prototype as unknown as { openNow: (...a: unknown[]) => Promise<Open> }).openNow;
    let calls = 0;
    spy.mockImplementation(async function (this: Db, ...args: unknown[]) {
      if (++calls === 2) throw OOM(); // the second window, opened ahead of the first's reading
      return original.apply(this, args);
    });
    const qs = windows(0, 3);
    expect(await read(qs)).toEqual(await expected(qs));
    expect(calls).toBe(4); // three windows, the second twice
    spy.mockRestore();
  });

  test('failing half-way, it is run again from the rows already sent: none twice, none missing', async () => {
    const spy = opened();
    const original = (Db.prototype as unknown as { openNow: (...a: unknown[]) => Promise<Open> }).openNow;
    let calls = 0;
    spy.mockImplementation(async function (this: Db, ...args: unknown[]) {
      const open = await original.apply(this, args);
      if (++calls !== 1) return open;
      // The first window's second fetch fails: 2,048 rows were sent.
      let fetches = 0;
      const result = open.result;
      return {
        ...open,
        result: Object.assign(Object.create(result), { fetchChunk: () => (++fetches === 1 ? Promise.reject(OOM()) : result.fetchChunk()) }),
      };
    });
    const qs = windows(0, 3);
    const rows = await read(qs);
    expect(rows).toEqual(await expected(qs));
    expect(new Set(rows).size).toBe(15000);
    spy.mockRestore();
  });

  test('any other failure, or the same window failing again, ends the export with the error', async () => {
    const spy = opened();
    spy.mockRejectedValueOnce(new Error('Binder Error: no such column'));
    await expect(read(windows(0, 2))).rejects.toThrow(/Binder Error/);
    spy.mockRejectedValueOnce(OOM()).mockRejectedValueOnce(OOM());
    await expect(read(windows(0, 2))).rejects.toThrow(/Out of Memory/);
    spy.mockRestore();
  });
});
