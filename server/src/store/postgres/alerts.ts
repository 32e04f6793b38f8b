// Alertas on PostgreSQL (migrations 6, 8 and 9): parameterised queries only; a partial UNIQUE index keeps
// one unresolved alert per rule and subject whatever the number of evaluators, and a lock row
// with an expiry taken by one conditional upsert lets one instance evaluate at a time.
import type pg from 'pg';
import { digestsKeptFrom } from '../alert-digests.js';
import type {
  AlertChange,
  AlertDigestRecord,
  AlertFilter,
  AlertMuteRecord,
  AlertRecord,
  AlertRepository,
  AlertRuleRecord,
  AlertStateValue,
  AlertSubscriptionRecord,
  AlertUpdate,
} from '../alert-types.js';
import { StoreConflictError, StoreTextError } from '../types.js';
import { hasNul, iso, type Query } from './db.js';

export const ALERTS_MIGRATION_SQL = `
  -- Alertas: rules (their parameters as JSON), the alerts they fired (at most one unresolved
  -- per rule and subject: alerts_unresolved), each user's channels, and named locks with an
  -- expiry (one evaluator at a time across instances). A rule's alerts go with it.
  CREATE TABLE alert_rules (
    seq bigint GENERATED ALWAYS AS IDENTITY,
    id text NOT NULL,
    name text NOT NULL,
    kind text NOT NULL,
    params jsonb NOT NULL,
    enabled boolean NOT NULL,
    cooldown_minutes integer NOT NULL CHECK (cooldown_minutes >= 0),
    created_by text NOT NULL,
    created_by_email text NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    CONSTRAINT alert_rules_pkey PRIMARY KEY (id)
  );
  CREATE TABLE alerts (
    seq bigint GENERATED ALWAYS AS IDENTITY,
    id text NOT NULL,
    rule_id text NOT NULL REFERENCES alert_rules (id) ON DELETE CASCADE,
    subject text NOT NULL,
    state text NOT NULL CHECK (state IN ('open', 'resolved', 'muted')),
    message text NOT NULL,
    value double precision,
    threshold double precision,
    figures jsonb NOT NULL DEFAULT '{}',
    opened_at timestamptz NOT NULL,
    fired_at timestamptz NOT NULL,
    resolved_at timestamptz,
    muted_until timestamptz,
    muted_by text,
    fire_count integer NOT NULL DEFAULT 1,
    CONSTRAINT alerts_pkey PRIMARY KEY (id)
  );
  CREATE UNIQUE INDEX alerts_unresolved ON alerts (rule_id, subject) WHERE state <> 'resolved';
  CREATE INDEX alerts_fired_at ON alerts (fired_at DESC, opened_at DESC);
  CREATE INDEX alerts_rule_subject ON alerts (rule_id, subject, opened_at DESC);
  CREATE TABLE alert_subscriptions (
    user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    in_app boolean NOT NULL,
    email boolean NOT NULL,
    webhook_url text,
    webhook_secret text,
    rule_ids text[],
    read_at timestamptz,
    CONSTRAINT alert_subscriptions_pkey PRIMARY KEY (user_id)
  );
  CREATE TABLE store_locks (
    name text NOT NULL,
    owner text NOT NULL,
    expires_at timestamptz NOT NULL,
    CONSTRAINT store_locks_pkey PRIMARY KEY (name)
  );
`;

/**
 * Migration 8: each alert's notices (appended as JSON, oldest first), the 'Resumen diario'
 * flag of each user's channels, and the digest sent per reporting day and user — its primary
 * key is what lets one instance only claim a day's digest.
 */
export const ALERT_DIGESTS_MIGRATION_SQL = `
  ALTER TABLE alerts ADD COLUMN deliveries jsonb NOT NULL DEFAULT '[]';
  ALTER TABLE alert_subscriptions ADD COLUMN digest boolean NOT NULL DEFAULT false;
  CREATE TABLE alert_digests (
    date text NOT NULL,
    user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    status text NOT NULL CHECK (status IN ('sending', 'sent', 'failed')),
    attempts integer NOT NULL,
    detail text NOT NULL DEFAULT '',
    claimed_at timestamptz NOT NULL,
    finished_at timestamptz,
    CONSTRAINT alert_digests_pkey PRIMARY KEY (date, user_id)
  );
`;

/**
 * Migration 9: users' own mutes of alerts (an admin's mute for everyone stays the alert's state).
 * One per user and alert; they go with the alert and with the user.
 */
