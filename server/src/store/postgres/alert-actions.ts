// The profit guard on PostgreSQL (migration 7): parameterised queries only. A pause is marked
// undone by one conditional UPDATE (two admins undoing at once: one wins), and the daily cap's
// counter is one conditional upsert per ad account and day, so every instance shares it.
import type pg from 'pg';
import type { AlertActionRecord, AlertActionRepository } from '../alert-action-types.js';
import { StoreConflictError, StoreTextError } from '../types.js';
import { hasNul, iso, type Query } from './db.js';

export const ALERT_ACTIONS_MIGRATION_SQL = `
  -- The profit guard: a campaign rule's action (notify only / pause on Meta, cooldown, daily
  -- cap, reactivar) beside its parameters; what the actions did, kept when the rule goes
  -- (no foreign key: it is a trail); and the actions taken per ad account and day (the cap).
  ALTER TABLE alert_rules ADD COLUMN action jsonb;
  CREATE TABLE alert_actions (
    seq bigint GENERATED ALWAYS AS IDENTITY,
    id text NOT NULL,
    rule_id text NOT NULL,
    rule_name text NOT NULL,
    subject text NOT NULL,
    level text NOT NULL CHECK (level IN ('campaign', 'adset')),
    account text NOT NULL,
    action text NOT NULL CHECK (action IN ('pause', 'resume')),
    trigger text NOT NULL CHECK (trigger IN ('rule', 'recovery')),
    status text NOT NULL CHECK (status IN ('done', 'failed')),
    detail text,
    reason text NOT NULL,
    figures jsonb NOT NULL DEFAULT '{}',
    at timestamptz NOT NULL,
    undone_at timestamptz,
    undone_by text,
    undone_by_rule boolean NOT NULL DEFAULT false,
    CONSTRAINT alert_actions_pkey PRIMARY KEY (id)
  );
  CREATE INDEX alert_actions_at ON alert_actions (at DESC, seq DESC);
  CREATE INDEX alert_actions_rule_subject ON alert_actions (rule_id, subject, at DESC, seq DESC);
  CREATE TABLE alert_action_days (
    account text NOT NULL,
    day date NOT NULL,
    used integer NOT NULL CHECK (used >= 0),
    CONSTRAINT alert_action_days_pkey PRIMARY KEY (account, day)
  );
`;

/** Migration 11: a 'hold' pause's own resume (pausa temporal) is a trigger of its own. */
export const ALERT_ACTION_HOLD_MIGRATION_SQL = `
  ALTER TABLE alert_actions DROP CONSTRAINT alert_actions_trigger_check;
  ALTER TABLE alert_actions ADD CONSTRAINT alert_actions_trigger_check CHECK (trigger IN ('rule', 'recovery', 'hold'));
`;

const COLUMNS =
  'id, rule_id, rule_name, subject, level, account, action, trigger, status, detail, reason, figures, at, undone_at, undone_by, undone_by_rule';

const record = (r: pg.QueryResultRow): AlertActionRecord => ({
  id: r.id,
  rule_id: r.rule_id,
  rule_name: r.rule_name,
  subject: r.subject,
  level: r.level,
  account: r.account,
  action: r.action,
  trigger: r.trigger,
  status: r.status,
  detail: r.detail,
  reason: r.reason,
  figures: r.figures,
  at: iso(r.at)!,
  undone_at: iso(r.undone_at),
  undone_by: r.undone_by,
  undone_by_rule: r.undone_by_rule,
});

export function postgresAlertActions(q: Query): AlertActionRepository {
  return {
    async list(filter, offset, limit) {
      if (hasNul(filter)) return { rows: [], total: 0 };
      const where = filter.rule_id !== undefined ? 'WHERE rule_id = $1' : '';
      const params = filter.rule_id !== undefined ? [filter.rule_id] : [];
      const n = params.length;
      const [page, count] = await Promise.all([
        q(`SELECT ${COLUMNS} FROM alert_actions ${where} ORDER BY at DESC, seq DESC OFFSET $${n + 1} LIMIT $${n + 2}`, [...params, offset, limit]),
        q(`SELECT count(*)::int AS n FROM alert_actions ${where}`, params),
      ]);
      return { rows: page.rows.map(record), total: count.rows[0].n };
    },
    async byId(id) {
      if (hasNul(id)) return undefined;
      const { rows } = await q(`SELECT ${COLUMNS} FROM alert_actions WHERE id = $1`, [id]);
      return rows[0] ? record(rows[0]) : undefined;
    },
    async create(a) {
      if (hasNul(a)) throw new StoreTextError();
      try {
        await q(`INSERT INTO alert_actions (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13, $14, $15, $16)`, [
          a.id,
          a.rule_id,
          a.rule_name,
          a.subject,
          a.level,
          a.account,
          a.action,
          a.trigger,
          a.status,
          a.detail,
          a.reason,
          JSON.stringify(a.figures),
          a.at,
          a.undone_at,
          a.undone_by,
          a.undone_by_rule,
        ]);
      } catch (e) {
        if ((e as { code?: string }).code === '23505') throw new StoreConflictError('id');
        throw e;
      }
    },
    async latest(ruleId, subject) {
      if (hasNul([ruleId, subject])) return undefined;
      const { rows } = await q(`SELECT ${COLUMNS} FROM alert_actions WHERE rule_id = $1 AND subject = $2 ORDER BY at DESC, seq DESC LIMIT 1`, [
        ruleId,
        subject,
      ]);
      return rows[0] ? record(rows[0]) : undefined;
    },
    async standing(ruleId) {
      if (hasNul(ruleId)) return [];
      const { rows } = await q(
        `SELECT ${COLUMNS} FROM alert_actions
         WHERE rule_id = $1 AND action = 'pause' AND status = 'done' AND undone_at IS NULL ORDER BY at, seq`,
        [ruleId],
      );
      return rows.map(record);
    },
    async markUndone(id, by, at, byRule) {
      if (hasNul(id)) return undefined;
      if (hasNul(by)) throw new StoreTextError();
      const { rows } = await q(
        `UPDATE alert_actions SET undone_at = $3::timestamptz, undone_by = $2, undone_by_rule = $4
         WHERE id = $1 AND action = 'pause' AND status = 'done' AND undone_at IS NULL
         RETURNING ${COLUMNS}`,
        [id, by, at, byRule],
      );
      return rows[0] ? record(rows[0]) : undefined;
    },
    async unmarkUndone(id) {
      if (hasNul(id)) return;
      await q('UPDATE alert_actions SET undone_at = NULL, undone_by = NULL, undone_by_rule = false WHERE id = $1', [id]);
    },
    async takeSlot(account, day, cap) {
      if (hasNul(account)) throw new StoreTextError();
      // Inserted at 1, or counted up while below the cap; no row back when the cap is reached.
      const { rowCount } = await q(
        `INSERT INTO alert_action_days (account, day, used) SELECT $1, $2::date, 1 WHERE $3::int >= 1
         ON CONFLICT (account, day) DO UPDATE SET used = alert_action_days.used + 1 WHERE alert_action_days.used < $3::int`,
        [account, day, cap],
      );
      return (rowCount ?? 0) > 0;
    },
    async returnSlot(account, day) {
      if (hasNul(account)) return;
      await q('UPDATE alert_action_days SET used = used - 1 WHERE account = $1 AND day = $2::date AND used > 0', [account, day]);
    },
    async slotsUsed(account, day) {
      if (hasNul(account)) return 0;
      const { rows } = await q('SELECT used FROM alert_action_days WHERE account = $1 AND day = $2::date', [account, day]);
      return rows[0]?.used ?? 0;
    },
  };
}
