// The few ways the warehouse's two SQL dialects differ, side by side: a query shared by the
// engines is written once with these fragments, and each engine reads the SQL text it ran when
// the query was written twice (so plans stay as measured). Anything a dialect cannot say the
// same way — FINAL, versioned rollups, DuckDB's zone list — stays in the query, in a branch.

/** The engines behind the Warehouse interface. */
export type Engine = 'duckdb' | 'clickhouse';

export interface Dialect {
  readonly engine: Engine;
  /** How many rows (passing `cond`). */
  count(cond?: string): string;
  /** Σ expr over the rows (passing `cond`), 0 over none. */
  sum(expr: string, cond?: string): string;
  /** Σ of a rollup column over the rows (passing `cond`). */
  rollupSum(column: string, cond?: string): string;
  /** A sum's result column as a 64-bit integer (counts) or a double (money). */
  cast(expr: string, to: 'int' | 'float'): string;
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
}

export const DUCKDB: Dialect = {
  engine: 'duckdb',
  count: (cond) => (cond ? `count(*) FILTER (WHERE ${cond})` : 'count(*)'),
  sum: (expr, cond) => `coalesce(sum(${expr})${cond ? ` FILTER (WHERE ${cond})` : ''}, 0)`,
  rollupSum: (column, cond) => `coalesce(sum(${column})${cond ? ` FILTER (WHERE ${cond})` : ''}, 0)`,
  // Sums of BIGINT are HUGEINT in DuckDB: counts go back to BIGINT, money stays DOUBLE.
  cast: (expr, to) => `${expr}::${to === 'int' ? 'BIGINT' : 'DOUBLE'}`,
  double: (expr) => `CAST(${expr} AS DOUBLE)`,
  nullIf: (expr, value) => `NULLIF(${expr}, ${value})`,
  when: (cond, then) => `(CASE WHEN ${cond} THEN ${then} END)`,
  ifElse: (cond, then, otherwise) => `(CASE WHEN ${cond} THEN ${then} ELSE ${otherwise} END)`,
  ctrBase: '(CASE WHEN monetized_impressions > 0 THEN monetized_impressions ELSE impressions END)',
  month: (date) => `strftime(${date}, '%Y-%m')`,
  day: (date) => `strftime(${date}, '%Y-%m-%d')`,
  textOrder: (expr, d) => [`NULLIF(${expr}, '') COLLATE es ${d} NULLS LAST`, `${expr} ${d}`],
  orderByAlias: true,
};

export const CLICKHOUSE: Dialect = {
  engine: 'clickhouse',
  count: (cond) => (cond ? `countIf(${cond})` : 'count()'),
  sum: (expr, cond) => (cond ? `ifNull(sumIf(${expr}, ${cond}), 0)` : `ifNull(sum(${expr}), 0)`),
  rollupSum: (column, cond) => (cond ? `sumIf(${column}, ${cond})` : `sum(${column})`),
  // Counts Int64, money Float64 (the same doubles DuckDB sums).
  cast: (expr, to) => `${to === 'int' ? 'toInt64' : 'toFloat64'}(${expr})`,
  double: (expr) => `toFloat64(${expr})`,
  nullIf: (expr, value) => `nullIf(${expr}, ${value})`,
  when: (cond, then) => `if(${cond}, ${then}, NULL)`,
  ifElse: (cond, then, otherwise) => `if(${cond}, ${then}, ${otherwise})`,
  // monetized_impressions is Nullable: ifNull keeps the sum's type plain Int64.
  ctrBase: 'if(ifNull(monetized_impressions, 0) > 0, ifNull(monetized_impressions, 0), impressions)',
  month: (date) => `substring(toString(${date}), 1, 7)`,
  day: (date) => `toString(${date})`,
  textOrder: (expr, d) => [`nullIf(${expr}, '') ${d} NULLS LAST COLLATE 'es'`, `${expr} ${d} NULLS LAST`],
  orderByAlias: false,
};
