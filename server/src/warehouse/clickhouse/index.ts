// The scale-out engine: ClickHouse through the official @clickhouse/client — a server over
// HTTP(S), or (for single-machine trials and tests) the embedded chdb engine plugged into the
// same client as its connection, so the same adapter code runs on both. Opening applies the
// versioned migrations and repairs what an interrupted import left behind.
import path from 'node:path';
import type { ClickHouseClient } from '@clickhouse/client';
import { ClickHouseDb, memorySettings } from './db.js';
import { migrate } from './migrations.js';
import { beginZoneReportImport, dropStaleStages } from './zone-report/import.js';
import { buildMissingZonePeriods, repairRollup } from './zone-report/schema.js';
import { clickHouseReferrerWrites } from './referrers/index.js';
import { upsertSpend } from './spend/upsert.js';
import { getProfitParts, getZoneValues } from './profit/get-profit-parts.js';
import { ensureEventTtl } from './referrers/roll-up-old-events.js';
import type { Warehouse } from '../types.js';
import { assembleWarehouse } from '../assemble.js';

export interface ClickHouseConnectionOptions {
  /**
   * http(s)://host:8123 for a server, or chdb:<path> for the embedded engine in this process
   * (chdb:///var/lib/adops/clickhouse, chdb://./data/clickhouse; one data path per process).
   */
  url: string;
  username?: string;
  password?: string;
}

export interface ClickHouseOptions {
  /** The database of the warehouse's tables (created when missing; default 'adops'). */
  database?: string;
  /** Aggregates read the rollup (default); off only to prove both answer the same. */
  rollup?: boolean;
  /** Referrer event batches as async inserts (async_insert=1, wait_for_async_insert=1): fewer parts under many small batches, each still acknowledged only once flushed. */
  asyncInsert?: boolean;
  /** The TTL backstop of raw referrer events, in days (none when absent; see referrers/roll-up-old-events.ts). */
  eventTtlDays?: number;
  /** Bytes a query may use (memorySettings), beyond which sorts and groups spill; none when absent (the server's own profile). */
  memoryBytes?: number;
  /** The client is one embedded session (chdb), which keeps the settings SET once (ClickHouseDb.pinSettings); default: whether the URL is chdb:. */
  embedded?: boolean;
}

const isChdb = (url: string) => /^chdb:/i.test(url);

/** The chdb data path of a chdb: URL (relative paths from the working directory). */
export function chdbPath(url: string): string {
  const rest = decodeURIComponent(url.replace(/^chdb:(\/\/)?/i, ''));
  if (rest === '' || rest === ':memory:') return ':memory:';
  return path.resolve(rest);
}

/** How long one statement may run over HTTP (whole-table exports and imports of millions of rows). */
const REQUEST_TIMEOUT_MS = 300_000;

/** A client for the URL: the HTTP client, or the official client on a chdb connection. */
export async function clickHouseClient(options: ClickHouseConnectionOptions): Promise<ClickHouseClient> {
  // Loaded here, not at the top: a server on DuckDB never pays for the ClickHouse client.
  const { createClient } = await import('@clickhouse/client');
  if (!isChdb(options.url)) {
    return createClient({
      url: options.url,
      username: options.username,
      password: options.password,
      request_timeout: REQUEST_TIMEOUT_MS,
      // A long export or import answers nothing for a while: progress headers every 110 s keep
      // a load balancer with a 2-minute idle timeout (a common default) from cutting it.
      clickhouse_settings: { send_progress_in_http_headers: 1, http_headers_progress_interval_ms: '110000' },
    });
  }
  let chdb: typeof import('chdb/connection');
  try {
    chdb = await import('chdb/connection');
  } catch {
    throw new Error('ADOPS_CLICKHOUSE_URL=chdb:… needs the chdb package (npm install chdb)');
  }
  // chdb types its connection against @clickhouse/client-common's copy of the same interface.
  return createClient({ connection: chdb.createChdbConnection({ path: chdbPath(options.url) }) as never });
}

/**
 * Opens the warehouse on a ClickHouse client (its owner closes it) or on connection options
 * (the warehouse opens and closes its own client).
 */
export async function openClickHouseWarehouse(
  source: ClickHouseClient | ClickHouseConnectionOptions,
  options: ClickHouseOptions = {},
): Promise<Warehouse & { db: ClickHouseDb }> {
  const owns = typeof (source as Partial<ClickHouseClient>).query !== 'function';
  const database = options.database ?? 'adops';
  // Tables are always named with their database, so the client needs none (and the database may not exist yet).
  const client = owns ? await clickHouseClient(source as ClickHouseConnectionOptions) : (source as ClickHouseClient);
  const insertSettings = options.asyncInsert ? { async_insert: 1 as const, wait_for_async_insert: 1 as const } : {};
  let db: ClickHouseDb;
  try {
    const querySettings = options.memoryBytes === undefined ? {} : memorySettings(options.memoryBytes);
    db = new ClickHouseDb(client, database, options.rollup ?? true, owns, insertSettings, querySettings);
    if (options.embedded ?? (owns && isChdb((source as ClickHouseConnectionOptions).url))) await db.pinSettings();
  } catch (e) {
    if (owns) await client.close();
    throw e;
  }
  try {
    await migrate(db);
    await ensureEventTtl(db, options.eventTtlDays);
    await dropStaleStages(db);
    await repairRollup(db);
    await buildMissingZonePeriods(db);
  } catch (e) {
    await db.close();
    throw e;
  }
  return assembleWarehouse(db, {
    beginImport: () => beginZoneReportImport(db),
    referrerWrites: clickHouseReferrerWrites(db),
    upsertSpend: (rows) => upsertSpend(db, rows),
    profit: { parts: (q) => getProfitParts(db, q), zoneValues: (q) => getZoneValues(db, q) },
  });
}
