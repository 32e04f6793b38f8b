// What a query shared by the engines needs of a warehouse handle: its dialect, whether it keeps
// the rollup, its tables' names, and statements run with named values (a value the statement
// does not name is left out, so one set of values may serve several statements).
import type { Params } from './binder.js';
import type { Dialect } from './dialect.js';

export interface SqlDb {
  readonly dialect: Dialect;
  /** Aggregates without a zone read the rollup (off only to prove both answer the same). */
  readonly rollup: boolean;
  /** A table's name in SQL (ClickHouse: qualified with the warehouse's database). */
  t(name: string): string;
  /** A table whose rows are replaced by key, as its current rows (ClickHouse: FINAL, deduplicated at read time). */
  current(name: string): string;
  all<T = Record<string, unknown>>(sql: string, params?: Params): Promise<T[]>;
  one<T = Record<string, unknown>>(sql: string, params?: Params): Promise<T | undefined>;
  /** A query's rows in chunks as they come (exports). */
  stream<T = Record<string, unknown>>(sql: string, params?: Params): AsyncGenerator<T[]>;
  /** Several queries' rows one after the other, in chunks. */
  streamEach<T = Record<string, unknown>>(queries: Iterable<{ sql: string; params: Params }>): AsyncGenerator<T[]>;
  /** Several queries' results as columns, a chunk at a time, no object per row (DuckDB, ClickHouse; exports write CSV from them). */
  streamColumns?(queries: Iterable<{ sql: string; params: Params }>): AsyncGenerator<ColumnChunk>;
}

/** One chunk of a result as columns: `rows` values in each, by column name (`names`, in the query's order). */
export interface ColumnChunk {
  rows: number;
  names: readonly string[];
  columns: Record<string, unknown[]>;
}
