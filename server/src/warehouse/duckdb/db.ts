// The DuckDB handle behind the warehouse (data/warehouse.duckdb): parameterised queries only,
// values bound by name ($name: a statement takes the values it names, so one set of values may
// serve several statements), results converted to plain JS (BIGINT/HUGEINT → number, DATE →
// 'YYYY-MM-DD', TIMESTAMP → ISO, LIST → array); long results (exports) stream in chunks on a
// connection of their own.
import path from 'node:path';
import {
  DuckDBInstance,
  type DuckDBConnection,
  type DuckDBDataChunk,
  DuckDBDateValue,
  type DuckDBMaterializedResult,
  type DuckDBPreparedStatement,
  type DuckDBResult,
  type DuckDBResultReader,
  DuckDBTimestampValue,
  DuckDBTimestampTZValue,
  DuckDBDecimalValue,
  DuckDBListValue,
  type DuckDBType,
  DuckDBTypeId,
  type DuckDBValue,
} from '@duckdb/node-api';
import type { Param as SqlParam } from '../sql/binder.js';
import type { ColumnChunk, SqlDb } from '../sql/db.js';
import { DUCKDB } from '../sql/dialect.js';
import { type Plain, columnReader, dayTexts, readColumn } from './columns.js';
import { isOutOfMemory } from '../memory-refusal.js';

/** A bound value (a list: `listValue([...])`, read with `unnest($name)`). */
export type Param = SqlParam | DuckDBListValue;
/** Bound values by name. */
export type Params = Readonly<Record<string, Param>>;
export type Row = Record<string, Plain>;

const hasValues = (params: Params) => {
  for (const _ in params) return true;
  return false;
};

/** `sql` prepared on `conn` with the values it names bound (those it does not name are left out; one it names but lacks is an error). */
async function prepare(conn: DuckDBConnection, sql: string, params: Params): Promise<DuckDBPreparedStatement> {
  const statement = await conn.prepare(sql);
  try {
    for (let i = 1; i <= statement.parameterCount; i++) {
      const name = statement.parameterName(i);
      if (!Object.hasOwn(params, name)) throw new Error(`no value bound for $${name}`);
      statement.bindValue(i, params[name] as DuckDBValue);
    }
    return statement;
  } catch (e) {
    statement.destroySync();
    throw e;
  }
}

/**
 * `sql` run on `conn` with the values it names bound (`bound`); SQL without values runs as is
 * (`asIs`: several statements may then come in one text).
 */
async function withValues<T>(
  conn: DuckDBConnection,
  sql: string,
  params: Params,
  ways: { bound: (statement: DuckDBPreparedStatement) => Promise<T>; asIs: () => Promise<T> },
): Promise<T> {
  if (!hasValues(params)) return ways.asIs();
  const statement = await prepare(conn, sql, params);
  try {
    return await ways.bound(statement);
  } finally {
    statement.destroySync();
  }
}

/** Runs a statement on `conn` with the values it names. */
export function run(conn: DuckDBConnection, sql: string, params: Params = {}): Promise<DuckDBMaterializedResult> {
  return withValues(conn, sql, params, { bound: (s) => s.run(), asIs: () => conn.run(sql) });
}

/** A statement's whole result on `conn`, with the values it names. */
export function readAll(conn: DuckDBConnection, sql: string, params: Params = {}): Promise<DuckDBResultReader> {
  return withValues(conn, sql, params, { bound: (s) => s.runAndReadAll(), asIs: () => conn.runAndReadAll(sql) });
}

/** A statement's result as a stream on `conn`, with the values it names. */
function streamOf(conn: DuckDBConnection, sql: string, params: Params): Promise<DuckDBResult> {
  return withValues(conn, sql, params, { bound: (s) => s.stream(), asIs: () => conn.stream(sql) });
}

function plain(v: DuckDBValue): Plain {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (v instanceof DuckDBDateValue) return v.toString();
  if (v instanceof DuckDBTimestampValue || v instanceof DuckDBTimestampTZValue) {
    // micros since epoch, UTC
    return new Date(Number(v.micros / 1000n)).toISOString();
  }
  if (v instanceof DuckDBDecimalValue) return v.toDouble();
  if (v instanceof DuckDBListValue) return v.items.map(plain);
  return String(v);
}

/**
 * DuckDB's memory when none is configured (ADOPS_WAREHOUSE_MEMORY_LIMIT's default): on 10 million
 * rows the reports read as fast at 128MB as at 256MB (docs/benchmarks.md), and the server's peak
 * stays under 512 MB where 256MB passed it.
 */
