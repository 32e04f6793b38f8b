// The warehouse's composition root: the engine named by the configuration behind the one
// Warehouse interface. Embedded DuckDB is the default and needs no server.
import path from 'node:path';
import type { Config } from '../config.js';
import { openDuckDbWarehouse } from './duckdb/index.js';
import type { Warehouse } from './types.js';

export * from './types.js';
export { eventMatches } from './event-filter.js';
export { EventWriter, type EventWriterOptions } from './event-writer.js';

export async function createWarehouse(config: Pick<Config, 'dataDir'>): Promise<Warehouse> {
  return openDuckDbWarehouse(path.resolve(config.dataDir));
}
