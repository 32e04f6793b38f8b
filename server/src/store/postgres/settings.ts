// Settings on PostgreSQL: one jsonb value per key; a change reads and writes under the row's lock.
import type pg from 'pg';
import { type SettingsRepository, StoreTextError } from '../types.js';
import { hasNul, type Query, transaction } from './db.js';

export function postgresSettings(q: Query, pool: pg.Pool): SettingsRepository {
  return {
    async get(key) {
      if (hasNul(key)) return undefined;
      const { rows } = await q('SELECT value FROM settings WHERE key = $1', [key]);
      return rows[0]?.value;
    },
    async putIfAbsent<T>(key: string, value: T): Promise<T> {
      if (hasNul(key) || hasNul(value)) throw new StoreTextError();
      // A concurrent first writer makes this insert wait, then do nothing; the read sees its value.
      await q('INSERT INTO settings (key, value) VALUES ($1, $2::jsonb) ON CONFLICT (key) DO NOTHING', [key, JSON.stringify(value)]);
      const { rows } = await q('SELECT value FROM settings WHERE key = $1', [key]);
      return rows[0].value as T;
    },
    async update<T>(key: string, change: (current: T | undefined) => T): Promise<T> {
      if (hasNul(key)) throw new StoreTextError();
      return transaction(pool, async (client) => {
        // The row is locked (or, when missing, its key: a concurrent first change waits on the insert).
        await client.query('INSERT INTO settings (key, value) VALUES ($1, $2::jsonb) ON CONFLICT (key) DO NOTHING', [key, 'null']);
        const { rows } = await client.query('SELECT value FROM settings WHERE key = $1 FOR UPDATE', [key]);
        const value = change((rows[0]?.value ?? undefined) as T | undefined);
        if (hasNul(value)) throw new StoreTextError();
        await client.query('UPDATE settings SET value = $2::jsonb WHERE key = $1', [key, JSON.stringify(value)]);
        return value;
      });
    },
  };
}
