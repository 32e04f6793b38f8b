// The warehouse contract on ClickHouse over its HTTP interface: the adapter's `url` client (the
// production path) against the test-only chdb HTTP server (clickhouse-http.ts).
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { openClickHouseWarehouse } from '../src/warehouse/clickhouse/index.js';
import { startClickHouseHttp, type ClickHouseHttp } from './clickhouse-http.js';
import { describeWarehouseContract } from './warehouse-contract.js';

let server: ClickHouseHttp;
let databases = 0;
beforeAll(async () => {
  server = await startClickHouseHttp();
});
afterAll(async () => {
  await server?.stop();
});

describeWarehouseContract('ClickHouse over HTTP', () => openClickHouseWarehouse({ url: server.url }, { database: `h${++databases}` }));

describe('the ClickHouse client of a server', () => {
  test('opens without warnings on the console, so the log of the server stays JSON lines', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const w = await openClickHouseWarehouse({ url: server.url }, { database: `h${++databases}` });
      await w.close();
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });
});
