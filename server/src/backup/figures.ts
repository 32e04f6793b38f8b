// Counts and sums of every table of a DuckDB database, whatever its tables and columns: the
// manifest's proof of what a backup holds, checked again after a restore.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { TableFigures } from './manifest.js';

const NUMERIC = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL.*)$/;
const FLOATING = /^(FLOAT|DOUBLE)$/;

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Every base table of the open database's main schema: its rows and the sum of each numeric column. */
export async function tableFigures(conn: DuckDBConnection): Promise<Record<string, TableFigures>> {
  const columns = (
    await conn.runAndReadAll(
      `SELECT t.table_name, c.column_name, c.data_type
         FROM duckdb_tables() t LEFT JOIN duckdb_columns() c
           ON c.database_name = t.database_name AND c.schema_name = t.schema_name AND c.table_name = t.table_name
        WHERE t.database_name = current_database() AND t.schema_name = 'main' AND NOT t.temporary
        ORDER BY t.table_name, c.column_index`,
    )
  ).getRows() as Array<[string, string | null, string | null]>;
  const tables = new Map<string, Array<{ name: string; floating: boolean }>>();
  for (const [table, column, type] of columns) {
    const list = tables.get(table) ?? [];
    tables.set(table, list);
    if (column && type && NUMERIC.test(type)) list.push({ name: column, floating: FLOATING.test(type) });
  }
  const out: Record<string, TableFigures> = {};
  for (const [table, numeric] of tables) {
    // Floating sums with Kahan summation (the same total whatever order the rows are read in);
    // integer sums exact, as text (a HUGEINT may pass 2^53).
    const sums = numeric.map((c) =>
      c.floating ? `coalesce(kahan_sum(${ident(c.name)}), 0)::DOUBLE` : `coalesce(sum(${ident(c.name)}), 0)::VARCHAR`,
    );
    const row = (
      await conn.runAndReadAll(`SELECT count(*)::VARCHAR${sums.map((s) => `, ${s}`).join('')} FROM ${ident(table)}`)
    ).getRows()[0] as Array<string | number>;
    out[table] = { rows: Number(row[0]), sums: Object.fromEntries(numeric.map((c, i) => [c.name, Number(row[i + 1])])) };
  }
  return out;
}
