// A read the warehouse engine cannot hold within its memory limit (ADOPS_WAREHOUSE_MEMORY_LIMIT)
// is answered 503 in words, with Retry-After — not "Error interno del servidor". Found at 100 M
// rows on the embedded ClickHouse, where a year's Top Zones needs more than the default 128 MB.
// The refusals here are each engine's own, made by a real query past a real limit.
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { MEMORY_REFUSAL_DETAIL, isWarehouseMemoryRefusal } from '../src/warehouse/memory-refusal.js';
import { chdbClient, logCapture, startTestServer, type TestServer } from './helpers.js';

const { client } = await chdbClient('chdb-memory-refusal');

/** The error a query past its engine's memory limit fails with. */
async function refusalOf(engine: 'duckdb' | 'clickhouse'): Promise<unknown> {
  try {
    if (engine === 'clickhouse')
      await client.query({ query: 'SELECT groupArray(number) FROM numbers(5000000)', clickhouse_settings: { max_memory_usage: '2000000' } });
    else {
      const instance = await DuckDBInstance.create(':memory:', { memory_limit: '8MB', threads: '1' });
      const conn = await instance.connect();
      try {
        await conn.run('SELECT list(i ORDER BY i DESC) FROM range(20000000) t(i)');
      } finally {
        conn.closeSync();
        instance.closeSync();
      }
    }
  } catch (e) {
    return e;
  }
  throw new Error(`${engine} held the query within its limit`);
}

let s: TestServer;
let token: string;
const log = logCapture();
beforeAll(async () => {
  s = await startTestServer({ log: 'info', logStream: log.stream });
  token = (await s.admin()).token;
});
afterAll(() => s?.close());

describe.each(['duckdb', 'clickhouse'] as const)('%s past its memory limit', (engine) => {
  test('a report read is answered 503 in words with Retry-After; another error is still a 500', async () => {
    const refusal = await refusalOf(engine);
    expect(isWarehouseMemoryRefusal(refusal)).toBe(true);
    const top = vi.spyOn(s.app.services.warehouse.zoneReports, 'topEarners').mockRejectedValueOnce(refusal);
    try {
      const res = await s.fetch('/api/dashboard/top?start_date=2026-01-01&end_date=2026-12-31', { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('30');
      expect(await res.json()).toEqual({ detail: MEMORY_REFUSAL_DETAIL });
      // The operator still reads it in the log, with the limit's name.
      await vi.waitFor(() =>
        expect(log.lines.some((l) => l.includes('GET /api/dashboard/top: warehouse memory limit (ADOPS_WAREHOUSE_MEMORY_LIMIT)'))).toBe(true),
      );
      log.lines.length = 0;
      // Any other failure of the engine is not called a memory refusal.
      top.mockRejectedValueOnce(new Error('Binder Error: something else'));
      const other = await s.fetch('/api/dashboard/top?start_date=2026-01-01&end_date=2026-12-31', { headers: { authorization: `Bearer ${token}` } });
      expect(other.status).toBe(500);
      expect(await other.json()).toEqual({ detail: 'Error interno del servidor' });
    } finally {
      top.mockRestore();
    }
    // The same read answers once the engine can hold it.
    const again = await s.fetch('/api/dashboard/top?start_date=2026-01-01&end_date=2026-12-31', { headers: { authorization: `Bearer ${token}` } });
    expect(again.status).toBe(200);
  });
});
