// The DuckDB handle behind the warehouse (data/warehouse.duckdb): parameterised queries only,
// results converted to plain JS (BIGINT/HUGEINT → number, DATE → 'YYYY-MM-DD', TIMESTAMP → ISO).
import path from 'node:path';
import {
  DuckDBInstance,
  DuckDBConnection,
  DuckDBDateValue,
  DuckDBTimestampValue,
  DuckDBTimestampTZValue,
  DuckDBDecimalValue,
  type DuckDBValue,
} from '@duckdb/node-api';

export type Param = string | number | boolean | null | bigint;
export type Row = Record<string, string | number | boolean | null>;

function plain(v: DuckDBValue): string | number | boolean | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (v instanceof DuckDBDateValue) return v.toString();
  if (v instanceof DuckDBTimestampValue || v instanceof DuckDBTimestampTZValue) {
    // micros since epoch, UTC
    return new Date(Number(v.micros / 1000n)).toISOString();
  }
  if (v instanceof DuckDBDecimalValue) return v.toDouble();
  return String(v);
}

export class Db {
  private writeQueue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly instance: DuckDBInstance,
    /** Readers share one connection; DuckDB runs their queries in parallel internally. */
    readonly read: DuckDBConnection,
    /** The single writer connection (appenders, upserts, deletes). */
    readonly write: DuckDBConnection,
  ) {}

  /** Opens `dir/warehouse.duckdb` (or an in-memory database for ':memory:'). */
  static async open(dir: string | ':memory:', options: { threads?: number; memoryLimit?: string } = {}): Promise<Db> {
    const file = dir === ':memory:' ? ':memory:' : path.join(dir, 'warehouse.duckdb');
    const instance = await DuckDBInstance.create(file, {
      threads: String(options.threads ?? 2),
      memory_limit: options.memoryLimit ?? '1GB',
    });
    return new Db(instance, await instance.connect(), await instance.connect());
  }

  async all<T = Row>(sql: string, params: Param[] = []): Promise<T[]> {
    const reader = await this.read.runAndReadAll(sql, params as DuckDBValue[]);
    const rows = reader.getRowObjects();
    return rows.map((r) => {
      const out: Row = {};
      for (const k of Object.keys(r)) out[k] = plain(r[k]);
      return out as T;
    });
  }

  async one<T = Row>(sql: string, params: Param[] = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }

  /** Runs write work one job at a time on the writer connection. */
  serialWrite<T>(work: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    const run = this.writeQueue.then(() => work(this.write));
    this.writeQueue = run.catch(() => undefined);
    return run;
  }

  async exec(sql: string, params: Param[] = []): Promise<void> {
    await this.serialWrite((c) => c.run(sql, params as DuckDBValue[]));
  }

  close(): void {
    this.read.closeSync();
    this.write.closeSync();
    this.instance.closeSync();
  }
}
