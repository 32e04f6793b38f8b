// A streamed chunk's columns are read straight from DuckDB's vectors (columns.ts): numbers as
// typed arrays, BIGINT from its two halves, validity as bits, short texts looked up by their 16
// bytes. Every value must be what the library itself reads (Db.all, through getRowObjects) —
// nulls in every column, BIGINTs past 2^53 and negative, dates before 1970, text at and around
// the 12-byte inline limit, unicode, more distinct short texts than the lookup table has slots —
// across many chunks, and with the reader's tables carried from one query to the next.
import { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { Db } from '../src/warehouse/duckdb/db.js';

let db: Db;
const ROWS = 20_000; // nine chunks of 2,048 and a short one

beforeAll(async () => {
  db = await Db.open(':memory:');
  await db.exec(`CREATE TABLE t AS
    SELECT i,
      CASE WHEN i % 11 = 0 THEN NULL WHEN i % 5 = 0 THEN -i * 1.5 ELSE i / 7.0 END::DOUBLE AS d,
      CASE WHEN i % 13 = 0 THEN NULL ELSE (i * 7919) % 100000 - 50000 END::INTEGER AS n,
      CASE WHEN i % 17 = 0 THEN NULL WHEN i % 3 = 0 THEN 9007199254740993 * (i % 7) - i ELSE i * 4294967296 + i END::BIGINT AS b,
      CASE WHEN i % 19 = 0 THEN NULL ELSE DATE '1969-12-25' + (i % 400)::INTEGER END AS day,
      CASE WHEN i % 23 = 0 THEN NULL
           WHEN i % 4 = 0 THEN 'z' || i::VARCHAR
           WHEN i % 4 = 1 THEN ['', 'ES', '123456789012', '1234567890123', 'ñandú', 'añadidoañadi', 'zona 🦆', 'x' || repeat('y', 40)][((i // 4) % 8) + 1]
           WHEN i % 4 = 2 THEN 'Publisher ' || (i % 50)::VARCHAR
           ELSE 'site' || (i % 6000)::VARCHAR || '.com' END AS s,
      i % 2 = 0 AS flag
    FROM range(${ROWS}) r(i)`);
});
afterAll(() => db.close());

describe('columns read from the vectors', () => {
  test('every value is the library’s, in every column and chunk', async () => {
    const sql = 'SELECT * FROM t ORDER BY i';
    const expected = await db.all(sql);
    const streamed: unknown[] = [];
    let chunks = 0;
    for await (const chunk of db.stream(sql)) {
      streamed.push(...chunk);
      chunks++;
    }
    expect(chunks).toBeGreaterThanOrEqual(6);
    expect(streamed).toHaveLength(ROWS);
    expect(streamed).toEqual(expected);
    // The fixture reaches what it is for.
    const values = (key: string) => expected.map((r) => r[key]);
    expect(values('b').some((b) => Math.abs(b as number) > 2 ** 53)).toBe(true);
    expect(values('b').some((b) => (b as number) < 0)).toBe(true);
    expect(values('day')).toContain('1969-12-25');
    expect(values('s')).toContain('1234567890123');
    expect(new Set(values('s')).size).toBeGreaterThan(4096);
  });

  test('a second query on the same stream reads its own texts (no text of the first taken for it)', async () => {
    const queries = [
      { sql: 'SELECT s FROM t WHERE i < 3000 ORDER BY i', params: {} },
      { sql: 'SELECT upper(s) AS s FROM t WHERE i < 3000 ORDER BY i', params: {} },
    ];
    const streamed: unknown[] = [];
    for await (const chunk of db.streamEach(queries)) streamed.push(...chunk);
    const expected = [...(await db.all(queries[0].sql)), ...(await db.all(queries[1].sql))];
    expect(streamed).toEqual(expected);
  });
});

describe('several queries streamed one after the other', () => {
  const queries = [0, 1, 2].map((k) => ({ sql: `SELECT i, s FROM t WHERE i % 3 = ${k} ORDER BY s, i`, params: {} }));

  test('the next query runs while this one is read (its sort is not waited for after), and the rows are each query’s in turn', async () => {
    const started = vi.spyOn(DuckDBConnection.prototype, 'stream');
    try {
      const stream = db.streamEach(queries);
      const first = await stream.next();
      expect(first.done).toBe(false);
      // One chunk of the first query read: the second is already under way on its own connection.
      expect(started).toHaveBeenCalledTimes(2);
      const rows = [...(first.value as unknown[])];
      for await (const chunk of { [Symbol.asyncIterator]: () => stream }) rows.push(...chunk);
      const expected = [];
      for (const q of queries) expected.push(...(await db.all(q.sql)));
      expect(rows).toEqual(expected);
    } finally {
      started.mockRestore();
    }
  });

  test('a reader that stops early leaves no query running: the database closes, and answers until then', async () => {
    const other = await Db.open(':memory:');
    await other.exec('CREATE TABLE t AS SELECT i, i::VARCHAR AS s FROM range(50000) r(i)');
    for await (const _ of other.streamEach(queries)) break;
    expect(await other.one('SELECT count(*)::INTEGER AS n FROM t')).toEqual({ n: 50000 });
    await other.close();
  });
});
