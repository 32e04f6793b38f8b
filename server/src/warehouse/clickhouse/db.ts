// The ClickHouse handle behind the warehouse: one @clickhouse/client (a server over HTTP, or the
// embedded chdb engine plugged in as its connection), every table name qualified with the
// warehouse's database, every value a bound {name:Type} parameter (sql/binder.ts). Results come as JSONEachRow
// with 64-bit integers as numbers and DateTime64 as ISO text; long results stream in chunks; an
// export's windows come as columns in ClickHouse's Native format (native.ts).
import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';
import type { Params } from '../sql/binder.js';
import type { ColumnChunk, SqlDb } from '../sql/db.js';
import { CLICKHOUSE } from '../sql/dialect.js';
import { nativeChunks } from './native.js';

export type Row = Record<string, unknown>;

/** Settings of every statement: numbers as numbers, instants as ISO-8601, column names before aliases. */
const SETTINGS: ClickHouseSettings = {
  output_format_json_quote_64bit_integers: 0,
  date_time_output_format: 'iso',
  // `sum(revenue) AS revenue` must not make a later `revenue` in the same SELECT mean the sum.
  prefer_column_name_to_alias: 1,
};

/** Statements without rows and inserts answer only once done on the server (errors included), not at the first byte. */
const DONE: ClickHouseSettings = { wait_end_of_query: 1 };

/** Rows per chunk a stream yields at most. */
const CHUNK_ROWS = 2048;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * A query's memory bounded at `bytes` (ADOPS_WAREHOUSE_MEMORY_LIMIT, as DuckDB's memory_limit):
 * past it the query fails instead of growing the process; sorts and groups spill to disk from
 * half of it (ClickHouse's advice for external sorting and grouping), so an export sorted by
 * revenue or a year's Top Zones still answer within the bound. An INSERT … SELECT writes parts of
 * at most a 32nd of it (or 25,000 rows): by default it gathers a million rows into one block and
 * sorts it in memory, and a 1 M-row import's insert of its staged rows failed at 128 MB (it still
 * did with blocks of an eighth).
 */
export function memorySettings(bytes: number): ClickHouseSettings {
  const half = String(Math.floor(bytes / 2));
  return {
    max_memory_usage: String(bytes),
    max_bytes_before_external_sort: half,
    max_bytes_before_external_group_by: half,
    min_insert_block_size_rows: '25000',
    min_insert_block_size_bytes: String(Math.floor(bytes / 32)),
  };
}

export class ClickHouseDb implements SqlDb {
  readonly dialect = CLICKHOUSE;
  /** SETTINGS with querySettings. */
  private readonly settings: ClickHouseSettings;
  /** The settings each query carries: none once pinned on an embedded engine's session (pinSettings). */
  private perQuery: ClickHouseSettings;
  /** Queries and writes under way: close() waits for them. */
  private inflight = new Set<Promise<unknown>>();
  private writeQueue: Promise<unknown> = Promise.resolve();
  private closing = false;

  constructor(
    readonly client: ClickHouseClient,
    /** The database holding the warehouse's tables (a checked identifier). */
    readonly database: string,
    /** Aggregates without a zone read the rollup (off only to prove both answer the same). */
    readonly rollup: boolean,
    /** Whether close() closes the client too (the warehouse opened it). */
    private readonly ownsClient: boolean,
    /** Extra settings of inserts (async_insert with wait_for_async_insert, when asked for). */
    readonly insertSettings: ClickHouseSettings = {},
    /** Extra settings of every query and statement (the embedded engine's memory bounds, memorySettings). */
    readonly querySettings: ClickHouseSettings = {},
  ) {
    this.settings = { ...SETTINGS, ...querySettings };
    this.perQuery = this.settings;
    if (!IDENTIFIER.test(database)) throw new Error(`ClickHouse database must be a plain identifier (got "${database}")`);
  }

  /** A table of the warehouse, qualified: `db`.`name` (names are fixed in code, never user text). */
  t(name: string): string {
    return `\`${this.database}\`.\`${name}\``;
  }

  /** A table whose rows are replaced by key (ReplacingMergeTree), as its current rows: deduplicated at read time. */
  current(name: string): string {
    return `${this.t(name)} FINAL`;
  }

  /**
   * Sets every query's settings once, on the client's one session (the embedded engine: chdb
   * keeps a session's SET, and its connection sends a query's settings as SET statements before
   * it, ~0.1 ms each, every query). Over HTTP each query is its own session: not called there.
   */
  async pinSettings(): Promise<void> {
    for (const [name, value] of Object.entries(this.settings)) {
      if (!IDENTIFIER.test(name)) throw new Error(`ClickHouse setting name: ${name}`);
      await this.client.command({ query: `SET ${name} = ${typeof value === 'string' ? `'${value.replace(/'/g, "''")}'` : Number(value)}` });
    }
    this.perQuery = {};
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.inflight.add(work);
    const done = () => this.inflight.delete(work);
    work.then(done, done);
    return work;
  }

