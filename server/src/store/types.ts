// The entity store's engine-neutral interface: users, publisher tokens, campaign records,
// publishers' revenue shares and settings, one repository each. lowdb (one process) and
// PostgreSQL (several instances) implement it; uniqueness is the store's job, not the caller's.
import type { AlertRepository } from './alert-types.js';
import type { AlertActionRepository } from './alert-action-types.js';
import type { AlertEvaluationRepository } from './alert-evaluation-types.js';

export type * from './alert-types.js';
export type * from './alert-action-types.js';
export type * from './alert-evaluation-types.js';

export interface UserRecord {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  password_hash: string;
  is_admin: boolean;
  protected: boolean;
  created_at: string;
  /** Sessions issued before this instant are refused (set when the password changes). */
  password_changed_at?: string;
}

export interface TokenRecord {
  /** Stable id: admin routes and the CLI name a token by it (renewing keeps it). */
  id: string;
  publisher_name: string;
  token_sealed: string;
  token_hash: string;
  created_at: string;
  last_used_at: string | null;
  /** ISO instant from which the token is refused; null: never. */
  expires_at: string | null;
  /** Addresses and CIDR ranges (IPv4, IPv6) it is accepted from; empty: any. */
  allowed_ips: string[];
  /** Its own limit of requests per hour; null: the server's default. */
  rate_limit: number | null;
  /** Requests answered with it since it was created or renewed. */
  request_count: number;
}

/** What an admin may change on a token without renewing it. */
export type TokenChange = Partial<Pick<TokenRecord, 'expires_at' | 'allowed_ips' | 'rate_limit'>>;

export interface CampaignRecord {
  campaign_id: string;
  adset_id: string;
  ad_id: string;
  creative_id: string;
  image_hash: string;
  keyword: string;
  headline: string;
  body: string;
  objective: string;
  daily_budget: number;
  bid_amount: number;
  tracking_url: string;
  created_by: string;
  created_at: string;
}

export interface PublisherRecord {
  name: string;
  /** Share of revenue paid to the publisher, 0..1 (rate_applied). */
  revenue_share: number;
}

/** The fields of a user an update may change (id, created_at and protected never change). */
export type UserChange = Partial<Pick<UserRecord, 'first_name' | 'last_name' | 'email' | 'is_admin' | 'password_hash' | 'password_changed_at'>>;

/** Users; e-mail addresses are unique regardless of case (compared by `emailKey`). */
export interface UserRepository {
  byId(id: string): Promise<UserRecord | undefined>;
  /** The user whose e-mail equals `email` regardless of case. */
  byEmail(email: string): Promise<UserRecord | undefined>;
  /** Every user, in creation order. */
  list(): Promise<UserRecord[]>;
  /** Throws StoreConflictError (field `email`) when the e-mail is taken, `id` when the id is. */
  create(user: UserRecord): Promise<void>;
  /** Applies the given fields; undefined when no such user. StoreConflictError (`email`) when the new e-mail is taken. */
  update(id: string, change: UserChange): Promise<UserRecord | undefined>;
  /** False when no such user. */
  remove(id: string): Promise<boolean>;
  /**
   * Makes `admin` the protected admin unless one exists, atomically (two instances starting
   * at once create one): a user with its e-mail is upgraded (protected, admin, its password),
   * else `admin` is created. False when a protected admin already existed.
   */
  bootstrapAdmin(admin: UserRecord): Promise<boolean>;
}

/**
 * Publisher tokens, one per publisher: names are compared as Spanish text ignoring case but
 * not accents (`samePublisherName`); token hashes are unique.
 */
export interface TokenRepository {
  /** Every token, in creation order (a renewed token keeps its place). */
  list(): Promise<TokenRecord[]>;
  byHash(tokenHash: string): Promise<TokenRecord | undefined>;
  /** Throws StoreConflictError (`publisher_name` or `token_hash`) when taken. */
  create(token: TokenRecord): Promise<void>;
  /**
   * Replaces the token of the publisher named like `publisherName` by `token` (keeping the
   * stored spelling of the name, the id, the expiry, the allow-list and the limit; the use
   * count and last use start over); the stored record, or undefined when that publisher has none.
   */
  replace(publisherName: string, token: TokenRecord): Promise<TokenRecord | undefined>;
  byId(id: string): Promise<TokenRecord | undefined>;
  /** Applies the given fields; the stored record, or undefined when no token has that id. */
  update(id: string, change: TokenChange): Promise<TokenRecord | undefined>;
  /** False when no token has that id. */
  removeById(id: string): Promise<boolean>;
  /**
   * Adds `requests` uses to the token's count and moves its last use to `usedAt` when later
   * (no-op when it is gone). Instances call it with their counts now and then, not per request.
   */
  recordUse(id: string, requests: number, usedAt: string): Promise<void>;
}