export const DEFAULT_MEMORY_LIMIT = '128MB';

export interface DuckDbOpenOptions {
  threads?: number;
  /** DuckDB's buffer memory ('256MB', '2GB'); beyond it, work spills to tempDir. */
  memoryLimit?: string;
  /** Where work larger than memoryLimit spills (created when needed). */
  tempDir?: string;
  /** Aggregates read the rollup (default); off only to prove both answer the same. */
  rollup?: boolean;
}

/** A column's values made plain, whole (the streamed hot path: a type's conversion, chosen once). */
function plainColumn(type: DuckDBType): (values: DuckDBValue[]) => Plain[] {
  switch (type.typeId) {
    // Already plain (null stays null).
    case DuckDBTypeId.VARCHAR:
    case DuckDBTypeId.DOUBLE:
    case DuckDBTypeId.BOOLEAN:
    case DuckDBTypeId.INTEGER:
      return (values) => values as Plain[];
    case DuckDBTypeId.BIGINT:
      return (values) => values.map((v) => (v === null ? null : Number(v as bigint)));
    case DuckDBTypeId.DATE: {
      // An export's rows share a few days: each day's text is written once per stream, not once a row.
      const text = dayTexts();
      return (values) => values.map((v) => (v === null ? null : text((v as DuckDBDateValue).days)));
    }
    default:
      return (values) => values.map(plain);
  }
}

/**
 * A function building a row of `names` from plain columns at an index: one object literal, so
 * every row of a stream shares one shape (adding keys one by one in a loop is several times slower
 * per row on a million-row export). Names are quoted as JSON strings, never run as code.
 */
function rowMaker(names: readonly string[]): (columns: Plain[][], i: number) => Row {
  const body = names.map((name, c) => `${JSON.stringify(name)}: columns[${c}][i]`).join(', ');
  return new Function('columns', 'i', `return { ${body} };`) as (columns: Plain[][], i: number) => Row;
}

/** A streamed query with its first chunk read. */
interface OpenQuery {
  result: DuckDBResult;
  names: string[];
  first: DuckDBDataChunk | null;
}

export class Db implements SqlDb {
  readonly dialect = DUCKDB;
  private writeQueue: Promise<unknown> = Promise.resolve();
  /** Queries and write jobs under way: close() waits for them (closing under a running query crashes DuckDB). */
  private inflight = new Set<Promise<unknown>>();
  private extraConnections = new Set<DuckDBConnection>();
  private closing = false;

  private constructor(
    /** Aggregates without a zone read zone_report_rollup (off only to prove it answers the same). */
    readonly rollup: boolean,
    readonly instance: DuckDBInstance,
    /** Readers share one connection; DuckDB runs their queries in parallel internally. */
    readonly read: DuckDBConnection,
    /** The single writer connection (appenders, upserts, deletes). */
    readonly write: DuckDBConnection,
  ) {}

  /**
   * Opens `dir/warehouse.duckdb` (or an in-memory database for ':memory:'). `memoryLimit` caps
   * DuckDB's buffers (the bulk of the server's memory on millions of rows); work larger than that
   * (an export's full sort, a rollup rebuild) spills to `tempDir` (default `warehouse.duckdb.tmp`
   * beside the file; an in-memory database spills only when given one) instead of growing the process.
   */
  static async open(dir: string | ':memory:', options: DuckDbOpenOptions = {}): Promise<Db> {
    const file = dir === ':memory:' ? ':memory:' : path.join(dir, 'warehouse.duckdb');
    const instance = await DuckDBInstance.create(file, {
      threads: String(options.threads ?? 2),
      memory_limit: options.memoryLimit ?? DEFAULT_MEMORY_LIMIT,
      ...(options.tempDir ? { temp_directory: options.tempDir } : {}),
      // The WAL is merged into the file past this size (default 16 MB, ~90,000 referrer events):
      // each merge recompresses the table's last, partly filled row group (122,880 rows), so
      // rarer merges halve DuckDB's CPU per ingested event (measured 6.5 → 4.6 µs, final merge
      // included). Every commit still syncs the WAL; a restart replays at most this much.
      checkpoint_threshold: '64MB',
      // A page's top-N (LIMIT ≤ 50) would otherwise sort only the key columns, then scan the table
      // again for the page's rowids — a second scan without the date's zone maps, over every row
      // group. Off, the one scan reads only the range's row groups: the zone page by day at 10 M
      // rows 14.6 → 7.6 ms, a zone search's page 18.8 → 8.6, no read slower (docs/benchmarks.md).
      late_materialization_max_rows: '0',
    });
    return new Db(options.rollup ?? true, instance, await instance.connect(), await instance.connect());
  }