export const ALERT_MUTES_MIGRATION_SQL = `
  CREATE TABLE alert_mutes (
    alert_id text NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
    user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    muted_by text NOT NULL,
    muted_until timestamptz,
    fire_count integer NOT NULL,
    muted_at timestamptz NOT NULL,
    CONSTRAINT alert_mutes_pkey PRIMARY KEY (user_id, alert_id)
  );
  CREATE INDEX alert_mutes_alert ON alert_mutes (alert_id);
`;

const RULE_COLUMNS = 'id, name, kind, params, enabled, cooldown_minutes, created_by, created_by_email, created_at, updated_at, action';
const ALERT_COLUMNS =
  'id, rule_id, subject, state, message, value, threshold, figures, opened_at, fired_at, resolved_at, muted_until, muted_by, fire_count, deliveries';
const SUBSCRIPTION_COLUMNS = 'user_id, in_app, email, webhook_url, webhook_secret, rule_ids, read_at, digest';

const ruleRecord = (r: pg.QueryResultRow): AlertRuleRecord => ({
  id: r.id,
  name: r.name,
  kind: r.kind,
  params: r.params,
  enabled: r.enabled,
  cooldown_minutes: r.cooldown_minutes,
  created_by: r.created_by,
  created_by_email: r.created_by_email,
  created_at: iso(r.created_at)!,
  updated_at: iso(r.updated_at)!,
  // The profit guard's action (migration 7), present only when the rule has one.
  ...(r.action ? { action: r.action } : {}),
});

const alertRecord = (r: pg.QueryResultRow): AlertRecord => ({
  id: r.id,
  rule_id: r.rule_id,
  subject: r.subject,
  state: r.state,
  message: r.message,
  value: r.value,
  threshold: r.threshold,
  figures: r.figures,
  opened_at: iso(r.opened_at)!,
  fired_at: iso(r.fired_at)!,
  resolved_at: iso(r.resolved_at),
  muted_until: iso(r.muted_until),
  muted_by: r.muted_by,
  fire_count: r.fire_count,
  deliveries: r.deliveries,
});

const subscriptionRecord = (r: pg.QueryResultRow): AlertSubscriptionRecord => ({
  user_id: r.user_id,
  in_app: r.in_app,
  email: r.email,
  webhook_url: r.webhook_url,
  webhook_secret: r.webhook_secret,
  rule_ids: r.rule_ids,
  read_at: iso(r.read_at),
  digest: r.digest,
});

const muteRecord = (r: pg.QueryResultRow): AlertMuteRecord => ({
  alert_id: r.alert_id,
  user_id: r.user_id,
  by: r.muted_by,
  until: iso(r.muted_until),
  fire_count: r.fire_count,
  at: iso(r.muted_at)!,
});
const MUTE_COLUMNS = 'alert_id, user_id, muted_by, muted_until, fire_count, muted_at';

const digestRecord = (r: pg.QueryResultRow): AlertDigestRecord => ({
  date: r.date,
  user_id: r.user_id,
  status: r.status,
  attempts: r.attempts,
  detail: r.detail,
  claimed_at: iso(r.claimed_at)!,
  finished_at: iso(r.finished_at),
});

/** The error text of a notice, without what PostgreSQL's text cannot hold. */
const storable = (text: string) => text.replaceAll('\u0000', '');

const isUnresolvedClash = (e: unknown) =>
  (e as { code?: string; constraint?: string }).code === '23505' && (e as { constraint?: string }).constraint === 'alerts_unresolved';

