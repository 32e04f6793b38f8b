// Two-factor settings on PostgreSQL: one row per user; each change is one conditional statement
// (a pending enrolment replaced, a code's step accepted once, a recovery code used once).
import type pg from 'pg';
import type { TotpRecord, TotpRepository } from '../types.js';
import { hasNul, iso, type Query } from './db.js';

const TOTP_COLUMNS = 'user_id, secret_sealed, created_at, enabled_at, last_step, recovery_hashes';

const totpRecord = (r: pg.QueryResultRow): TotpRecord => ({
  user_id: r.user_id,
  secret_sealed: r.secret_sealed,
  created_at: iso(r.created_at),
  enabled_at: r.enabled_at ? iso(r.enabled_at) : null,
  last_step: r.last_step === null ? null : Number(r.last_step),
  recovery_hashes: r.recovery_hashes,
});

export function postgresTotp(q: Query): TotpRepository {
  return {
    async byUser(userId) {
      if (hasNul(userId)) return undefined;
      const { rows } = await q(`SELECT ${TOTP_COLUMNS} FROM user_totp WHERE user_id = $1`, [userId]);
      return rows[0] ? totpRecord(rows[0]) : undefined;
    },
    async list() {
      const { rows } = await q(`SELECT ${TOTP_COLUMNS} FROM user_totp ORDER BY user_id COLLATE "C"`);
      return rows.map(totpRecord);
    },
    async begin(userId, secretSealed, at) {
      // A pending enrolment is replaced; an enabled one is left alone (no row comes back).
      const { rowCount } = await q(
        `INSERT INTO user_totp (user_id, secret_sealed, created_at) VALUES ($1, $2, $3)
         ON CONFLICT (user_id) DO UPDATE SET secret_sealed = EXCLUDED.secret_sealed, created_at = EXCLUDED.created_at,
           last_step = NULL, recovery_hashes = '{}'
         WHERE user_totp.enabled_at IS NULL`,
        [userId, secretSealed, at],
      );
      return (rowCount ?? 0) > 0;
    },
    async enable(userId, secretSealed, step, recoveryHashes, at) {
      if (hasNul(userId)) return false;
      const { rowCount } = await q(
        `UPDATE user_totp SET enabled_at = $3, last_step = $4, recovery_hashes = $5::text[]
         WHERE user_id = $1 AND secret_sealed = $2 AND enabled_at IS NULL`,
        [userId, secretSealed, at, step, recoveryHashes],
      );
      return (rowCount ?? 0) > 0;
    },
    async acceptStep(userId, step) {
      if (hasNul(userId)) return false;
      const { rowCount } = await q(
        `UPDATE user_totp SET last_step = $2
         WHERE user_id = $1 AND enabled_at IS NOT NULL AND (last_step IS NULL OR last_step < $2)`,
        [userId, step],
      );
      return (rowCount ?? 0) > 0;
    },
    async useRecoveryCode(userId, hash) {
      if (hasNul(userId) || hasNul(hash)) return false;
      const { rowCount } = await q(
        `UPDATE user_totp SET recovery_hashes = array_remove(recovery_hashes, $2)
         WHERE user_id = $1 AND enabled_at IS NOT NULL AND $2 = ANY (recovery_hashes)`,
        [userId, hash],
      );
      return (rowCount ?? 0) > 0;
    },
    async remove(userId) {
      if (hasNul(userId)) return false;
      return ((await q('DELETE FROM user_totp WHERE user_id = $1', [userId])).rowCount ?? 0) > 0;
    },
  };
}
