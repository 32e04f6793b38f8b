// Signed-in sessions on PostgreSQL: a token is accepted only while its row exists.
import type pg from 'pg';
import { type SessionRecord, type SessionRepository, StoreTextError } from '../types.js';
import { hasNul, iso, type Query } from './db.js';

const SESSION_COLUMNS = 'id, user_id, created_at, expires_at, last_seen_at, ip, user_agent';

const sessionRecord = (r: pg.QueryResultRow): SessionRecord => ({
  id: r.id,
  user_id: r.user_id,
  created_at: iso(r.created_at),
  expires_at: iso(r.expires_at),
  last_seen_at: iso(r.last_seen_at),
  ip: r.ip,
  user_agent: r.user_agent,
});

export function postgresSessions(q: Query): SessionRepository {
  return {
    async create(x) {
      if (hasNul(x)) throw new StoreTextError();
      await q(`INSERT INTO sessions (${SESSION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
        x.id,
        x.user_id,
        x.created_at,
        x.expires_at,
        x.last_seen_at,
        x.ip,
        x.user_agent,
      ]);
    },
    async byId(id) {
      if (hasNul(id)) return undefined;
      const { rows } = await q(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = $1`, [id]);
      return rows[0] ? sessionRecord(rows[0]) : undefined;
    },
    async listByUser(userId, now) {
      if (hasNul(userId)) return [];
      const { rows } = await q(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE user_id = $1 AND expires_at > $2 ORDER BY created_at DESC`, [
        userId,
        now,
      ]);
      return rows.map(sessionRecord);
    },
    async touch(id, seenAt, ip) {
      if (hasNul(id) || hasNul(ip)) return;
      await q('UPDATE sessions SET last_seen_at = $2, ip = $3 WHERE id = $1', [id, seenAt, ip]);
    },
    async remove(id) {
      if (hasNul(id)) return false;
      return ((await q('DELETE FROM sessions WHERE id = $1', [id])).rowCount ?? 0) > 0;
    },
    async removeByUser(userId, exceptId) {
      if (hasNul(userId)) return 0;
      return (await q('DELETE FROM sessions WHERE user_id = $1 AND id IS DISTINCT FROM $2', [userId, exceptId ?? null])).rowCount ?? 0;
    },
    async purgeExpired(now) {
      return (await q('DELETE FROM sessions WHERE expires_at <= $1', [now])).rowCount ?? 0;
    },
  };
}
