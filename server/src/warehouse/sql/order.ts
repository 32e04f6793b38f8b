// Table orders and pages in SQL, for both dialects: the requested keys (missing values last in both
// directions; text in Spanish collation, then exactly), then a total order for the ties.
import type { Order } from '../types.js';
import { TEXT_SORT_KEYS } from '../types.js';
import type { Binder } from './binder.js';
import type { Dialect } from './dialect.js';

/** ORDER BY terms for one key given its SQL expression: missing values (NULL, and '' for text) last in both directions. */
function orderTerms(d: Dialect, key: string, expr: string, dir: 'asc' | 'desc', text = TEXT_SORT_KEYS.has(key)): string[] {
  const sql = dir === 'asc' ? 'ASC' : 'DESC';
  return text ? d.textOrder(expr, sql) : [`${expr} ${sql} NULLS LAST`];
}

/**
 * A whole ORDER BY clause: the requested keys (text in Spanish collation), then `then` — the
 * natural key or the group's dimensions — in plain byte order, which is total and cheap: a
 * collation on every tie-breaker made a top-25 of 9 million rows six times slower (DuckDB). `expr`
 * maps a key to its SQL; it answers undefined for keys a caller never lets through.
 */
export function orderBy(d: Dialect, order: Order, then: Order, expr: (key: string) => string | undefined): string {
  const seen = new Set<string>();
  const terms: string[] = [];
  const sqlOf = (key: string) => {
    const sql = expr(key);
    if (sql === undefined) throw new Error(`orden no soportado: ${key}`);
    return sql;
  };
  for (const { key, dir } of order) {
    if (seen.has(key)) continue;
    seen.add(key);
    terms.push(...orderTerms(d, key, sqlOf(key), dir));
  }
  for (const { key, dir } of then) terms.push(`${sqlOf(key)} ${dir === 'asc' ? 'ASC' : 'DESC'} NULLS LAST`);
  return terms.length ? `ORDER BY ${terms.join(', ')}` : '';
}

/** LIMIT / OFFSET as bound values (nothing when neither). */
export function pageSql(b: Binder, limit?: number, offset?: number): string {
  if (limit === undefined) return offset ? `OFFSET ${b.bind(offset, 'UInt64')}` : '';
  return `LIMIT ${b.bind(limit, 'UInt64')} OFFSET ${b.bind(offset ?? 0, 'UInt64')}`;
}