/**
 * A signed-in session: the token's `jti` names it. A token is accepted only while its session is
 * stored, so ending a session (sign-out, password change, an admin's 'Cerrar sesión') makes the
 * token useless at once on every instance; records go when their tokens expire.
 */
export interface SessionRecord {
  id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  /** Updated at most once a minute per session (a write per request would be the store's load). */
  last_seen_at: string;
  /** The client's address as a trusted proxy saw it, at sign-in or last seen. */
  ip: string;
  /** The client's User-Agent at sign-in, cut to 256 characters. */
  user_agent: string;
}

/** Signed-in sessions; every method ignores sessions expired at `now` where it takes one. */
export interface SessionRepository {
  create(session: SessionRecord): Promise<void>;
  byId(id: string): Promise<SessionRecord | undefined>;
  /** A user's sessions not expired at `now`, newest first. */
  listByUser(userId: string, now: string): Promise<SessionRecord[]>;
  /** Records a use: last seen and address; no-op when the session is gone. */
  touch(id: string, seenAt: string, ip: string): Promise<void>;
  /** False when no such session. */
  remove(id: string): Promise<boolean>;
  /** Ends every session of the user but `exceptId`; how many ended. */
  removeByUser(userId: string, exceptId?: string): Promise<number>;
  /** Drops sessions expired at `now`; how many. */
  purgeExpired(now: string): Promise<number>;
}

/**
 * A user's two-factor sign-in (TOTP, RFC 6238): the secret sealed with the store's seal key,
 * pending until the first code confirms it (`enabled_at`), the last time step a code was
 * accepted for (a code is never accepted twice) and the hashes of the unused recovery codes.
 */
export interface TotpRecord {
  user_id: string;
  /** The base32 secret, sealed (AES-256-GCM, services/secrets.ts). */
  secret_sealed: string;
  created_at: string;
  /** Null while the enrolment waits for its first code. */
  enabled_at: string | null;
  /** The time step (Unix time / 30 s) of the last accepted code. */
  last_step: number | null;
  /** HMAC-SHA-256 of each recovery code not used yet. */
  recovery_hashes: string[];
}

/**
 * Two-factor settings, one per user (gone with the user). The changes that must not race —
 * confirming, accepting a code, spending a recovery code — are single compare-and-set writes,
 * so two sign-ins with the same code (on any instance) let one in.
 */
export interface TotpRepository {
  byUser(userId: string): Promise<TotpRecord | undefined>;
  /** Every record, enabled and pending, in user id order (the users list and `adops migrate`). */
  list(): Promise<TotpRecord[]>;
  /** Starts (or restarts) an enrolment with a new secret; false, changing nothing, when the user's 2FA is on. */
  begin(userId: string, secretSealed: string, at: string): Promise<boolean>;
  /**
   * Turns on the pending enrolment whose secret is `secretSealed`, with its first accepted step
   * and the recovery codes' hashes; false when it is not pending with that secret any more.
   */
  enable(userId: string, secretSealed: string, step: number, recoveryHashes: string[], at: string): Promise<boolean>;
  /** Records an accepted code's time step; false when 2FA is off or a code of this step or a later one was accepted already. */
  acceptStep(userId: string, step: number): Promise<boolean>;
  /** Spends a recovery code; false when 2FA is off or no unused code has that hash. */
  useRecoveryCode(userId: string, hash: string): Promise<boolean>;
  /** Turns 2FA off (or drops a pending enrolment); false when there was none. */
  remove(userId: string): Promise<boolean>;
}

/** Campaign records created from this console; campaign ids are unique. */
export interface CampaignRepository {
  /** Every record, in creation order. */
  list(): Promise<CampaignRecord[]>;
  /** Throws StoreConflictError (`campaign_id`) when the id is recorded already. */
  add(campaign: CampaignRecord): Promise<void>;
  /** Whether a recorded campaign uses the Meta image with this hash. */
  usesImage(imageHash: string): Promise<boolean>;
}

/** Publishers' revenue shares; names are unique by `publisherKey` (trimmed, lower case). */
export interface PublisherRepository {
  /** Every configured publisher, in creation order. */
  list(): Promise<PublisherRecord[]>;
  /** Sets a share; a name with the same key updates that entry (keeping its spelling). Returns the stored record. */
  set(name: string, revenueShare: number): Promise<PublisherRecord>;
  /** Adds the publishers whose key is not configured yet, in one change; configured ones are kept. */
  addMissing(publishers: ReadonlyArray<PublisherRecord>): Promise<void>;
}