  /** A table's name in SQL (one database per file: the plain name). */
  t(name: string): string {
    return name;
  }

  /** A table's current rows: DuckDB replaces rows in place (imports and upserts delete the old ones). */
  current(name: string): string {
    return name;
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.inflight.add(work);
    work.then(
      () => this.inflight.delete(work),
      () => this.inflight.delete(work),
    );
    return work;
  }

  private open(): void {
    if (this.closing) throw new Error('El almacén de datos se está cerrando');
  }

  async all<T = Row>(sql: string, params: Params = {}): Promise<T[]> {
    this.open();
    const reader = await this.track(readAll(this.read, sql, params));
    const rows = reader.getRowObjects();
    return rows.map((r) => {
      const out: Row = {};
      for (const k of Object.keys(r)) out[k] = plain(r[k]);
      return out as T;
    });
  }

  /**
   * Streams a query's rows in chunks (about 2,048 rows each) on a connection of its own, so an
   * export never holds the readers; the connection is released when the consumer stops early too.
   */
  stream<T = Row>(sql: string, params: Params = {}): AsyncGenerator<T[]> {
    return this.streamEach<T>([{ sql, params }]);
  }

  /** Streams several queries' rows one after the other on one connection of their own. */
  async *streamEach<T = Row>(queries: Iterable<{ sql: string; params: Params }>): AsyncGenerator<T[]> {
    let makeRow = rowMaker([]);
    let names: readonly string[] = [];
    for await (const chunk of this.streamColumns(queries)) {
      if (chunk.names !== names) {
        names = chunk.names;
        makeRow = rowMaker(names);
      }
      const columns = names.map((name) => chunk.columns[name] as Plain[]);
      const rows: T[] = new Array(chunk.rows);
      for (let i = 0; i < rows.length; i++) rows[i] = makeRow(columns, i) as T;
      yield rows;
    }
  }

  /**
   * Streams several queries' results as columns, one DuckDB data chunk (about 2,048 rows) at a
   * time: each column's vector made plain as one array, no object per row (an export writes its
   * CSV column by column from these). `names` is the same array for every chunk of one query.
   * While one query's chunks are read, the next runs to its first chunk on a second connection
   * (an export's next window is sorted while this one is written, not after) — when this is the
   * only stream of several queries. A window's sorted rows stay pinned until the next query on its
   * connection: two exports prefetching held four windows and passed the 128 MB limit, so with
   * another such stream under way the next window runs after this one, on the same connection,
   * which frees this one's rows first.
   *
   * A window the engine could not hold within its memory limit (beside the other connection's or
   * another export's) is run once more, alone, from the rows already sent: several queries are an
   * export's windows, each in a total order (the natural key last), so its rows come again the same.
   */
  async *streamColumns(queries: Iterable<{ sql: string; params: Params }>): AsyncGenerator<ColumnChunk> {
    const list = [...queries];
    const windowed = list.length > 1;
    if (windowed) this.windowedStreams++;
    const conns: DuckDBConnection[] = [];
    let next: Promise<OpenQuery | undefined> | undefined;
    /** The connection of the window being read (the one ahead runs on the other). */
    let at = 0;
    try {
      conns.push(await this.connect(), ...(windowed ? [await this.connect()] : []));
      next = this.openQuery(conns[at], list[0]);
      for (let k = 0; k < list.length; k++) {
        let opening = next;
        next = undefined;
        /** Rows of this window yielded so far: a window run again skips them (its order is total). */
        let sent = 0;
        for (let attempt = 0; ; attempt++) {
          try {
            const current = await opening;
            if (attempt === 0 && k + 1 < list.length && this.windowedStreams === 1) {
              next = this.openQuery(conns[1 - at], list[k + 1]);
              // Its failure is met when it is awaited; until then it must not count as unhandled (which ends the process).
              next.catch(() => undefined);
            }
            if (current === undefined) break;
            const { result, names } = current;
            const types = result.columnTypes();
            const convert = types.map(plainColumn);
            const readers = types.map(columnReader);
            let skip = sent;
            for (let chunk: DuckDBDataChunk | null = current.first; chunk && chunk.rowCount > 0; ) {
              if (skip >= chunk.rowCount) skip -= chunk.rowCount;
              else {
                const columns: Record<string, Plain[]> = {};
                for (let c = 0; c < names.length; c++) {
                  const column = readColumn(chunk, c, readers[c], convert[c]);
                  columns[names[c]] = skip > 0 ? column.slice(skip) : column;
                }
                const rows = chunk.rowCount - skip;
                skip = 0;
                sent += rows;
                yield { rows, names, columns };
              }
              this.open();
              chunk = await this.track(result.fetchChunk());
            }
            break;
          } catch (e) {
            if (attempt > 0 || !windowed || !isOutOfMemory(e)) throw e;
            // The engine ran out of memory on this window beside another held on the second
            // connection (the next, sorted ahead, or the last, not yet freed) or another export's:
            // run it again alone — a statement on the second connection frees the rows it held —
            // and go on from the rows already sent.
            await next?.catch(() => undefined);
            next = undefined;
            await this.track(conns[1 - at].run('SELECT 1'));
            opening = this.openQuery(conns[at], list[k]);
          }
        }
        if (next) at = 1 - at;
        else if (k + 1 < list.length) next = this.openQuery(conns[at], list[k + 1]);
      }
    } finally {
      if (windowed) this.windowedStreams--;
      // A query still running on a connection must end before the connection closes.
      await next?.catch(() => undefined);
      for (const conn of conns) this.release(conn);
    }
  }

