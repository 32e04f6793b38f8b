// The few ways the warehouse's two SQL dialects differ, side by side: a query shared by the
// engines is written once with these fragments, and each engine reads the SQL text it ran when
// the query was written twice (so plans stay as measured). Anything a dialect cannot say the
// same way — FINAL, versioned rollups, DuckDB's zone list — stays in the query, in a branch.
// The fragments a metric formula needs (and ifElse) and the CTR base come from core's registry (metrics/sql.ts).
import { SQL_FRAGMENTS, ctrBaseSql } from '@adops/core';

/** The engines behind the Warehouse interface. */
export type Engine = 'duckdb' | 'clickhouse';

/** A bound value's type, spelled as ClickHouse needs it in `{name:Type}`; DuckDB casts only the few it does not take from the value. */
export type ParamType = 'String' | 'Nullable(String)' | 'Date32' | 'UInt32' | 'UInt64' | 'Int64' | 'Float64' | 'Timestamp' | 'Array(String)';

/** Binds a value and answers its placeholder (Binder.bind). */
export type Bind = (value: string | number | null, type: ParamType) => string;

export interface Dialect {
  readonly engine: Engine;
  /** The placeholder of the bound value `name`: DuckDB `$name` (cast when needed), ClickHouse `{name:Type}`. */
  param(name: string, type: ParamType): string;
  /** An epoch-ms instant, bound: a DuckDB TIMESTAMP, a ClickHouse DateTime64(3, 'UTC'). */
  instant(bind: Bind, ms: number): string;
  /** The condition that always holds (a WHERE with nothing to filter). */
  readonly true: string;
  /** How many rows (passing `cond`). */
  count(cond?: string): string;
  /** Σ expr over the rows (passing `cond`), 0 over none. */
  sum(expr: string, cond?: string): string;
  /** Σ of a rollup column over the rows (passing `cond`). */
  rollupSum(column: string, cond?: string): string;
  /** A sum's result column as a 64-bit integer (counts; `uint`: ClickHouse's unsigned, for hits) or a double (money). */
  cast(expr: string, to: 'int' | 'uint' | 'float'): string;
  double(expr: string): string;
  nullIf(expr: string, value: string): string;
  /** `then` where `cond` holds, else NULL. */
  when(cond: string, then: string): string;
  /** `then` where `cond` holds, else `otherwise`. */
  ifElse(cond: string, then: string, otherwise: string): string;
  /** A stored row's CTR base: its monetized impressions when above 0, else its impressions. */
  readonly ctrBase: string;
  /** A DATE as 'YYYY-MM' / 'YYYY-MM-DD' text. */
  month(date: string): string;
  day(date: string): string;
  /** ORDER BY terms of text: '' and NULL last, Spanish collation (ICU 'es', as core's compareText), then exactly. */
  textOrder(expr: string, dir: 'ASC' | 'DESC'): string[];
  /** Whether ORDER BY may name an alias of its SELECT (ClickHouse's prefer_column_name_to_alias reads the stored column). */
  readonly orderByAlias: boolean;
  /** An aggregate: the approximate quantiles (t-digest) of `expr` as a double, at each fraction, as one array. */
  quantiles(expr: string, fractions: readonly number[]): string;
}

/** A UTC instant as DuckDB TIMESTAMP text ('YYYY-MM-DD HH:MM:SS.mmm'). */
export const sqlTimestamp = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');

/** DuckDB's casts of bound values (the others take the value's own type, as a column compared with them). */
const DUCKDB_CAST: Partial<Record<ParamType, string>> = {
  Date32: '::DATE',
  Timestamp: '::TIMESTAMP',
  'Nullable(String)': '::VARCHAR',
  'Array(String)': '::VARCHAR[]',
  Int64: '::BIGINT',
  Float64: '::DOUBLE',
};

export const DUCKDB: Dialect = {
  engine: 'duckdb',
  param: (name, type) => `$${name}${DUCKDB_CAST[type] ?? ''}`,
  instant: (bind, ms) => bind(sqlTimestamp(ms), 'Timestamp'),
  true: 'TRUE',
  count: (cond) => (cond ? `count(*) FILTER (WHERE ${cond})` : 'count(*)'),
  sum: (expr, cond) => `coalesce(sum(${expr})${cond ? ` FILTER (WHERE ${cond})` : ''}, 0)`,
  rollupSum: (column, cond) => `coalesce(sum(${column})${cond ? ` FILTER (WHERE ${cond})` : ''}, 0)`,
  // Sums of BIGINT are HUGEINT in DuckDB: counts go back to BIGINT, money stays DOUBLE.
  cast: (expr, to) => `${expr}::${to === 'float' ? 'DOUBLE' : 'BIGINT'}`,
  ...SQL_FRAGMENTS.duckdb,
  ctrBase: ctrBaseSql('duckdb'),
  month: (date) => `strftime(${date}, '%Y-%m')`,
  day: (date) => `strftime(${date}, '%Y-%m-%d')`,
  textOrder: (expr, d) => [`NULLIF(${expr}, '') COLLATE es ${d} NULLS LAST`, `${expr} ${d}`],
  orderByAlias: true,
  quantiles: (expr, fractions) => `approx_quantile(${expr}::DOUBLE, [${fractions.join(', ')}])`,
};

export const CLICKHOUSE: Dialect = {
  engine: 'clickhouse',
  param: (name, type) => `{${name}:${type === 'Timestamp' ? 'Int64' : type}}`,
  instant: (bind, ms) => `fromUnixTimestamp64Milli(${bind(ms, 'Int64')}, 'UTC')`,
  true: '1',
  count: (cond) => (cond ? `countIf(${cond})` : 'count()'),
  sum: (expr, cond) => (cond ? `ifNull(sumIf(${expr}, ${cond}), 0)` : `ifNull(sum(${expr}), 0)`),
  rollupSum: (column, cond) => (cond ? `sumIf(${column}, ${cond})` : `sum(${column})`),
  // Counts Int64, money Float64 (the same doubles DuckDB sums).
  cast: (expr, to) => `${{ int: 'toInt64', uint: 'toUInt64', float: 'toFloat64' }[to]}(${expr})`,
  ...SQL_FRAGMENTS.clickhouse,
  ctrBase: ctrBaseSql('clickhouse'),
  month: (date) => `substring(toString(${date}), 1, 7)`,
  day: (date) => `toString(${date})`,
  textOrder: (expr, d) => [`nullIf(${expr}, '') ${d} NULLS LAST COLLATE 'es'`, `${expr} ${d} NULLS LAST`],
  orderByAlias: false,
  quantiles: (expr, fractions) => `quantilesTDigest(${fractions.join(', ')})(toFloat64(${expr}))`,
};
