// Every distinct advertiser, publisher, geo, source and non-empty domain stored (filter
// dropdowns), from the rollup (ClickHouse: its current days), each list in the tables' text order.
import type { SqlDb } from '../sql/db.js';
import type { Engine } from '../sql/dialect.js';
import type { DimensionValues } from '../types.js';
import { rollupRows } from './source.js';

const KINDS = { advertiser: 'advertisers', publisher: 'publishers', geo: 'geos', source: 'sources', domain: 'domains' } as const;

/** One list per kind, from `table`: every advertiser and publisher (even blank); geo, source and domain only when known. */
const union = (table: string, notEqual: string) =>
  Object.entries(KINDS)
    .map(([column, kind]) => {
      const known = column === 'advertiser' || column === 'publisher' ? '' : ` WHERE ${column} ${notEqual} ''`;
      return `SELECT DISTINCT '${kind}' AS kind, ${column} AS value FROM ${table}${known}`;
    })
    .join('\nUNION ALL\n');

const SQL: Record<Engine, (table: string) => string> = {
  duckdb: (table) => `SELECT * FROM (${union(table, '<>')}) ORDER BY kind, value COLLATE es, value`,
  clickhouse: (table) => `SELECT kind, value FROM (${union(table, '!=')}) ORDER BY kind, value ASC COLLATE 'es', value`,
};

export async function getDimensionValues(db: SqlDb): Promise<DimensionValues> {
  const table = db.rollup ? rollupRows(db, Object.keys(KINDS).join(', ')) : db.current('zone_report');
  const out: DimensionValues = { advertisers: [], publishers: [], geos: [], sources: [], domains: [] };
  for (const r of await db.all<{ kind: keyof DimensionValues; value: string }>(SQL[db.dialect.engine](table))) out[r.kind].push(r.value);
  return out;
}