  /**
   * Streamed queries run to their first chunk one at a time. An export's window is sorted whole
   * before its first chunk, its working memory pinned meanwhile: two exports' windows sorted at
   * once add up against the limit. Queued here, a second export waits a window's sort (a fraction
   * of a second), never a client's reading. (See also streamColumns: who reads ahead.)
   */
  private opening: Promise<unknown> = Promise.resolve();
  /** streamColumns generators of several queries (exports in windows) under way. */
  private windowedStreams = 0;

  /** A query run on `conn` to its first chunk (its sort done), after those before it (see `opening`); undefined when there is none. */
  private openQuery(conn: DuckDBConnection, query: { sql: string; params: Params } | undefined): Promise<OpenQuery | undefined> {
    if (query === undefined) return Promise.resolve(undefined);
    const run = this.opening.then(() => this.openNow(conn, query));
    this.opening = run.catch(() => undefined);
    return run;
  }

  private async openNow(conn: DuckDBConnection, query: { sql: string; params: Params }): Promise<OpenQuery> {
    this.open();
    const result = await this.track(streamOf(conn, query.sql, query.params));
    const first = await this.track(result.fetchChunk());
    return { result, names: result.columnNames(), first };
  }

  async one<T = Row>(sql: string, params: Params = {}): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }

  /** Runs write work one job at a time on the writer connection. */
  serialWrite<T>(work: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    this.open();
    const run = this.writeQueue.then(() => work(this.write));
    this.writeQueue = run.catch(() => undefined);
    return this.track(run);
  }

  /**
   * Runs `work` in one read transaction on a connection of its own, whose snapshot is taken
   * between two writer jobs (no write half-committed) — `atMoment` runs then, with writes held —
   * so everything `work` reads is the database as of that moment while writes go on (backups).
   */
  async readSnapshot<P, T>(atMoment: () => Promise<P>, work: (conn: DuckDBConnection, atMomentResult: P) => Promise<T>): Promise<T> {
    const conn = await this.connect();
    try {
      const held = await this.serialWrite(async () => {
        await conn.run('BEGIN TRANSACTION');
        // A transaction's snapshot starts at its first read of the database, not at BEGIN.
        await conn.run('SELECT count(*) FROM duckdb_tables()');
        return atMoment();
      });
      try {
        const result = await this.track(work(conn, held));
        await this.track(conn.run('COMMIT'));
        return result;
      } catch (e) {
        await conn.run('ROLLBACK').catch(() => undefined);
        throw e;
      }
    } finally {
      this.release(conn);
    }
  }

  /** A connection of its own (long imports); closed with the database if still open. */
  async connect(): Promise<DuckDBConnection> {
    this.open();
    const conn = await this.track(this.instance.connect());
    this.extraConnections.add(conn);
    return conn;
  }

  /** Gives back a connection from connect(). */
  release(conn: DuckDBConnection): void {
    if (this.extraConnections.delete(conn)) conn.closeSync();
  }

  async exec(sql: string, params: Params = {}): Promise<void> {
    await this.serialWrite((c) => run(c, sql, params));
  }

  /** Refuses new work, waits for queries and writes under way, then closes. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
    for (const conn of this.extraConnections) conn.closeSync();
    this.extraConnections.clear();
    this.read.closeSync();
    this.write.closeSync();
    this.instance.closeSync();
  }
}
