// The evaluation log on PostgreSQL (migration 10): one statement records a round — each entry
// extends its subject's newest entry when that says the same, otherwise is inserted — and one
// more applies the bounds. A rule's entries go with it (foreign key, ON DELETE CASCADE).
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { AlertEvaluationRecord, AlertEvaluationRepository } from '../alert-evaluation-types.js';
import { hasNul, iso, type Query } from './db.js';

export const ALERT_EVALUATIONS_MIGRATION_SQL = `
  -- The evaluation log: what each evaluation of a rule made of each subject (figures, threshold,
  -- the guard's words, the outcome); consecutive evaluations that say the same are one entry.
  CREATE TABLE alert_evaluations (
    seq bigint GENERATED ALWAYS AS IDENTITY,
    id text NOT NULL,
    rule_id text NOT NULL REFERENCES alert_rules (id) ON DELETE CASCADE,
    subject text NOT NULL,
    outcome text NOT NULL CHECK (outcome IN ('fired', 'acted', 'cooldown', 'daily_cap', 'below_min_spend',
      'unsynced_spend', 'estimated_revenue', 'recovered', 'not_matched')),
    value double precision,
    threshold double precision,
    figures jsonb NOT NULL DEFAULT '{}',
    guard text,
    reason text NOT NULL,
    first_at timestamptz NOT NULL,
    last_at timestamptz NOT NULL,
    evaluations integer NOT NULL CHECK (evaluations >= 1),
    CONSTRAINT alert_evaluations_pkey PRIMARY KEY (id)
  );
  CREATE INDEX alert_evaluations_rule ON alert_evaluations (rule_id, last_at DESC, first_at DESC, seq);
  CREATE INDEX alert_evaluations_rule_subject ON alert_evaluations (rule_id, subject, last_at DESC);
  CREATE INDEX alert_evaluations_last_at ON alert_evaluations (last_at);
`;

const COLUMNS = 'id, rule_id, subject, outcome, value, threshold, figures, guard, reason, first_at, last_at, evaluations';

const record = (r: pg.QueryResultRow): AlertEvaluationRecord => ({
  id: r.id,
  rule_id: r.rule_id,
  subject: r.subject,
  outcome: r.outcome,
  value: r.value,
  threshold: r.threshold,
  figures: r.figures,
  guard: r.guard,
  reason: r.reason,
  first_at: iso(r.first_at)!,
  last_at: iso(r.last_at)!,
  evaluations: r.evaluations,
});

// $1 the round's instant; $2–$10 the entries as parallel arrays. An entry extends its subject's
// newest entry when every field says the same (jsonb and float equality: the same JSON numbers),
// otherwise it is inserted, in the order given (seq keeps it) — for rules that still exist (one
// deleted meanwhile takes its entries along).
const RECORD_SQL = `
WITH input AS (
  SELECT * FROM unnest($2::text[], $3::text[], $4::text[], $5::float8[], $6::float8[], $7::jsonb[], $8::text[], $9::text[], $10::text[])
    WITH ORDINALITY AS t(id, rule_id, subject, value, threshold, figures, guard, reason, outcome, ord)
),
latest AS (
  SELECT DISTINCT ON (e.rule_id, e.subject) e.seq, e.rule_id, e.subject, e.outcome, e.value, e.threshold, e.figures, e.guard, e.reason, e.last_at
  FROM alert_evaluations e JOIN (SELECT DISTINCT rule_id, subject FROM input) i ON i.rule_id = e.rule_id AND i.subject = e.subject
  ORDER BY e.rule_id, e.subject, e.last_at DESC, e.first_at DESC, e.seq
),
extended AS (
  UPDATE alert_evaluations e SET last_at = $1::timestamptz, evaluations = e.evaluations + 1
  FROM input i JOIN latest l ON l.rule_id = i.rule_id AND l.subject = i.subject
  WHERE e.seq = l.seq AND l.last_at < $1::timestamptz AND l.outcome = i.outcome
    AND l.value IS NOT DISTINCT FROM i.value AND l.threshold IS NOT DISTINCT FROM i.threshold
    AND l.figures = i.figures AND l.guard IS NOT DISTINCT FROM i.guard AND l.reason = i.reason
  RETURNING e.rule_id, e.subject
)
INSERT INTO alert_evaluations (${COLUMNS})
SELECT i.id, i.rule_id, i.subject, i.outcome, i.value, i.threshold, i.figures, i.guard, i.reason, $1::timestamptz, $1::timestamptz, 1
FROM input i JOIN alert_rules r ON r.id = i.rule_id
WHERE NOT EXISTS (SELECT 1 FROM extended x WHERE x.rule_id = i.rule_id AND x.subject = i.subject)
ORDER BY i.ord`;

