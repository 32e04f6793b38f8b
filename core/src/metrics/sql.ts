// The registries' formulas in SQL, for the warehouse's two dialects: the server's queries read
// every figure's SQL from here, so a rule (the CTR base, the TQ weight, a ratio) is written once
// in core and the JS figures and the SQL ones cannot drift apart.
import { IVT_RATE } from './ivt.js';
import { PROFIT_METRICS, type ProfitSumKey } from './profit.js';
import { PROFIT_TQ_WEIGHT, SUM_KEYS, SUM_KINDS } from './entries.js';
import { CTR_BASE, type Formula, type SumKey, TQ_WEIGHT } from './registry.js';

/** The warehouse engines whose SQL dialects the formulas are spelled in. */
export type SqlEngine = 'duckdb' | 'clickhouse';

/** The few SQL fragments a formula needs, per dialect. */
export interface SqlFragments {
  double(expr: string): string;
  nullIf(expr: string, value: string): string;
  /** `then` where `cond` holds, else NULL. */
  when(cond: string, then: string): string;
  /** `then` where `cond` holds, else `otherwise`. */
  ifElse(cond: string, then: string, otherwise: string): string;
}

export const SQL_FRAGMENTS: Record<SqlEngine, SqlFragments> = {
  duckdb: {
    double: (expr) => `CAST(${expr} AS DOUBLE)`,
    nullIf: (expr, value) => `NULLIF(${expr}, ${value})`,
    when: (cond, then) => `(CASE WHEN ${cond} THEN ${then} END)`,
    ifElse: (cond, then, otherwise) => `(CASE WHEN ${cond} THEN ${then} ELSE ${otherwise} END)`,
  },
  clickhouse: {
    double: (expr) => `toFloat64(${expr})`,
    nullIf: (expr, value) => `nullIf(${expr}, ${value})`,
    when: (cond, then) => `if(${cond}, ${then}, NULL)`,
    ifElse: (cond, then, otherwise) => `if(${cond}, ${then}, ${otherwise})`,
  },
};

/** A stored zone-report row's CTR base in SQL (CTR_BASE: its monetized impressions when above 0, else its impressions). */
export function ctrBaseSql(engine: SqlEngine): string {
  const { preferred: p, fallback: f } = CTR_BASE;
  // ClickHouse's column is Nullable: ifNull keeps the sum's type plain Int64.
  return engine === 'duckdb' ? `(CASE WHEN ${p} > 0 THEN ${p} ELSE ${f} END)` : `if(ifNull(${p}, 0) > 0, ifNull(${p}, 0), ${f})`;
}

/** The condition under which a stored row weighs in the TQ average (TQ_WEIGHT), in SQL of either dialect. */
export const TQ_WEIGHT_SQL = `${TQ_WEIGHT.value} > 0 AND ${TQ_WEIGHT.weight} > 0`;

/** What a stored row adds to a group's TQ sums where it weighs (TQ_WEIGHT_SQL): tq × impressions, and impressions. */
export const TQ_WEIGHT_SUMS_SQL = { tq_weighted: `${TQ_WEIGHT.value} * ${TQ_WEIGHT.weight}`, tq_weight: TQ_WEIGHT.weight } as const;

/** A stored row's share of `tq_weighted` or `tq_weight` (TQ_WEIGHT): its TQ_WEIGHT_SUMS_SQL where it weighs, else 0. */
export function tqWeightSql(engine: SqlEngine, part: 'tq_weighted' | 'tq_weight'): string {
  return SQL_FRAGMENTS[engine].ifElse(TQ_WEIGHT_SQL, TQ_WEIGHT_SUMS_SQL[part], '0');
}

/**
 * A profit group's share of `tq_weighted` or `tq_weight` from one zone-day (PROFIT_TQ_WEIGHT): its
 * visits × the zone-day's TQ, and its visits, where that TQ is known, else 0; `tq` and `visits`
 * are the query's expressions of those columns (aliased).
 */
export function profitTqWeightSql(
  engine: SqlEngine,
  part: 'tq_weighted' | 'tq_weight',
  expr: Record<(typeof PROFIT_TQ_WEIGHT)[keyof typeof PROFIT_TQ_WEIGHT], string>,
): string {
  const value = expr[PROFIT_TQ_WEIGHT.value];
  const weight = expr[PROFIT_TQ_WEIGHT.weight];
  return SQL_FRAGMENTS[engine].ifElse(`${value} IS NOT NULL`, part === 'tq_weighted' ? `${weight} * ${value}` : weight, '0');
}

/** Each dialect's column type of a sum (SUM_KINDS): counts 64-bit integers, amounts doubles (the same IEEE doubles on both). */
const SUM_COLUMN_TYPES: Record<SqlEngine, Record<'count' | 'amount', string>> = {
  duckdb: { count: 'BIGINT NOT NULL', amount: 'DOUBLE NOT NULL' },
  clickhouse: { count: 'Int64', amount: 'Float64' },
};

/** The rollup tables' sum columns (one per report sum, in SUM_KEYS' order), as a CREATE TABLE's column list. */
export function sumColumnsSql(engine: SqlEngine, indent = '  '): string {
  return SUM_KEYS.map((k) => `${indent}${k} ${SUM_COLUMN_TYPES[engine][SUM_KINDS[k]]}`).join(',\n');
}

/** A ratio of two SQL expressions, num / den × scale as a double: NULL on a 0 base (with `positiveBase`, one not above 0). */
export function ratioSql(engine: SqlEngine, num: string, den: string, scale: number, positiveBase = false): string {
  const d = SQL_FRAGMENTS[engine];
  return positiveBase ? d.when(`${den} > 0`, `${d.double(num)} / ${den} * ${scale}`) : `(${d.double(num)} / ${d.nullIf(den, '0')} * ${scale})`;
}

/** A revenue registry formula in SQL over the given expressions of its sums. */
export function formulaSql(engine: SqlEngine, formula: Formula, sum: (key: SumKey) => string): string {
  if (formula.op === 'diff') return `(${sum(formula.a)} - ${sum(formula.b)})`;
  return ratioSql(engine, sum(formula.num), sum(formula.den), formula.scale, formula.positiveBase);
}

/** The IVT rate in SQL over its sums' columns (IVT_RATE's formula: bot_hits / hits × 100, NULL without hits). */
export function ivtRateSql(engine: SqlEngine): string {
  const { num, den, scale } = IVT_RATE.formula;
  return ratioSql(engine, num, den, scale);
}

/**
 * A Rentabilidad ratio ('rpv': a zone's revenue per visit, 'tq': its visit-weighted TQ) in SQL over
 * the given expressions of its sums: num / den, NULL on a 0 base — PROFIT_METRICS' formula.
 */
export function profitRatioSql(engine: SqlEngine, key: 'rpv' | 'tq', sum: (key: ProfitSumKey) => string): string {
  const f = PROFIT_METRICS[key].formula;
  if (f.op !== 'ratio' || f.num === 'profit') throw new Error(`${key} is not a ratio of sums`);
  const ratio = `${sum(f.num)} / ${SQL_FRAGMENTS[engine].nullIf(sum(f.den), '0')}`;
  return f.scale === 1 ? ratio : `${ratio} * ${f.scale}`;
}
