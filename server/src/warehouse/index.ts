// The warehouse's composition root: the engine named by the configuration behind the one
// Warehouse interface. Embedded DuckDB is the default and needs no server; ADOPS_WAREHOUSE=
// clickhouse opens ClickHouse at ADOPS_CLICKHOUSE_URL (a server, or chdb:<path> embedded).
import path from 'node:path';
import { type Config, engineBytes } from '../config.js';
import { openDuckDbWarehouse } from './duckdb/index.js';
import { openClickHouseWarehouse } from './clickhouse/index.js';
import type { Warehouse } from './types.js';

export * from './types.js';
export { eventMatches } from './event-filter.js';
export { EventWriter, eventsOf, type EventWriterOptions, type WritePart } from './event-writer.js';

export { openClickHouseWarehouse } from './clickhouse/index.js';

/** Days past the retention period before ClickHouse's TTL drops raw events retention has not rolled up (an API outage to ride out). */
const EVENT_TTL_GRACE_DAYS = 30;

export async function createWarehouse(
  config: Pick<Config, 'dataDir'> & Partial<Pick<Config, 'warehouse' | 'clickhouse' | 'eventRetentionDays' | 'warehouseMemory'>>,
): Promise<Warehouse> {
  if (config.warehouse === 'clickhouse') {
    if (!config.clickhouse) throw new Error('ADOPS_CLICKHOUSE_URL must be set when ADOPS_WAREHOUSE=clickhouse');
    const { database, ...connection } = config.clickhouse;
    return openClickHouseWarehouse(connection, {
      database,
      // Embedded, the engine's memory is the server process's: bounded as DuckDB's is.
      memoryBytes: /^chdb:/i.test(connection.url) && config.warehouseMemory ? engineBytes(config.warehouseMemory.limit) : undefined,
      eventTtlDays: config.eventRetentionDays === undefined ? undefined : config.eventRetentionDays + EVENT_TTL_GRACE_DAYS,
    });
  }
  return openDuckDbWarehouse(path.resolve(config.dataDir), {
    memoryLimit: config.warehouseMemory?.limit,
    tempDir: config.warehouseMemory?.tempDir,
  });
}