// $1 the round's rules, $2 entries each keeps (their newest).
const PRUNE_SQL = `
WITH ranked AS (
  SELECT seq, row_number() OVER (PARTITION BY rule_id ORDER BY last_at DESC, first_at DESC, seq) AS n
  FROM alert_evaluations WHERE rule_id = ANY($1::text[])
)
DELETE FROM alert_evaluations e USING ranked r WHERE e.seq = r.seq AND r.n > $2::int`;

export function postgresAlertEvaluations(q: Query): AlertEvaluationRepository {
  return {
    async record(at, entries, bounds) {
      // PostgreSQL text cannot hold U+0000: such an entry (a hostile subject) is not kept.
      const kept = entries.filter((e) => !hasNul([e.subject, e.guard, e.reason, e.rule_id]));
      if (kept.length > 0)
        await q(RECORD_SQL, [
          at,
          kept.map(() => randomUUID()),
          kept.map((e) => e.rule_id),
          kept.map((e) => e.subject),
          kept.map((e) => e.value),
          kept.map((e) => e.threshold),
          kept.map((e) => JSON.stringify(e.figures)),
          kept.map((e) => e.guard),
          kept.map((e) => e.reason),
          kept.map((e) => e.outcome),
        ]);
      await q('DELETE FROM alert_evaluations WHERE last_at < $1::timestamptz', [bounds.keepSince]);
      if (kept.length > 0) await q(PRUNE_SQL, [[...new Set(kept.map((e) => e.rule_id))], bounds.perRule]);
    },
    async list(filter, offset, limit) {
      if (hasNul(filter)) return { rows: [], total: 0 };
      const where = ['rule_id = $1'];
      const params: unknown[] = [filter.rule_id];
      if (filter.subject !== undefined) where.push(`subject = $${params.push(filter.subject)}`);
      if (filter.outcome !== undefined) where.push(`outcome = $${params.push(filter.outcome)}`);
      if (filter.since !== undefined) where.push(`last_at >= $${params.push(filter.since)}::timestamptz`);
      const sql = where.join(' AND ');
      const n = params.length;
      const [page, count] = await Promise.all([
        q(`SELECT ${COLUMNS} FROM alert_evaluations WHERE ${sql} ORDER BY last_at DESC, first_at DESC, seq OFFSET $${n + 1} LIMIT $${n + 2}`, [
          ...params,
          offset,
          limit,
        ]),
        q(`SELECT count(*)::int AS n FROM alert_evaluations WHERE ${sql}`, params),
      ]);
      return { rows: page.rows.map(record), total: count.rows[0].n };
    },
    async lastEvaluated(ruleId) {
      if (hasNul(ruleId)) return null;
      const { rows } = await q('SELECT max(last_at) AS at FROM alert_evaluations WHERE rule_id = $1', [ruleId]);
      return iso(rows[0]?.at ?? null);
    },
    async removeRule(ruleId) {
      if (hasNul(ruleId)) return;
      await q('DELETE FROM alert_evaluations WHERE rule_id = $1', [ruleId]);
    },
  };
}