  private open(): void {
    if (this.closing) throw new Error('El almacén de datos se está cerrando');
  }

  async all<T = Row>(query: string, params: Params = {}): Promise<T[]> {
    this.open();
    return this.track(
      (async () => {
        const rs = await this.client.query({ query, query_params: params, format: 'JSONEachRow', clickhouse_settings: this.perQuery });
        return rs.json<T>();
      })(),
    );
  }

  async one<T = Row>(query: string, params: Params = {}): Promise<T | undefined> {
    return (await this.all<T>(query, params))[0];
  }

  /**
   * Streams a query's rows in chunks as the server sends them (JSONEachRow over HTTP; the chdb
   * connection hands over its result at once, then it is cut the same way). Leaving early closes
   * the result set, which on a server aborts the request.
   */
  async *stream<T = Row>(query: string, params: Params = {}): AsyncGenerator<T[]> {
    this.open();
    const rs = await this.track(this.client.query({ query, query_params: params, format: 'JSONEachRow', clickhouse_settings: this.perQuery }));
    try {
      let chunk: T[] = [];
      for await (const rows of rs.stream<T>()) {
        for (const row of rows) {
          chunk.push(row.json());
          if (chunk.length >= CHUNK_ROWS) {
            yield chunk;
            chunk = [];
          }
        }
      }
      if (chunk.length > 0) yield chunk;
    } finally {
      rs.close();
    }
  }

  /** Several queries' rows one after the other, in chunks. */
  async *streamEach<T = Row>(queries: Iterable<{ sql: string; params: Params }>): AsyncGenerator<T[]> {
    for (const { sql, params } of queries) yield* this.stream<T>(sql, params);
  }

  /**
   * Several queries' results as columns (ClickHouse's Native format, read by native.ts: no JSON
   * written by the engine nor parsed here, no object per row), each cut into chunks of CHUNK_ROWS:
   * the zone CSV is written column by column from them, as on DuckDB. A query's result is read
   * whole before it is cut (the chdb connection hands it over at once), so each query is an
   * export's window, bounded in rows.
   */
  async *streamColumns(queries: Iterable<{ sql: string; params: Params }>): AsyncGenerator<ColumnChunk> {
    for (const { sql, params } of queries) {
      this.open();
      const result = await this.track(
        (async () => {
          const rs = await this.client.exec({ query: `${sql}\nFORMAT Native`, query_params: params, clickhouse_settings: this.perQuery });
          const parts: Buffer[] = [];
          for await (const part of rs.stream) parts.push(part as Buffer);
          return Buffer.concat(parts);
        })(),
      );
      yield* nativeChunks(result, CHUNK_ROWS);
    }
  }

  /** A statement without rows (DDL, INSERT … SELECT, DELETE). */
  async command(query: string, params: Params = {}): Promise<void> {
    this.open();
    await this.track(this.client.command({ query, query_params: params, clickhouse_settings: { ...this.perQuery, ...DONE } }));
  }

  /** Inserts rows (JSONEachRow); resolves once ClickHouse has confirmed them. */
  async insert(table: string, values: readonly object[]): Promise<void> {
    this.open();
    if (values.length === 0) return;
    await this.track(
      this.client.insert({
        table: this.t(table),
        values: values as object[],
        format: 'JSONEachRow',
        clickhouse_settings: { ...DONE, ...this.insertSettings },
      }),
    );
  }

  /**
   * Inserts rows given as arrays of `columns`' values (JSONCompactEachRow); resolves once ClickHouse
   * has confirmed them. For bulk rows: the engine parses a row without its column names about a
   * third faster than JSONEachRow's objects (a 20,000-row chunk of zone rows, chdb, 2-CPU box:
   * 102 against 143 ms).
   */
  async insertColumns(table: string, columns: readonly [string, ...string[]], rows: readonly unknown[][]): Promise<void> {
    this.open();
    if (rows.length === 0) return;
    await this.track(
      this.client.insert({
        table: this.t(table),
        columns: [...columns],
        values: rows as unknown[][],
        format: 'JSONCompactEachRow',
        clickhouse_settings: { ...DONE, ...this.insertSettings },
      }),
    );
  }

  /** Runs write work one job at a time in this process (imports, retention), as DuckDB's single writer. */
  serialWrite<T>(work: () => Promise<T>): Promise<T> {
    this.open();
    const run = this.writeQueue.then(work);
    this.writeQueue = run.catch(() => undefined);
    return this.track(run);
  }

  /** Refuses new work, waits for work under way, then closes the client if the warehouse opened it. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
    if (this.ownsClient) await this.client.close();
  }
}
