// The embedded engine's memory is bounded by configuration: ADOPS_WAREHOUSE_MEMORY_LIMIT reaches
// DuckDB (its buffers are most of the server's memory on millions of rows), and work larger than
// the limit — a sort of every row, as an export by revenue does — spills to
// ADOPS_WAREHOUSE_TEMP_DIR and still answers every row instead of growing the process.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import type { Db } from '../src/warehouse/duckdb/db.js';
import { createWarehouse, type Warehouse } from '../src/warehouse/index.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

/** A warehouse opened as the server opens it, from the environment (`env` given the data dir). */
async function openConfigured(env: (dir: string) => Record<string, string>): Promise<{ db: Db; dir: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'adops-memory-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const warehouse = (await createWarehouse(loadConfig({ ADOPS_DATA_DIR: dir, ...env(dir) }))) as Warehouse & { db: Db };
  cleanups.push(() => warehouse.close());
  return { db: warehouse.db, dir };
}

const setting = async (db: Db, name: string) => (await db.one<{ value: string }>('SELECT current_setting($name) AS value', { name }))?.value;

describe('warehouse memory', () => {
  test('the configured limit and spill directory are the engine’s', async () => {
    const { db, dir } = await openConfigured((d) => ({ ADOPS_WAREHOUSE_MEMORY_LIMIT: '96MB', ADOPS_WAREHOUSE_TEMP_DIR: path.join(d, 'spill') }));
    // DuckDB shows the limit in MiB: 96 MB = 91.5 MiB.
    expect(await setting(db, 'memory_limit')).toBe('91.5 MiB');
    expect(await setting(db, 'temp_directory')).toBe(path.join(dir, 'spill'));
  });

  test('unset, the engine gets 128 MB and spills beside its file in the data dir', async () => {
    const { db, dir } = await openConfigured(() => ({}));
    expect(await setting(db, 'memory_limit')).toBe('122.0 MiB'); // 128 MB
    expect(await setting(db, 'temp_directory')).toBe(path.join(dir, 'warehouse.duckdb.tmp'));
  });

  test('a sort larger than the limit spills to the temp dir while it streams, and answers every row', async () => {
    const { db, dir } = await openConfigured((d) => ({ ADOPS_WAREHOUSE_MEMORY_LIMIT: '64MB', ADOPS_WAREHOUSE_TEMP_DIR: path.join(d, 'spill') }));
    const spill = path.join(dir, 'spill');
    let rows = 0;
    let chunks = 0;
    let spilled: string[] = [];
    // About 150 MB of sort keys: more than twice the limit.
    for await (const chunk of db.stream<{ h: string }>('SELECT md5(i::VARCHAR) AS h FROM range(2000000) t(i) ORDER BY h')) {
      if (chunks++ === 0) spilled = (await db.all<{ path: string }>('SELECT path FROM duckdb_temporary_files()')).map((f) => f.path);
      rows += chunk.length;
    }
    expect(rows).toBe(2_000_000);
    expect(chunks).toBeGreaterThan(1);
    expect(spilled.length).toBeGreaterThan(0);
    for (const file of spilled) expect(file.startsWith(spill)).toBe(true);
  }, 60_000);

  test('a limit that is not a size is refused, naming the setting', () => {
    for (const bad of ['lots', '256', '-1GB', '1 parsec']) expect(() => loadConfig({ ADOPS_WAREHOUSE_MEMORY_LIMIT: bad })).toThrow(ConfigError);
    expect(() => loadConfig({ ADOPS_WAREHOUSE_MEMORY_LIMIT: 'lots' })).toThrow(/ADOPS_WAREHOUSE_MEMORY_LIMIT/);
  });
});
