// The entity store on PostgreSQL, shared by every API instance: parameterised queries only,
// UNIQUE constraints instead of a serialised writer (a duplicate becomes StoreConflictError),
// transactions where a change reads before it writes, and versioned schema migrations applied
// once under an advisory lock (several instances may start at once).
import pg from 'pg';
import {
  type AuditFilter,
  type AuditRecord,
  type CampaignRecord,
  type ConflictField,
  type EntityStore,
  emailKey,
  type PublisherRecord,
  publisherKey,
  type SessionRecord,
  StoreConflictError,
  StoreTextError,
  type TokenRecord,
  type TotpRecord,
  type UserRecord,
} from './types.js';
import { ALERT_DIGESTS_MIGRATION_SQL, ALERT_MUTES_MIGRATION_SQL, ALERTS_MIGRATION_SQL, postgresAlerts } from './postgres-alerts.js';
import { ALERT_ACTION_HOLD_MIGRATION_SQL, ALERT_ACTIONS_MIGRATION_SQL, postgresAlertActions } from './postgres-alert-actions.js';
import { ALERT_EVALUATIONS_MIGRATION_SQL, postgresAlertEvaluations } from './postgres-alert-evaluations.js';

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

/** PostgreSQL's text and jsonb cannot hold U+0000. */
function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value && typeof value === 'object') return Object.entries(value).some(([k, v]) => k.includes('\u0000') || containsNul(v));
  return false;
}

function translate(e: unknown): unknown {
  const err = e as { code?: string; constraint?: string };
  if (err.code === '23505' && err.constraint && CONFLICTS[err.constraint]) return new StoreConflictError(CONFLICTS[err.constraint]);
  // invalid byte sequence / untranslatable character: a NUL that slipped through.
  if (err.code === '22021' || err.code === '22P05') return new StoreTextError();
  return e;
}

const iso = (v: Date | string): string => (v instanceof Date ? v : new Date(v)).toISOString();

const AUDIT_COLUMNS = 'id, at, actor_type, actor_id, actor_email, ip, action, target_kind, target_id, target_label, before, after, request_id';

const auditRecord = (r: pg.QueryResultRow): AuditRecord => ({
  id: r.id,
  at: iso(r.at),
  actor_type: r.actor_type,
  actor_id: r.actor_id,
  actor_email: r.actor_email,
  ip: r.ip,
  action: r.action,
  target_kind: r.target_kind,
  target_id: r.target_id,
  target_label: r.target_label,
  before: r.before,
  after: r.after,
  request_id: r.request_id,
});

