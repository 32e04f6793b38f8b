// Users on PostgreSQL: one row per user, the e-mail unique case-insensitively (email_key); the
// protected admin is created or promoted once, under a transaction-scoped advisory lock.
import type pg from 'pg';
import { emailKey, StoreTextError, type UserRecord, type UserRepository } from '../types.js';
import { hasNul, iso, type Query, run, transaction } from './db.js';

const USER_COLUMNS = 'id, first_name, last_name, email, password_hash, is_admin, protected, created_at, password_changed_at';

function userRecord(r: pg.QueryResultRow): UserRecord {
  const user: UserRecord = {
    id: r.id,
    first_name: r.first_name,
    last_name: r.last_name,
    email: r.email,
    password_hash: r.password_hash,
    is_admin: r.is_admin,
    protected: r.protected,
    created_at: iso(r.created_at),
  };
  if (r.password_changed_at) user.password_changed_at = iso(r.password_changed_at);
  return user;
}

export function postgresUsers(q: Query, pool: pg.Pool): UserRepository {
  return {
    async byId(id) {
      if (hasNul(id)) return undefined;
      const { rows } = await q(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]);
      return rows[0] ? userRecord(rows[0]) : undefined;
    },
    async byEmail(email) {
      if (hasNul(email)) return undefined;
      const { rows } = await q(`SELECT ${USER_COLUMNS} FROM users WHERE email_key = $1`, [emailKey(email)]);
      return rows[0] ? userRecord(rows[0]) : undefined;
    },
    async list() {
      return (await q(`SELECT ${USER_COLUMNS} FROM users ORDER BY seq`)).rows.map(userRecord);
    },
    async create(u) {
      await q(
        `INSERT INTO users (id, first_name, last_name, email, email_key, password_hash, is_admin, protected, created_at, password_changed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          u.id,
          u.first_name,
          u.last_name,
          u.email,
          emailKey(u.email),
          u.password_hash,
          u.is_admin,
          u.protected,
          u.created_at,
          u.password_changed_at ?? null,
        ],
      );
    },
    async update(id, c) {
      if (hasNul(id)) return undefined;
      const { rows } = await q(
        `UPDATE users SET
           first_name = COALESCE($2, first_name),
           last_name = COALESCE($3, last_name),
           email = COALESCE($4, email),
           email_key = COALESCE($5, email_key),
           is_admin = COALESCE($6, is_admin),
           password_hash = COALESCE($7, password_hash),
           password_changed_at = COALESCE($8, password_changed_at)
         WHERE id = $1
         RETURNING ${USER_COLUMNS}`,
        [
          id,
          c.first_name ?? null,
          c.last_name ?? null,
          c.email ?? null,
          c.email === undefined ? null : emailKey(c.email),
          c.is_admin ?? null,
          c.password_hash ?? null,
          c.password_changed_at ?? null,
        ],
      );
      return rows[0] ? userRecord(rows[0]) : undefined;
    },
    async remove(id) {
      if (hasNul(id)) return false;
      return ((await q('DELETE FROM users WHERE id = $1', [id])).rowCount ?? 0) > 0;
    },
    bootstrapAdmin(a) {
      if (hasNul(a)) return Promise.reject(new StoreTextError());
      return transaction(pool, async (client) => {
        await client.query("SELECT pg_advisory_xact_lock(hashtext('adops:bootstrap-admin'))");
        if ((await run(client, 'SELECT 1 FROM users WHERE protected LIMIT 1')).rowCount) return false;
        const upgraded = await run(client, 'UPDATE users SET protected = true, is_admin = true, password_hash = $2 WHERE email_key = $1', [
          emailKey(a.email),
          a.password_hash,
        ]);
        if (!upgraded.rowCount)
          await run(
            client,
            `INSERT INTO users (id, first_name, last_name, email, email_key, password_hash, is_admin, protected, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, true, true, $7)`,
            [a.id, a.first_name, a.last_name, a.email, emailKey(a.email), a.password_hash, a.created_at],
          );
        return true;
      });
    },
  };
}
