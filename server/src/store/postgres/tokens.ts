// Publisher tokens on PostgreSQL: looked up by hash or id, one per publisher (the name compared
// by its collation), renewed in place, their use counted.
import type pg from 'pg';
import { StoreTextError, type TokenRecord, type TokenRepository } from '../types.js';
import { hasNul, iso, type Query } from './db.js';

const TOKEN_COLUMNS = 'id, publisher_name, token_sealed, token_hash, created_at, last_used_at, expires_at, allowed_ips, rate_limit, request_count';

const tokenRecord = (r: pg.QueryResultRow): TokenRecord => ({
  id: r.id,
  publisher_name: r.publisher_name,
  token_sealed: r.token_sealed,
  token_hash: r.token_hash,
  created_at: iso(r.created_at),
  last_used_at: r.last_used_at ? iso(r.last_used_at) : null,
  expires_at: r.expires_at ? iso(r.expires_at) : null,
  allowed_ips: r.allowed_ips,
  rate_limit: r.rate_limit,
  request_count: Number(r.request_count),
});

export function postgresTokens(q: Query): TokenRepository {
  return {
    async list() {
      return (await q(`SELECT ${TOKEN_COLUMNS} FROM publisher_tokens ORDER BY seq`)).rows.map(tokenRecord);
    },
    async byHash(hash) {
      if (hasNul(hash)) return undefined;
      const { rows } = await q(`SELECT ${TOKEN_COLUMNS} FROM publisher_tokens WHERE token_hash = $1`, [hash]);
      return rows[0] ? tokenRecord(rows[0]) : undefined;
    },
    async byId(id) {
      if (hasNul(id)) return undefined;
      const { rows } = await q(`SELECT ${TOKEN_COLUMNS} FROM publisher_tokens WHERE id = $1`, [id]);
      return rows[0] ? tokenRecord(rows[0]) : undefined;
    },
    async create(t) {
      await q(`INSERT INTO publisher_tokens (${TOKEN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, [
        t.id,
        t.publisher_name,
        t.token_sealed,
        t.token_hash,
        t.created_at,
        t.last_used_at,
        t.expires_at,
        t.allowed_ips,
        t.rate_limit,
        t.request_count,
      ]);
    },
    async replace(publisherName, t) {
      if (hasNul(publisherName)) return undefined;
      // The comparison takes the column's collation: the same publisher whatever the case.
      // The id and the policy (expiry, allow-list, limit) stay; the count starts over.
      const { rows } = await q(
        `UPDATE publisher_tokens SET token_sealed = $2, token_hash = $3, created_at = $4, last_used_at = $5, request_count = $6
         WHERE publisher_name = $1
         RETURNING ${TOKEN_COLUMNS}`,
        [publisherName, t.token_sealed, t.token_hash, t.created_at, t.last_used_at, t.request_count],
      );
      return rows[0] ? tokenRecord(rows[0]) : undefined;
    },
    async update(id, c) {
      if (hasNul(id)) return undefined;
      if (hasNul(c)) throw new StoreTextError();
      // A field left out keeps its value; null is a value for expiry and limit ($n IS TRUE: given).
      const { rows } = await q(
        `UPDATE publisher_tokens SET
           expires_at = CASE WHEN $2 THEN $3::timestamptz ELSE expires_at END,
           allowed_ips = COALESCE($4::text[], allowed_ips),
           rate_limit = CASE WHEN $5 THEN $6::integer ELSE rate_limit END
         WHERE id = $1
         RETURNING ${TOKEN_COLUMNS}`,
        [id, c.expires_at !== undefined, c.expires_at ?? null, c.allowed_ips ?? null, c.rate_limit !== undefined, c.rate_limit ?? null],
      );
      return rows[0] ? tokenRecord(rows[0]) : undefined;
    },
    async removeById(id) {
      if (hasNul(id)) return false;
      return ((await q('DELETE FROM publisher_tokens WHERE id = $1', [id])).rowCount ?? 0) > 0;
    },
    async recordUse(id, requests, usedAt) {
      if (hasNul(id)) return;
      await q(
        `UPDATE publisher_tokens SET request_count = request_count + $2,
           last_used_at = GREATEST(coalesce(last_used_at, $3::timestamptz), $3::timestamptz)
         WHERE id = $1`,
        [id, requests, usedAt],
      );
    },
  };
}
