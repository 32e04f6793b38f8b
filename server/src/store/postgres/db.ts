// What every PostgreSQL repository shares: one parameterised statement at a time with the
// store's typed errors (a duplicate is StoreConflictError, a NUL StoreTextError), transactions
// on one connection, and timestamps read back as ISO text.
import type pg from 'pg';
import { type ConflictField, StoreConflictError, StoreTextError } from '../types.js';

/** A parameterised statement on the pool, its errors already the store's. */
export type Query = (sql: string, params?: unknown[]) => Promise<pg.QueryResult>;

const CONFLICTS: Record<string, ConflictField> = {
  users_pkey: 'id',
  users_email_key: 'email',
  publisher_tokens_pkey: 'token_hash',
  publisher_tokens_publisher_name_key: 'publisher_name',
  publisher_tokens_id_key: 'id',
  campaigns_pkey: 'campaign_id',
  sessions_pkey: 'id',
  audit_log_id_key: 'id',
};

/** Whether a value (keys included) holds U+0000, which PostgreSQL's text and jsonb cannot keep. */
export function hasNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(hasNul);
  if (value && typeof value === 'object') return Object.entries(value).some(([k, v]) => k.includes('\u0000') || hasNul(v));
  return false;
}

function translate(e: unknown): unknown {
  const err = e as { code?: string; constraint?: string };
  if (err.code === '23505' && err.constraint && CONFLICTS[err.constraint]) return new StoreConflictError(CONFLICTS[err.constraint]);
  // invalid byte sequence / untranslatable character: a NUL that slipped through.
  if (err.code === '22021' || err.code === '22P05') return new StoreTextError();
  return e;
}

/** A timestamp as ISO text (null stays null). */
export function iso(v: Date | string): string;
export function iso(v: Date | string | null): string | null;
export function iso(v: Date | string | null): string | null {
  return v === null ? null : (v instanceof Date ? v : new Date(v)).toISOString();
}

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

/** Runs a parameterised statement; duplicates and NULs come back as the store's typed errors. */
export async function run(db: Queryable, sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  if (params.some(hasNul)) throw new StoreTextError();
  try {
    return await db.query(sql, params);
  } catch (e) {
    throw translate(e);
  }
}

/** `work` inside BEGIN … COMMIT on one connection (rolled back when it throws). */
export async function transaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (e) {
    await client.query('ROLLBACK').catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw e;
  } finally {
    client.release(broken);
  }
}