function alertWhere(f: AlertFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [];
  const clauses: string[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (f.state !== undefined && f.viewer && f.state !== 'resolved') {
    // The state as the viewer sees it: an open alert they muted (their mute in force) reads as muted.
    const mine = `EXISTS (SELECT 1 FROM alert_mutes m WHERE m.alert_id = alerts.id AND m.user_id = ${p(f.viewer.user_id)}
                    AND m.fire_count = alerts.fire_count AND (m.muted_until IS NULL OR m.muted_until > ${p(f.viewer.at)}::timestamptz))`;
    clauses.push(f.state === 'open' ? `state = 'open' AND NOT ${mine}` : `(state = 'muted' OR (state = 'open' AND ${mine}))`);
  } else if (f.state !== undefined) clauses.push(`state = ${p(f.state)}`);
  if (f.rule_id !== undefined) clauses.push(`rule_id = ${p(f.rule_id)}`);
  if (f.rule_ids) clauses.push(`rule_id = ANY (${p(f.rule_ids)}::text[])`);
  if (f.fired_after !== undefined) clauses.push(`fired_at > ${p(f.fired_after)}::timestamptz`);
  return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

/** The columns an alert change may set, with their SQL cast. */
const CHANGE_COLUMNS: Record<keyof AlertChange, string> = {
  state: 'text',
  message: 'text',
  value: 'double precision',
  threshold: 'double precision',
  figures: 'jsonb',
  fired_at: 'timestamptz',
  resolved_at: 'timestamptz',
  muted_until: 'timestamptz',
  muted_by: 'text',
  fire_count: 'integer',
};

/** A number as the JSON that PostgreSQL reads back as the same double (NaN and the infinities as text). */
const jsonNumber = (v: number | null): number | string | null => (v === null || Number.isFinite(v) ? v : String(v));

export function postgresAlerts(q: Query): AlertRepository {
  const repository: AlertRepository = {
    rules: {
      async list() {
        return (await q(`SELECT ${RULE_COLUMNS} FROM alert_rules ORDER BY seq`)).rows.map(ruleRecord);
      },
      async byId(id) {
        if (hasNul(id)) return undefined;
        const { rows } = await q(`SELECT ${RULE_COLUMNS} FROM alert_rules WHERE id = $1`, [id]);
        return rows[0] ? ruleRecord(rows[0]) : undefined;
      },
      async create(r) {
        if (hasNul(r)) throw new StoreTextError();
        try {
          await q(`INSERT INTO alert_rules (${RULE_COLUMNS}) VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9, $10, $11::jsonb)`, [
            r.id,
            r.name,
            r.kind,
            JSON.stringify(r.params),
            r.enabled,
            r.cooldown_minutes,
            r.created_by,
            r.created_by_email,
            r.created_at,
            r.updated_at,
            r.action ? JSON.stringify(r.action) : null,
          ]);
        } catch (e) {
          if ((e as { code?: string }).code === '23505') throw new StoreConflictError('id');
          throw e;
        }
      },
      async update(id, c) {
        if (hasNul(id)) return undefined;
        if (hasNul(c)) throw new StoreTextError();
        const { rows } = await q(
          `UPDATE alert_rules SET
             name = COALESCE($2, name),
             kind = COALESCE($3, kind),
             params = COALESCE($4::jsonb, params),
             enabled = COALESCE($5, enabled),
             cooldown_minutes = COALESCE($6, cooldown_minutes),
             updated_at = COALESCE($7, updated_at),
             action = CASE WHEN $8::boolean THEN $9::jsonb ELSE action END
           WHERE id = $1
           RETURNING ${RULE_COLUMNS}`,
          [
            id,
            c.name ?? null,
            c.kind ?? null,
            c.params === undefined ? null : JSON.stringify(c.params),
            c.enabled ?? null,
            c.cooldown_minutes ?? null,
            c.updated_at ?? null,
            c.action !== undefined,
            c.action ? JSON.stringify(c.action) : null,
          ],
        );
        return rows[0] ? ruleRecord(rows[0]) : undefined;
      },
      async remove(id) {
        if (hasNul(id)) return false;
        return ((await q('DELETE FROM alert_rules WHERE id = $1', [id])).rowCount ?? 0) > 0;
      },
    },
    async list(filter, offset, limit) {
      if (hasNul(filter)) return { rows: [], total: 0 };
      const { where, params } = alertWhere(filter);
      const n = params.length;
      const [page, count] = await Promise.all([
        q(`SELECT ${ALERT_COLUMNS} FROM alerts ${where} ORDER BY fired_at DESC, opened_at DESC, id COLLATE "C" OFFSET $${n + 1} LIMIT $${n + 2}`, [
          ...params,
          offset,
          limit,
        ]),
        q(`SELECT count(*)::int AS n FROM alerts ${where}`, params),
      ]);
      return { rows: page.rows.map(alertRecord), total: count.rows[0].n };
    },
    async byId(id) {
      if (hasNul(id)) return undefined;
      const { rows } = await q(`SELECT ${ALERT_COLUMNS} FROM alerts WHERE id = $1`, [id]);
      return rows[0] ? alertRecord(rows[0]) : undefined;
    },
    async history(ruleId, subject, limit) {
      if (hasNul([ruleId, subject])) return [];
      const { rows } = await q(
        `SELECT ${ALERT_COLUMNS} FROM alerts WHERE rule_id = $1 AND subject = $2 ORDER BY opened_at DESC, id COLLATE "C" LIMIT $3`,
        [ruleId, subject, limit],
      );
      return rows.map(alertRecord);
    },
    async unresolved(ruleId) {
      if (hasNul(ruleId)) return [];
      const { rows } = await q(`SELECT ${ALERT_COLUMNS} FROM alerts WHERE rule_id = $1 AND state <> 'resolved' ORDER BY seq`, [ruleId]);
      return rows.map(alertRecord);
    },
    async open(a) {
      if (hasNul(a)) throw new StoreTextError();
      try {
        // A rule deleted meanwhile: nothing to open (the SELECT finds no rule).
        const { rowCount } = await q(
          `INSERT INTO alerts (${ALERT_COLUMNS})
           SELECT $1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12, $13, $14, $15::jsonb
           WHERE EXISTS (SELECT 1 FROM alert_rules WHERE id = $2)`,
          [
            a.id,
            a.rule_id,
            a.subject,
            a.state,
            a.message,
            a.value,
            a.threshold,
            JSON.stringify(a.figures),
            a.opened_at,
            a.fired_at,
            a.resolved_at,
            a.muted_until,
            a.muted_by,
            a.fire_count,
            JSON.stringify(a.deliveries ?? []),
          ],
        );
        return (rowCount ?? 0) > 0;
      } catch (e) {
        if (isUnresolvedClash(e)) return false;
        if ((e as { code?: string }).code === '23505') throw new StoreConflictError('id');
        throw e;
      }
    },
    async openMany(batch) {
      if (batch.length === 0) return [];
      if (hasNul(batch)) throw new StoreTextError();
      const rows = JSON.stringify(
        batch.map((a) => ({ ...a, value: jsonNumber(a.value), threshold: jsonNumber(a.threshold), deliveries: a.deliveries ?? [] })),
      );
      // One statement: the partial UNIQUE index (ON CONFLICT … DO NOTHING) refuses an alert whose
      // subject has an unresolved one — stored, being stored by another instance, or earlier in the
      // batch — and an alert of a rule that is gone finds no rule; another unique clash (the id) fails
      // it all. Rows go in by rule and subject, so two instances storing overlapping batches wait
      // for each other in one order (no deadlock); within a subject, in the batch's order.
      const insert = () =>
        q(
          `INSERT INTO alerts (${ALERT_COLUMNS})
           SELECT x->>'id', x->>'rule_id', x->>'subject', x->>'state', x->>'message', (x->>'value')::double precision,
                  (x->>'threshold')::double precision, x->'figures', (x->>'opened_at')::timestamptz, (x->>'fired_at')::timestamptz,
                  (x->>'resolved_at')::timestamptz, (x->>'muted_until')::timestamptz, x->>'muted_by', (x->>'fire_count')::integer, x->'deliveries'
             FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS b (x, n)
            WHERE EXISTS (SELECT 1 FROM alert_rules WHERE id = x->>'rule_id')
            ORDER BY x->>'rule_id' COLLATE "C", x->>'subject' COLLATE "C", n
           ON CONFLICT (rule_id, subject) WHERE state <> 'resolved' DO NOTHING
           RETURNING id`,
          [rows],
        );
      try {
        let result: pg.QueryResult;
        try {
          result = await insert();
        } catch (e) {
          // A rule deleted while its alerts were being stored: again, without it.
          if ((e as { code?: string }).code !== '23503') throw e;
          result = await insert();
        }
        const stored = new Set(result.rows.map((r) => r.id as string));
        return batch.map((a) => stored.has(a.id));
      } catch (e) {
        if ((e as { code?: string }).code === '23505') throw new StoreConflictError('id');
        throw e;
      }
    },
    async updateMany(batch) {
      if (batch.length === 0) return [];
      if (hasNul(batch.map((u) => u.change))) throw new StoreTextError();
      // The same alert twice (one statement would change it once), or an id no alert can have: one by one, in order.
      if (new Set(batch.map((u) => u.id)).size < batch.length || hasNul(batch.map((u) => u.id))) return sequentially(batch);
      const entries = batch.map(({ id, change, states }) => {
        const c: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(change)) if (v !== undefined && k in CHANGE_COLUMNS) c[k] = typeof v === 'number' ? jsonNumber(v) : v;
        return { id, change: c, states: states ?? null };
      });
      const sets = Object.entries(CHANGE_COLUMNS).map(([k, type]) =>
        type === 'jsonb'
          ? `${k} = CASE WHEN u.c ? '${k}' THEN u.c->'${k}' ELSE a.${k} END`
          : `${k} = CASE WHEN u.c ? '${k}' THEN (u.c->>'${k}')::${type} ELSE a.${k} END`,
      );
      try {
        // One statement: each alert changed when its state is one of its entry's (any when null).
        const { rows } = await q(
          `UPDATE alerts a SET ${sets.join(', ')}
             FROM (SELECT x->>'id' AS id, x->'change' AS c, x->'states' AS states, n FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS b (x, n)) u
            WHERE a.id = u.id AND (jsonb_typeof(u.states) IS DISTINCT FROM 'array' OR a.state IN (SELECT jsonb_array_elements_text(u.states)))
            RETURNING u.n, ${ALERT_COLUMNS.split(', ')
              .map((c) => `a.${c}`)
              .join(', ')}`,
          [JSON.stringify(entries)],
        );
        const out: Array<AlertRecord | undefined> = batch.map(() => undefined);
        for (const r of rows) out[Number(r.n) - 1] = alertRecord(r);
        return out;
      } catch (e) {
        // A reopening that would make a second unresolved alert on its subject: one by one, in
        // order, so that only that one is refused.
        if (isUnresolvedClash(e)) return sequentially(batch);
        throw e;
      }
    },
    async update(id, change, states?: readonly AlertStateValue[]) {
      if (hasNul(id)) return undefined;
      if (hasNul(change)) throw new StoreTextError();
      const params: unknown[] = [id];
      const sets: string[] = [];
      for (const [k, v] of Object.entries(change) as Array<[keyof AlertChange, unknown]>) {
        if (v === undefined || !(k in CHANGE_COLUMNS)) continue;
        params.push(k === 'figures' ? JSON.stringify(v) : v);
        sets.push(`${k} = $${params.length}::${CHANGE_COLUMNS[k]}`);
      }
      let where = 'id = $1';
      if (states) {
        params.push(states);
        where += ` AND state = ANY ($${params.length}::text[])`;
      }
      try {
        const { rows } = sets.length
          ? await q(`UPDATE alerts SET ${sets.join(', ')} WHERE ${where} RETURNING ${ALERT_COLUMNS}`, params)
          : await q(`SELECT ${ALERT_COLUMNS} FROM alerts WHERE ${where}`, params);
        return rows[0] ? alertRecord(rows[0]) : undefined;
      } catch (e) {
        if (isUnresolvedClash(e)) return undefined;
        throw e;
      }
    },
    async mute(m) {
      if (hasNul(m.alert_id)) return undefined;
      if (hasNul(m)) throw new StoreTextError();
      try {
        // One statement: the alert's firing read as the mute is stored; nothing for a resolved or missing alert.
        const { rows } = await q(
          `INSERT INTO alert_mutes (${MUTE_COLUMNS})
           SELECT a.id, $2, $3, $4::timestamptz, a.fire_count, $5::timestamptz FROM alerts a WHERE a.id = $1 AND a.state <> 'resolved'
           ON CONFLICT (user_id, alert_id) DO UPDATE SET muted_by = EXCLUDED.muted_by, muted_until = EXCLUDED.muted_until,
             fire_count = EXCLUDED.fire_count, muted_at = EXCLUDED.muted_at
           RETURNING ${MUTE_COLUMNS}`,
          [m.alert_id, m.user_id, m.by, m.until, m.at],
        );
        return rows[0] ? muteRecord(rows[0]) : undefined;
      } catch (e) {
        // A user that is gone (or went meanwhile) has nothing to mute.
        if ((e as { code?: string }).code === '23503') return undefined;
        throw e;
      }
    },
    async unmute(alertId, userId) {
      if (hasNul([alertId, userId])) return false;
      return ((await q('DELETE FROM alert_mutes WHERE alert_id = $1 AND user_id = $2', [alertId, userId])).rowCount ?? 0) > 0;
    },
    async mutes({ user_id, alert_ids }) {
      if (hasNul([user_id ?? '', ...(alert_ids ?? [])])) return [];
      const { rows } = await q(
        `SELECT ${MUTE_COLUMNS} FROM alert_mutes
          WHERE ($1::text IS NULL OR user_id = $1) AND ($2::text[] IS NULL OR alert_id = ANY ($2::text[]))
          ORDER BY muted_at, user_id COLLATE "C", alert_id COLLATE "C"`,
        [user_id ?? null, alert_ids ?? null],
      );
      return rows.map(muteRecord);
    },
    async subscription(userId) {
      if (hasNul(userId)) return undefined;
      const { rows } = await q(`SELECT ${SUBSCRIPTION_COLUMNS} FROM alert_subscriptions WHERE user_id = $1`, [userId]);
      return rows[0] ? subscriptionRecord(rows[0]) : undefined;
    },
    async setSubscription(s) {
      if (hasNul(s)) throw new StoreTextError();
      await q(
        `INSERT INTO alert_subscriptions (${SUBSCRIPTION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6::text[], $7, $8)
         ON CONFLICT (user_id) DO UPDATE SET in_app = EXCLUDED.in_app, email = EXCLUDED.email, webhook_url = EXCLUDED.webhook_url,
           webhook_secret = EXCLUDED.webhook_secret, rule_ids = EXCLUDED.rule_ids, read_at = EXCLUDED.read_at, digest = EXCLUDED.digest`,
        [s.user_id, s.in_app, s.email, s.webhook_url, s.webhook_secret, s.rule_ids, s.read_at, s.digest ?? false],
      );
    },
    async subscriptions() {
      return (await q(`SELECT ${SUBSCRIPTION_COLUMNS} FROM alert_subscriptions ORDER BY user_id COLLATE "C"`)).rows.map(subscriptionRecord);
    },
    async acquireLock(name, owner, now, until) {
      if (hasNul([name, owner])) throw new StoreTextError();
      // Inserted when free; taken over when expired or already ours; else no row comes back.
      const { rowCount } = await q(
        `INSERT INTO store_locks (name, owner, expires_at) VALUES ($1, $2, $4::timestamptz)
         ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at
         WHERE store_locks.owner = EXCLUDED.owner OR store_locks.expires_at <= $3::timestamptz`,
        [name, owner, now, until],
      );
      return (rowCount ?? 0) > 0;
    },
    async releaseLock(name, owner) {
      if (hasNul([name, owner])) return;
      await q('DELETE FROM store_locks WHERE name = $1 AND owner = $2', [name, owner]);
    },
    async addDelivery(alertId, d) {
      if (hasNul(alertId)) return;
      const delivery = { ...d, to: storable(d.to), detail: storable(d.detail) };
      // One statement: notices of one alert finishing at once all stay.
      await q(`UPDATE alerts SET deliveries = deliveries || jsonb_build_array($2::jsonb) WHERE id = $1`, [alertId, JSON.stringify(delivery)]);
    },
    async claimDigest(date, userId, at, retryBefore, maxAttempts) {
      if (hasNul([date, userId])) return false;
      await q('DELETE FROM alert_digests WHERE date < $1', [digestsKeptFrom(date)]);
      // Inserted when none; taken again when it failed long enough ago with tries left; else no row.
      const { rowCount } = await q(
        `INSERT INTO alert_digests (date, user_id, status, attempts, claimed_at) VALUES ($1, $2, 'sending', 1, $3::timestamptz)
         ON CONFLICT (date, user_id) DO UPDATE SET status = 'sending', attempts = alert_digests.attempts + 1,
           claimed_at = EXCLUDED.claimed_at, finished_at = NULL
         WHERE alert_digests.status = 'failed' AND alert_digests.attempts < $5 AND alert_digests.claimed_at <= $4::timestamptz`,
        [date, userId, at, retryBefore, maxAttempts],
      );
      return (rowCount ?? 0) > 0;
    },
    async finishDigest(date, userId, status, detail, at) {
      if (hasNul([date, userId])) return;
      await q('UPDATE alert_digests SET status = $3, detail = $4, finished_at = $5::timestamptz WHERE date = $1 AND user_id = $2', [
        date,
        userId,
        status,
        storable(detail),
        at,
      ]);
    },
    async digests(date) {
      if (hasNul(date)) return [];
      const { rows } = await q(
        'SELECT date, user_id, status, attempts, detail, claimed_at, finished_at FROM alert_digests WHERE date = $1 ORDER BY user_id COLLATE "C"',
        [date],
      );
      return rows.map(digestRecord);
    },
  };
  /** updateMany's entries one statement each, in order. */
  const sequentially = async (batch: readonly AlertUpdate[]): Promise<Array<AlertRecord | undefined>> => {
    const out: Array<AlertRecord | undefined> = [];
    for (const { id, change, states } of batch) out.push(await repository.update(id, change, states));
    return out;
  };
  return repository;
}