/** The WHERE clause of an audit query and its parameters (the rules of lowdb-audit's auditMatches). */
function auditWhere(f: AuditFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [];
  const clauses: string[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (f.actor !== undefined) {
    const a = p(f.actor);
    clauses.push(
      `((actor_type <> 'user' AND actor_type = lower(${a})) OR actor_id = ${a} OR strpos(lower(coalesce(actor_email, '')), lower(${a})) > 0)`,
    );
  }
  if (f.action !== undefined) {
    const a = p(f.action);
    clauses.push(`(action = ${a} OR left(action, length(${a}) + 1) = ${a} || '.')`);
  }
  if (f.target_kind !== undefined) clauses.push(`target_kind = ${p(f.target_kind)}`);
  if (f.target_id !== undefined) clauses.push(`target_id = ${p(f.target_id)}`);
  if (f.since !== undefined) clauses.push(`at >= ${p(f.since)}::timestamptz`);
  if (f.until !== undefined) clauses.push(`at < ${p(f.until)}::timestamptz`);
  if (f.text !== undefined)
    clauses.push(
      `strpos(lower(concat_ws(' ', actor_email, action, target_kind, target_id, target_label, ip, before::text, after::text)), lower(${p(f.text)})) > 0`,
    );
  return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

const USER_COLUMNS = 'id, first_name, last_name, email, password_hash, is_admin, protected, created_at, password_changed_at';
const TOKEN_COLUMNS = 'id, publisher_name, token_sealed, token_hash, created_at, last_used_at, expires_at, allowed_ips, rate_limit, request_count';
const SESSION_COLUMNS = 'id, user_id, created_at, expires_at, last_seen_at, ip, user_agent';
const CAMPAIGN_COLUMNS =
  'campaign_id, adset_id, ad_id, creative_id, image_hash, keyword, headline, body, objective, daily_budget, bid_amount, tracking_url, created_by, created_at';

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

const sessionRecord = (r: pg.QueryResultRow): SessionRecord => ({
  id: r.id,
  user_id: r.user_id,
  created_at: iso(r.created_at),
  expires_at: iso(r.expires_at),
  last_seen_at: iso(r.last_seen_at),
  ip: r.ip,
  user_agent: r.user_agent,
});

const TOTP_COLUMNS = 'user_id, secret_sealed, created_at, enabled_at, last_step, recovery_hashes';

const totpRecord = (r: pg.QueryResultRow): TotpRecord => ({
  user_id: r.user_id,
  secret_sealed: r.secret_sealed,
  created_at: iso(r.created_at),
  enabled_at: r.enabled_at ? iso(r.enabled_at) : null,
  last_step: r.last_step === null ? null : Number(r.last_step),
  recovery_hashes: r.recovery_hashes,
});

const campaignRecord = (r: pg.QueryResultRow): CampaignRecord => ({
  campaign_id: r.campaign_id,
  adset_id: r.adset_id,
  ad_id: r.ad_id,
  creative_id: r.creative_id,
  image_hash: r.image_hash,
  keyword: r.keyword,
  headline: r.headline,
  body: r.body,
  objective: r.objective,
  daily_budget: r.daily_budget,
  bid_amount: r.bid_amount,
  tracking_url: r.tracking_url,
  created_by: r.created_by,
  created_at: iso(r.created_at),
});

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

/** Runs a parameterised statement; duplicates and NULs come back as the store's typed errors. */
async function run(db: Queryable, sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  if (params.some(containsNul)) throw new StoreTextError();
  try {
    return await db.query(sql, params);
  } catch (e) {
    throw translate(e);
  }
}

/** `work` inside BEGIN … COMMIT on one connection (rolled back when it throws). */
async function transaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
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

export interface PostgresStoreOptions {
  /** Connections in the pool (default 10). */
  maxConnections?: number;
  /** Where errors of idle connections are reported (the pool replaces them). */
  log?: (line: string) => void;
}

export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<EntityStore> {
  const pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 10, application_name: 'adops' });
  pool.on('error', (e) => options.log?.(`postgres: idle connection failed: ${e.message}`));
  try {
    await migrate(pool);
  } catch (e) {
    await pool.end();
    throw e;
  }
  const q = (sql: string, params?: unknown[]) => run(pool, sql, params);

  return {
    engine: 'postgres',
    users: {
      async byId(id) {
        if (containsNul(id)) return undefined;
        const { rows } = await q(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]);
        return rows[0] ? userRecord(rows[0]) : undefined;
      },
      async byEmail(email) {
        if (containsNul(email)) return undefined;
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
        if (containsNul(id)) return undefined;
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
        if (containsNul(id)) return false;
        return ((await q('DELETE FROM users WHERE id = $1', [id])).rowCount ?? 0) > 0;
      },
      bootstrapAdmin(a) {
        if (containsNul(a)) return Promise.reject(new StoreTextError());
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
    },
    tokens: {
      async list() {
        return (await q(`SELECT ${TOKEN_COLUMNS} FROM publisher_tokens ORDER BY seq`)).rows.map(tokenRecord);
      },
      async byHash(hash) {
        if (containsNul(hash)) return undefined;
        const { rows } = await q(`SELECT ${TOKEN_COLUMNS} FROM publisher_tokens WHERE token_hash = $1`, [hash]);
        return rows[0] ? tokenRecord(rows[0]) : undefined;
      },
      async byId(id) {
        if (containsNul(id)) return undefined;
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
        if (containsNul(publisherName)) return undefined;
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
        if (containsNul(id)) return undefined;
        if (containsNul(c)) throw new StoreTextError();
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
        if (containsNul(id)) return false;
        return ((await q('DELETE FROM publisher_tokens WHERE id = $1', [id])).rowCount ?? 0) > 0;
      },
      async recordUse(id, requests, usedAt) {
        if (containsNul(id)) return;
        await q(
          `UPDATE publisher_tokens SET request_count = request_count + $2,
             last_used_at = GREATEST(coalesce(last_used_at, $3::timestamptz), $3::timestamptz)
           WHERE id = $1`,
          [id, requests, usedAt],
        );
      },
    },
    campaigns: {
      async list() {
        return (await q(`SELECT ${CAMPAIGN_COLUMNS} FROM campaigns ORDER BY seq`)).rows.map(campaignRecord);
      },
      async add(c) {
        await q(`INSERT INTO campaigns (${CAMPAIGN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`, [
          c.campaign_id,
          c.adset_id,
          c.ad_id,
          c.creative_id,
          c.image_hash,
          c.keyword,
          c.headline,
          c.body,
          c.objective,
          c.daily_budget,
          c.bid_amount,
          c.tracking_url,
          c.created_by,
          c.created_at,
        ]);
      },
      async usesImage(hash) {
        if (containsNul(hash)) return false;
        return (await q('SELECT 1 FROM campaigns WHERE image_hash = $1 LIMIT 1', [hash])).rowCount! > 0;
      },
    },
    publishers: {
      async list() {
        return (await q('SELECT name, revenue_share FROM publishers ORDER BY seq')).rows.map((r) => ({
          name: r.name,
          revenue_share: r.revenue_share,
        }));
      },
      async set(name, revenueShare) {
        const { rows } = await q(
          `INSERT INTO publishers (name, name_key, revenue_share) VALUES ($1, $2, $3)
           ON CONFLICT (name_key) DO UPDATE SET revenue_share = EXCLUDED.revenue_share
           RETURNING name, revenue_share`,
          [name, publisherKey(name), revenueShare],
        );
        return { name: rows[0].name, revenue_share: rows[0].revenue_share };
      },
      async addMissing(publishers: ReadonlyArray<PublisherRecord>) {
        if (publishers.length === 0) return;
        // One statement: all of them or none; keys taken meanwhile (or twice in the list) are skipped.
        await q(
          `INSERT INTO publishers (name, name_key, revenue_share)
           SELECT name, name_key, revenue_share
           FROM unnest($1::text[], $2::text[], $3::double precision[]) WITH ORDINALITY AS t(name, name_key, revenue_share, position)
           ORDER BY position
           ON CONFLICT (name_key) DO NOTHING`,
          [publishers.map((p) => p.name), publishers.map((p) => publisherKey(p.name)), publishers.map((p) => p.revenue_share)],
        );
      },
    },
    settings: {
      async get(key) {
        if (containsNul(key)) return undefined;
        const { rows } = await q('SELECT value FROM settings WHERE key = $1', [key]);
        return rows[0]?.value;
      },
      async putIfAbsent<T>(key: string, value: T): Promise<T> {
        if (containsNul(key) || containsNul(value)) throw new StoreTextError();
        // A concurrent first writer makes this insert wait, then do nothing; the read sees its value.
        await q('INSERT INTO settings (key, value) VALUES ($1, $2::jsonb) ON CONFLICT (key) DO NOTHING', [key, JSON.stringify(value)]);
        const { rows } = await q('SELECT value FROM settings WHERE key = $1', [key]);
        return rows[0].value as T;
      },
      async update<T>(key: string, change: (current: T | undefined) => T): Promise<T> {
        if (containsNul(key)) throw new StoreTextError();
        return transaction(pool, async (client) => {
          // The row is locked (or, when missing, its key: a concurrent first change waits on the insert).
          await client.query('INSERT INTO settings (key, value) VALUES ($1, $2::jsonb) ON CONFLICT (key) DO NOTHING', [key, 'null']);
          const { rows } = await client.query('SELECT value FROM settings WHERE key = $1 FOR UPDATE', [key]);
          const value = change((rows[0]?.value ?? undefined) as T | undefined);
          if (containsNul(value)) throw new StoreTextError();
          await client.query('UPDATE settings SET value = $2::jsonb WHERE key = $1', [key, JSON.stringify(value)]);
          return value;
        });
      },
    },
    sessions: {
      async create(x) {
        if (containsNul(x)) throw new StoreTextError();
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
        if (containsNul(id)) return undefined;
        const { rows } = await q(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = $1`, [id]);
        return rows[0] ? sessionRecord(rows[0]) : undefined;
      },
      async listByUser(userId, now) {
        if (containsNul(userId)) return [];
        const { rows } = await q(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE user_id = $1 AND expires_at > $2 ORDER BY created_at DESC`, [
          userId,
          now,
        ]);
        return rows.map(sessionRecord);
      },
      async touch(id, seenAt, ip) {
        if (containsNul(id) || containsNul(ip)) return;
        await q('UPDATE sessions SET last_seen_at = $2, ip = $3 WHERE id = $1', [id, seenAt, ip]);
      },
      async remove(id) {
        if (containsNul(id)) return false;
        return ((await q('DELETE FROM sessions WHERE id = $1', [id])).rowCount ?? 0) > 0;
      },
      async removeByUser(userId, exceptId) {
        if (containsNul(userId)) return 0;
        return (await q('DELETE FROM sessions WHERE user_id = $1 AND id IS DISTINCT FROM $2', [userId, exceptId ?? null])).rowCount ?? 0;
      },
      async purgeExpired(now) {
        return (await q('DELETE FROM sessions WHERE expires_at <= $1', [now])).rowCount ?? 0;
      },
    },
    audit: {
      async append(e) {
        const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));
        await q(`INSERT INTO audit_log (${AUDIT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12::jsonb, $13)`, [
          e.id,
          e.at,
          e.actor_type,
          e.actor_id,
          e.actor_email,
          e.ip,
          e.action,
          e.target_kind,
          e.target_id,
          e.target_label,
          json(e.before),
          json(e.after),
          e.request_id,
        ]);
      },
      async query(filter, order, offset, limit) {
        if (containsNul(filter)) return { rows: [], total: 0 };
        const { where, params } = auditWhere(filter);
        const dir = order === 'asc' ? 'ASC' : 'DESC';
        const n = params.length;
        const [page, count] = await Promise.all([
          q(`SELECT ${AUDIT_COLUMNS} FROM audit_log ${where} ORDER BY at ${dir}, seq ${dir} OFFSET $${n + 1} LIMIT $${n + 2}`, [
            ...params,
            offset,
            limit,
          ]),
          q(`SELECT count(*)::int AS n FROM audit_log ${where}`, params),
        ]);
        return { rows: page.rows.map(auditRecord), total: count.rows[0].n };
      },
    },
    totp: {
      async byUser(userId) {
        if (containsNul(userId)) return undefined;
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
        if (containsNul(userId)) return false;
        const { rowCount } = await q(
          `UPDATE user_totp SET enabled_at = $3, last_step = $4, recovery_hashes = $5::text[]
           WHERE user_id = $1 AND secret_sealed = $2 AND enabled_at IS NULL`,
          [userId, secretSealed, at, step, recoveryHashes],
        );
        return (rowCount ?? 0) > 0;
      },
      async acceptStep(userId, step) {
        if (containsNul(userId)) return false;
        const { rowCount } = await q(
          `UPDATE user_totp SET last_step = $2
           WHERE user_id = $1 AND enabled_at IS NOT NULL AND (last_step IS NULL OR last_step < $2)`,
          [userId, step],
        );
        return (rowCount ?? 0) > 0;
      },
      async useRecoveryCode(userId, hash) {
        if (containsNul(userId) || containsNul(hash)) return false;
        const { rowCount } = await q(
          `UPDATE user_totp SET recovery_hashes = array_remove(recovery_hashes, $2)
           WHERE user_id = $1 AND enabled_at IS NOT NULL AND $2 = ANY (recovery_hashes)`,
          [userId, hash],
        );
        return (rowCount ?? 0) > 0;
      },
      async remove(userId) {
        if (containsNul(userId)) return false;
        return ((await q('DELETE FROM user_totp WHERE user_id = $1', [userId])).rowCount ?? 0) > 0;
      },
    },
    alerts: postgresAlerts(q),
    alertActions: postgresAlertActions(q),
    alertEvaluations: postgresAlertEvaluations(q),
    ping: async () => {
      await q('SELECT 1');
    },
    close: () => pool.end(),
  };
}
