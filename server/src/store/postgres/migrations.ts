// The entity schema on PostgreSQL: versioned migrations, each applied once in its own
// transaction and in order, under an advisory lock (several instances may start at once).
import type pg from 'pg';
import { ALERT_DIGESTS_MIGRATION_SQL, ALERT_MUTES_MIGRATION_SQL, ALERTS_MIGRATION_SQL } from './alerts.js';
import { ALERT_ACTION_HOLD_MIGRATION_SQL, ALERT_ACTIONS_MIGRATION_SQL } from './alert-actions.js';
import { ALERT_EVALUATIONS_MIGRATION_SQL } from './alert-evaluations.js';

/** Each migration runs once, in its own transaction, in version order; never edit one that shipped. */
export const MIGRATIONS: ReadonlyArray<{ version: number; name: string; sql: string }> = [
  {
    version: 1,
    name: 'entities',
    sql: `
      -- Publisher tokens' names compare as Intl.Collator('es', { sensitivity: 'accent' }) does:
      -- case ignored, accents significant (ICU strength 2).
      CREATE COLLATION adops_publisher_name (provider = icu, locale = 'es-u-ks-level2', deterministic = false);

      CREATE TABLE users (
        seq bigint GENERATED ALWAYS AS IDENTITY,
        id text NOT NULL,
        first_name text NOT NULL,
        last_name text NOT NULL,
        email text NOT NULL,
        email_key text NOT NULL,
        password_hash text NOT NULL,
        is_admin boolean NOT NULL,
        protected boolean NOT NULL,
        created_at timestamptz NOT NULL,
        password_changed_at timestamptz,
        CONSTRAINT users_pkey PRIMARY KEY (id),
        CONSTRAINT users_email_key UNIQUE (email_key)
      );

      CREATE TABLE publisher_tokens (
        seq bigint GENERATED ALWAYS AS IDENTITY,
        publisher_name text COLLATE adops_publisher_name NOT NULL,
        token_sealed text NOT NULL,
        token_hash text NOT NULL,
        created_at timestamptz NOT NULL,
        last_used_at timestamptz,
        CONSTRAINT publisher_tokens_pkey PRIMARY KEY (token_hash),
        CONSTRAINT publisher_tokens_publisher_name_key UNIQUE (publisher_name)
      );

      CREATE TABLE campaigns (
        seq bigint GENERATED ALWAYS AS IDENTITY,
        campaign_id text NOT NULL,
        adset_id text NOT NULL,
        ad_id text NOT NULL,
        creative_id text NOT NULL,
        image_hash text NOT NULL,
        keyword text NOT NULL,
        headline text NOT NULL,
        body text NOT NULL,
        objective text NOT NULL,
        daily_budget double precision NOT NULL,
        bid_amount double precision NOT NULL,
        tracking_url text NOT NULL,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT campaigns_pkey PRIMARY KEY (campaign_id)
      );
      CREATE INDEX campaigns_image_hash ON campaigns (image_hash);

      -- name_key is the store's publisherKey(name): the same key the import looks shares up by.
      CREATE TABLE publishers (
        seq bigint GENERATED ALWAYS AS IDENTITY,
        name text NOT NULL,
        name_key text NOT NULL,
        revenue_share double precision NOT NULL,
        CONSTRAINT publishers_pkey PRIMARY KEY (name_key)
      );

      CREATE TABLE settings (
        key text NOT NULL,
        value jsonb NOT NULL,
        CONSTRAINT settings_pkey PRIMARY KEY (key)
      );
    `,
  },
  {
    version: 2,
    name: 'sessions',
    sql: `
      -- Signed-in sessions: a token is accepted only while its row exists. Deleting the user
      -- ends them with it.
      CREATE TABLE sessions (
        id text NOT NULL,
        user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        ip text NOT NULL,
        user_agent text NOT NULL,
        CONSTRAINT sessions_pkey PRIMARY KEY (id)
      );
      CREATE INDEX sessions_user_id ON sessions (user_id);
      CREATE INDEX sessions_expires_at ON sessions (expires_at);
    `,
  },
  {
    version: 3,
    name: 'user_totp',
    sql: `
      -- Two-factor sign-in (TOTP): one row per user, gone with the user. enabled_at is null
      -- while the enrolment waits for its first code; last_step is the time step of the last
      -- accepted code (never accepted twice); recovery_hashes the unused recovery codes' HMACs.
      CREATE TABLE user_totp (
        seq bigint GENERATED ALWAYS AS IDENTITY,
        user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        secret_sealed text NOT NULL,
        created_at timestamptz NOT NULL,
        enabled_at timestamptz,
        last_step bigint,
        recovery_hashes text[] NOT NULL DEFAULT '{}',
        CONSTRAINT user_totp_pkey PRIMARY KEY (user_id)
      );
    `,
  },
  {
    version: 4,
    name: 'publisher_token_policies',
    sql: `
      -- Publisher tokens gain a stable id (admin routes name a token by it, never by the token),
      -- an expiry, an allow-list of addresses and CIDR ranges, their own hourly limit and a use
      -- count. Tokens stored before get an id each, no expiry, no list, the default limit.
      ALTER TABLE publisher_tokens
        ADD COLUMN id text,
        ADD COLUMN expires_at timestamptz,
        ADD COLUMN allowed_ips text[] NOT NULL DEFAULT '{}',
        ADD COLUMN rate_limit integer CHECK (rate_limit > 0),
        ADD COLUMN request_count bigint NOT NULL DEFAULT 0;
      UPDATE publisher_tokens SET id = gen_random_uuid()::text;
      ALTER TABLE publisher_tokens ALTER COLUMN id SET NOT NULL;
      ALTER TABLE publisher_tokens ADD CONSTRAINT publisher_tokens_id_key UNIQUE (id);
    `,
  },
  {
    version: 5,
    name: 'audit_log',
    sql: `
      -- The audit trail: append-only. Rows are inserted, never changed or removed (the trigger
      -- refuses UPDATE, DELETE and TRUNCATE, whoever asks). Kept forever.
      CREATE TABLE audit_log (
        seq bigint GENERATED ALWAYS AS IDENTITY,
        id text NOT NULL,
        at timestamptz NOT NULL,
        actor_type text NOT NULL CHECK (actor_type IN ('user', 'system', 'ingest_key')),
        actor_id text,
        actor_email text,
        ip text,
        action text NOT NULL,
        target_kind text NOT NULL,
        target_id text,
        target_label text,
        before jsonb,
        after jsonb,
        request_id text,
        CONSTRAINT audit_log_pkey PRIMARY KEY (seq),
        CONSTRAINT audit_log_id_key UNIQUE (id)
      );
      CREATE INDEX audit_log_at ON audit_log (at DESC, seq DESC);
      CREATE INDEX audit_log_action ON audit_log (action);
      CREATE INDEX audit_log_actor_id ON audit_log (actor_id);
      CREATE INDEX audit_log_target ON audit_log (target_kind, target_id);
      CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $fn$
        BEGIN
          RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
        END
      $fn$;
      CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
        FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
      CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
        FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
    `,
  },
  { version: 6, name: 'alerts', sql: ALERTS_MIGRATION_SQL },
  { version: 7, name: 'alert_actions', sql: ALERT_ACTIONS_MIGRATION_SQL },
  { version: 8, name: 'alert digests and deliveries', sql: ALERT_DIGESTS_MIGRATION_SQL },
  { version: 9, name: "users' own alert mutes", sql: ALERT_MUTES_MIGRATION_SQL },
  { version: 10, name: 'alert evaluation log', sql: ALERT_EVALUATIONS_MIGRATION_SQL },
  { version: 11, name: "alert actions: a hold pause's own resume", sql: ALERT_ACTION_HOLD_MIGRATION_SQL },
];

/** Applies the migrations this database lacks, one instance at a time (pg_advisory_lock). */
export async function migrate(pool: pg.Pool): Promise<number[]> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query("SELECT pg_advisory_lock(hashtext('adops:schema_migrations'))");
    try {
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const done = new Set((await client.query('SELECT version FROM schema_migrations')).rows.map((r) => Number(r.version)));
      const latest = Math.max(...MIGRATIONS.map((m) => m.version));
      const newest = Math.max(0, ...done);
      if (newest > latest)
        throw new Error(`the database's entity schema is at version ${newest}, newer than this server's (${latest}): upgrade the server`);
      const applied: number[] = [];
      for (const m of MIGRATIONS) {
        if (done.has(m.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(m.sql);
          await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
          await client.query('COMMIT');
        } catch (e) {
          await client.query('ROLLBACK');
          throw new Error(`entity schema migration ${m.version} (${m.name}) failed: ${(e as Error).message}`);
        }
        applied.push(m.version);
      }
      return applied;
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext('adops:schema_migrations'))").catch((e: Error) => {
        broken = e;
      });
    }
  } finally {
    client.release(broken);
  }
}