/** Small JSON values by key (shared secrets). */
export interface SettingsRepository {
  get(key: string): Promise<unknown>;
  /** Stores `value` unless the key has one; returns the stored value (the first writer's, whoever it was). */
  putIfAbsent<T>(key: string, value: T): Promise<T>;
  /** Replaces the key's value by `change(current)` atomically (concurrent changes apply one after the other); returns the stored value. */
  update<T>(key: string, change: (current: T | undefined) => T): Promise<T>;
}

/**
 * One entry of the audit trail: who (a user as they were then, the system or the ingest key),
 * from which address, what (a stable action name such as `user.create`), on what, and the
 * record before and after (secrets redacted by the audit service before they get here).
 */
export interface AuditRecord {
  id: string;
  /** ISO instant, UTC. */
  at: string;
  actor_type: 'user' | 'system' | 'ingest_key';
  actor_id: string | null;
  /** The actor's e-mail at the time of the change. */
  actor_email: string | null;
  ip: string | null;
  action: string;
  target_kind: string;
  target_id: string | null;
  target_label: string | null;
  before: unknown;
  after: unknown;
  request_id: string | null;
}

/** What an audit query matches; every field optional, all given ones must hold. */
export interface AuditFilter {
  /** A user id (exact), 'system', 'ingest_key', or part of the actor's e-mail (any case). */
  actor?: string;
  /** An action name, or its prefix up to a dot ('user' matches 'user.create'). */
  action?: string;
  target_kind?: string;
  target_id?: string;
  /** ISO instants: since ≤ at < until. */
  since?: string;
  until?: string;
  /** Part of the e-mail, action, target or before/after text (any case). */
  text?: string;
}

/**
 * The audit trail: append-only (no update, no delete: the PostgreSQL table refuses them too).
 * Entries are kept forever.
 */
export interface AuditRepository {
  append(entry: AuditRecord): Promise<void>;
  /** Matching entries newest first (`asc`: oldest first) from `offset`, at most `limit`, and how many match. */
  query(filter: AuditFilter, order: 'asc' | 'desc', offset: number, limit: number): Promise<{ rows: AuditRecord[]; total: number }>;
}

export interface EntityStore {
  /** Which engine: lowdb keeps one process's data dir; postgres is shared by every instance. */
  readonly engine: 'lowdb' | 'postgres';
  readonly users: UserRepository;
  readonly tokens: TokenRepository;
  readonly campaigns: CampaignRepository;
  readonly publishers: PublisherRepository;
  readonly settings: SettingsRepository;
  readonly sessions: SessionRepository;
  /** Two-factor sign-in (TOTP), one record per user. */
  readonly totp: TotpRepository;
  /** The audit trail (append and query only). */
  readonly audit: AuditRepository;
  /** Alertas: rules, what they fired, users' channels, the evaluator's lock. */
  readonly alerts: AlertRepository;
  /** The profit guard: what campaign rules' actions did on Meta, and the daily cap per ad account. */
  readonly alertActions: AlertActionRepository;
  /** The evaluation log: what each evaluation of a rule made of each subject, kept 30 days and bounded per rule. */
  readonly alertEvaluations: AlertEvaluationRepository;
  /** Resolves when the store answers (health); throws otherwise. */
  ping(): Promise<void>;
  /** lowdb only: the whole store as one document, as of one moment (after the changes called so far): `adops backup`. */
  snapshot?(): Promise<object>;
  close(): Promise<void>;
}

export type ConflictField = 'id' | 'email' | 'publisher_name' | 'token_hash' | 'campaign_id';

/** A change refused because it would duplicate a unique value (the service answers 409). */
export class StoreConflictError extends Error {
  constructor(readonly field: ConflictField) {
    super(`store conflict: ${field} already exists`);
    this.name = 'StoreConflictError';
  }
}

/** Text the engine cannot keep (PostgreSQL's text refuses U+0000); answered as a 400. */
export class StoreTextError extends Error {
  constructor() {
    super('El texto no puede contener el carácter nulo (U+0000)');
    this.name = 'StoreTextError';
  }
}

/** The key e-mail addresses are unique by. */
export const emailKey = (email: string): string => email.trim().toLowerCase();

/** The key publishers' revenue shares are unique by (the import looks shares up by it too). */
export const publisherKey = (name: string): string => name.trim().toLowerCase();

const publisherNames = new Intl.Collator('es', { sensitivity: 'accent' });

/** Publisher tokens' names: equal as Spanish text ignoring case, accents significant. */
export const samePublisherName = (a: string, b: string): boolean => publisherNames.compare(a, b) === 0;
