// The warehouse contract on ClickHouse over its HTTP interface: the adapter's `url` client (the
// production path) against the test-only chdb HTTP server (clickhouse-http.ts).
import { afterAll, beforeAll } from 'vitest';
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
