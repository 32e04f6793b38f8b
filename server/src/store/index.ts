// The entity store's composition root: the engine the configuration names (ADOPS_STORE) behind
// the one EntityStore interface. lowdb in the data directory is the default and needs no server.
import type { Config } from '../config.js';
import { openLowdbStore } from './lowdb/index.js';
import { openPostgresStore } from './postgres/index.js';
import type { EntityStore } from './types.js';

export * from './types.js';

export async function openEntityStore(config: Pick<Config, 'dataDir' | 'store' | 'databaseUrl'>, log?: (line: string) => void): Promise<EntityStore> {
  if (config.store === 'postgres') {
    if (!config.databaseUrl) throw new Error('ADOPS_DATABASE_URL must be set when ADOPS_STORE=postgres');
    return openPostgresStore(config.databaseUrl, { log });
  }
  return openLowdbStore(config.dataDir);
}
