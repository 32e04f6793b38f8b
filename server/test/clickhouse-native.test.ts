// ClickHouse's Native format read into columns (warehouse/clickhouse/native.ts): the values JSON
// gives (the reference: JSONColumnsWithMetadata of the same query), in the embedded engine and
// over HTTP, across blocks and chunks, for every type the reader knows; any other type, and a
// result cut short, refused in words.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { ClickHouseClient } from '@clickhouse/client';
import { createClient } from '@clickhouse/client';
import { ClickHouseDb } from '../src/warehouse/clickhouse/db.js';
import { nativeChunks } from '../src/warehouse/clickhouse/native.js';
import { startClickHouseHttp, type ClickHouseHttp } from './clickhouse-http.js';
import { chdbClient } from './helpers.js';

const { client: embedded } = await chdbClient('chdb-native');
let server: ClickHouseHttp;
let overHttp: ClickHouseClient;
beforeAll(async () => {
  server = await startClickHouseHttp();
  overHttp = createClient({ url: server.url });
});
afterAll(async () => {
  await overHttp?.close();
  await server?.stop();
});

// 5,000 rows of every type the reader knows, in blocks of 700 (chunks of 2,048 cross them).
const HOSTILE = ["O'Brien", 'línea\nrota', '"quoted",x', 'Ñandú 😀 عربى', '', 'twelve bytes', 'thirteen byte', '\\N', 'tab\there'];
const QUERY = `
SELECT
  toDate32('1900-01-01') + number * 37 AS day32,
  toDate('1970-01-01') + number AS day,
  arrayElement([${HOSTILE.map((t) => `'${t.replaceAll('\\', '\\\\').replaceAll("'", "\\'").replaceAll('\n', '\\n').replaceAll('\t', '\\t')}'`).join(', ')}], number % ${HOSTILE.length} + 1) AS text,
  concat('zone-', toString(number % 97)) AS zone,
  if(number % 5 = 0, NULL, concat('pub ', toString(number % 13))) AS maybe_text,
  toInt64(number) * if(number % 2 = 0, -1, 1) * 1000003 AS int64,
  toUInt64(9007199254740991 - number) AS uint64,
  if(number % 3 = 0, NULL, toInt64(number)) AS maybe_int64,
  number / 7 - 300 AS float64,
  multiIf(number % 11 = 0, nan, number % 11 = 1, inf, number % 11 = 2, -inf, number / 3) AS odd_float,
  if(number % 4 = 0, NULL, number * 0.25) AS maybe_float,
  toFloat32(number) / 8 AS float32,
  toInt32(number) - 2500 AS int32,
  toUInt32(number * 3) AS uint32,
  toUInt8(number % 256) AS uint8,
  toBool(number % 2 = 0) AS flag
FROM numbers(5000)
ORDER BY number
SETTINGS max_block_size = 700`;

const clients: Array<[string, () => ClickHouseClient]> = [
  ['in process (chdb)', () => embedded],
  ['over HTTP', () => overHttp],
];

/** The query's bytes in Native. */
async function nativeBytes(client: ClickHouseClient, query: string): Promise<Buffer> {
  const rs = await client.exec({ query: `${query}\nFORMAT Native` });
  const parts: Buffer[] = [];
  for await (const part of rs.stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

describe.each(clients)('the Native reader, %s', (_name, client) => {
  test('gives the values JSON gives, every row once, in chunks of at most 2,048 rows', async () => {
    const reference = (await (
      await client().query({ query: QUERY, format: 'JSONColumnsWithMetadata', clickhouse_settings: { output_format_json_quote_64bit_integers: 0 } })
    ).json()) as unknown as { data: Record<string, unknown[]>; rows: number; meta: Array<{ name: string }> };
    expect(reference.rows).toBe(5000);
    const columns: Record<string, unknown[]> = {};
    const sizes: number[] = [];
    for (const chunk of nativeChunks(await nativeBytes(client(), QUERY), 2048)) {
      expect(chunk.names).toEqual(reference.meta.map((m) => m.name));
      sizes.push(chunk.rows);
      for (const name of chunk.names) {
        expect(chunk.columns[name]).toHaveLength(chunk.rows);
        columns[name] = [...(columns[name] ?? []), ...chunk.columns[name]];
      }
    }
    expect(Math.max(...sizes)).toBeLessThanOrEqual(2048);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(5000);
    for (const name of Object.keys(reference.data)) expect(columns[name], name).toEqual(reference.data[name]);
    // What each type reads as, spelled out.
    expect(columns.day32.slice(0, 2)).toEqual(['1900-01-01', '1900-02-07']);
    expect(columns.text.slice(0, HOSTILE.length)).toEqual(HOSTILE);
    expect(columns.odd_float.slice(0, 4)).toEqual([null, null, null, 1]);
    expect(columns.int64.slice(0, 3)).toEqual([0, 1000003, -2000006]);
    expect(columns.uint64[0]).toBe(Number.MAX_SAFE_INTEGER);
    expect(columns.maybe_text.slice(0, 2)).toEqual([null, 'pub 1']);
    expect(columns.flag.slice(0, 2)).toEqual([true, false]);
  });

  test('a type it does not read is refused by name; a result cut short is refused, not read short', async () => {
    const bytes = await nativeBytes(client(), 'SELECT [1, 2] AS list FROM numbers(3)');
    expect(() => [...nativeChunks(bytes, 2048)]).toThrow('Native: a column of type Array(UInt8) is not read here');
    const whole = await nativeBytes(client(), 'SELECT toString(number) AS s, number AS n FROM numbers(100)');
    expect([...nativeChunks(whole, 2048)][0].rows).toBe(100);
    expect(() => [...nativeChunks(whole.subarray(0, whole.length - 3), 2048)]).toThrow('Native: the result ends inside a block');
  });
});

test('the warehouse reads an export’s windows as Native, not as JSON', async () => {
  const db = new ClickHouseDb(embedded, 'native_export', true, false);
  const exec = vi.spyOn(embedded, 'exec');
  const query = vi.spyOn(embedded, 'query');
  try {
    let rows = 0;
    for await (const chunk of db.streamColumns([{ sql: 'SELECT number AS n FROM numbers(3000)', params: {} }])) rows += chunk.rows;
    expect(rows).toBe(3000);
    expect(exec.mock.calls.map(([p]) => p.query)).toEqual(['SELECT number AS n FROM numbers(3000)\nFORMAT Native']);
    expect(query).not.toHaveBeenCalled();
  } finally {
    exec.mockRestore();
    query.mockRestore();
  }
});
