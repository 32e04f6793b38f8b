// Publisher API tokens: random 32-byte tokens, sealed at rest (AES-256-GCM) so admins can copy
// the URL again, looked up by HMAC-SHA-256; one token per publisher (the store enforces it), named
// by a stable id in admin routes. Each token may expire, may be limited to some addresses, and
// has an hourly request limit; its uses are counted in memory and written to the store now and then.
import { randomBytes, randomUUID } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import {
  fieldLabel,
  formatDateTimeDMY,
  isValidYmd,
  zonedDayStart,
  type CreateTokenBody,
  type PublisherToken,
  type UpdateTokenBody,
} from '@adops/core';
import { type EntityStore, StoreConflictError, type TokenChange, type TokenRecord } from '../store/types.js';
import type { LoginLimiter } from '../live/types.js';
import { type Secrets, seal, unseal, hmac } from './secrets.js';
import { DomainError } from '../domain-errors.js';

const HOUR_MS = 3_600_000;

export interface TokenServiceOptions {
  /** The reporting time zone: an expiry given as a day starts at its midnight there. */
  tz: string;
  /** Requests per hour of a token without its own limit (ADOPS_PUBLISHER_RATE_LIMIT). */
  defaultRateLimit: number;
  /** A counter of requests per token id, `max` per hour (the live backend's, shared by instances). */
  limiter: (max: number, windowMs: number) => LoginLimiter;
  /** How often the counted uses are written to the store (ms; default 10 s). */
  usageFlushMs?: number;
  log?: (line: string) => void;
}

type TokenInput = Omit<CreateTokenBody, 'publisher_name'> | UpdateTokenBody;

export class TokenService {
  /** Uses answered since the last flush, per token id. */
  private usage = new Map<string, { requests: number; lastUsedAt: number }>();
  private limiters = new Map<number, LoginLimiter>();
  private flushing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly store: EntityStore,
    private readonly secrets: Secrets,
    private readonly options: TokenServiceOptions,
  ) {
    this.timer = setInterval(() => void this.flush(), options.usageFlushMs ?? 10_000);
    this.timer.unref();
  }

  private view(r: TokenRecord, now = Date.now()): PublisherToken {
    return {
      id: r.id,
      publisher_name: r.publisher_name,
      token: unseal(this.secrets.sealKey, r.token_sealed),
      created_at: r.created_at,
      last_used_at: r.last_used_at,
      expires_at: r.expires_at,
      expired: isExpired(r, now),
      allowed_ips: [...r.allowed_ips],
      rate_limit: r.rate_limit,
      effective_rate_limit: r.rate_limit ?? this.options.defaultRateLimit,
      request_count: r.request_count,
    };
  }

  private fresh(publisher_name: string, policy: Required<TokenChange>): { record: TokenRecord; token: string } {
    const token = newPublisherToken();
    return {
      token,
      record: {
        id: randomUUID(),
        publisher_name,
        token_sealed: seal(this.secrets.sealKey, token),
        token_hash: hmac(this.secrets.hashKey, token),
        created_at: new Date().toISOString(),
        last_used_at: null,
        request_count: 0,
        ...policy,
      },
    };
  }

  /** The store's fields from an admin's input: the expiry as an instant (not in the past), the list without repeats. */
  private change(input: TokenInput, now = Date.now()): TokenChange {
    const change: TokenChange = {};
    if (input.expires_at !== undefined) change.expires_at = expiryInstant(input.expires_at, this.options.tz, now);
    if (input.allowed_ips !== undefined) change.allowed_ips = [...new Set(input.allowed_ips)];
    if (input.rate_limit !== undefined) change.rate_limit = input.rate_limit;
    return change;
  }

  async list(): Promise<PublisherToken[]> {
    await this.flush();
    const now = Date.now();
    return (await this.store.tokens.list()).map((r) => this.view(r, now));
  }

  async byId(id: string): Promise<PublisherToken | undefined> {
    await this.flush();
    const record = await this.store.tokens.byId(id);
    return record && this.view(record);
  }

  async create(input: TokenInput & { publisher_name: string }): Promise<PublisherToken> {
    const { expires_at = null, allowed_ips = [], rate_limit = null } = this.change(input);
    const { record } = this.fresh(input.publisher_name, { expires_at, allowed_ips, rate_limit });
    await this.store.tokens.create(record).catch((e) => {
      if (e instanceof StoreConflictError && e.field === 'publisher_name')
        throw new DomainError('conflict', 'Ya existe un token para ese publisher; usa Renovar');
      throw e;
    });
    return this.view(record);
  }

  /** A new token for the publisher; the id and the policy stay, the count starts over. */
  async renew(publisherName: string): Promise<PublisherToken> {
    const { record } = this.fresh(publisherName, { expires_at: null, allowed_ips: [], rate_limit: null });
    const stored = await this.store.tokens.replace(publisherName, record);
    if (!stored) throw new DomainError('not_found', 'Publisher no válido para renovar.');
    this.usage.delete(stored.id);
    return this.view(stored);
  }

  async update(id: string, input: UpdateTokenBody): Promise<PublisherToken> {
    const stored = await this.store.tokens.update(id, this.change(input));
    if (!stored) throw new DomainError('not_found', 'Token no encontrado');
    return this.view(stored);
  }

  /**
   * Revokes the token with this id. A token given instead of its id (the old
   * `DELETE /api/admin/publisher-tokens/{token}`) is refused with 410 and not deleted: a token in
   * a path ends up in proxies' and browsers' logs.
   */
  async remove(id: string): Promise<void> {
    if (await this.store.tokens.removeById(id)) {
      this.usage.delete(id);
      return;
    }
    if (await this.store.tokens.byHash(hmac(this.secrets.hashKey, id)))
      throw new DomainError('gone', 'Los tokens ya no se eliminan por el token en la ruta: usa su id (GET /api/admin/publisher-tokens)');
    throw new DomainError('not_found', 'Token no encontrado');
  }

  /** The publisher a token belongs to, or null (no checks, nothing counted). */
  async resolve(token: string): Promise<string | null> {
    return (await this.find(token))?.publisher_name ?? null;
  }

  private async find(token: string): Promise<TokenRecord | undefined> {
    if (!token || token.length > 200) return undefined;
    return this.store.tokens.byHash(hmac(this.secrets.hashKey, token));
  }

  /**
   * The publisher a request with this token may read, after every check: a known token (401),
   * not expired (401), from an allowed address (403), within its hourly limit (429 with
   * Retry-After). The use is counted.
   */
  async authorize(token: string | undefined, ip: string, now = Date.now()): Promise<string> {
    const record = token ? await this.find(token) : undefined;
    if (!record) throw new DomainError('unauthorized', 'Token de publisher no válido');
    if (isExpired(record, now))
      throw new DomainError(
        'unauthorized',
        `El token de publisher caducó el ${formatDateTimeDMY(record.expires_at, this.options.tz)}; pide uno nuevo`,
      );
    if (!allows(record.allowed_ips, ip))
      throw new DomainError('forbidden', `Este token de publisher no admite peticiones desde la dirección ${ip || 'desconocida'}`);
    const limit = record.rate_limit ?? this.options.defaultRateLimit;
    const waitMs = await this.limiter(limit).take(record.id, now);
    if (waitMs > 0) {
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      throw new DomainError('too_many', `Demasiadas peticiones con este token (límite: ${limit} por hora); vuelve a intentarlo en ${seconds} s`, {
        retryAfterSeconds: seconds,
      });
    }
    const used = this.usage.get(record.id);
    if (used) {
      used.requests++;
      used.lastUsedAt = Math.max(used.lastUsedAt, now);
    } else this.usage.set(record.id, { requests: 1, lastUsedAt: now });
    return record.publisher_name;
  }

  private limiter(max: number): LoginLimiter {
    const known = this.limiters.get(max);
    if (known) return known;
    const limiter = this.options.limiter(max, HOUR_MS);
    this.limiters.set(max, limiter);
    return limiter;
  }

  /** Writes the uses counted so far (one write per token); what fails is kept for the next flush. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.usage.size === 0) return;
      const pending = this.usage;
      this.usage = new Map();
      for (const [id, { requests, lastUsedAt }] of pending) {
        try {
          await this.store.tokens.recordUse(id, requests, new Date(lastUsedAt).toISOString());
        } catch (e) {
          const again = this.usage.get(id);
          if (again) {
            again.requests += requests;
            again.lastUsedAt = Math.max(again.lastUsedAt, lastUsedAt);
          } else this.usage.set(id, { requests, lastUsedAt });
          this.options.log?.(`publisher tokens: uses not recorded (${(e as Error).message}); trying again later`);
        }
      }
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}

function isExpired(r: Pick<TokenRecord, 'expires_at'>, now: number): boolean {
  return r.expires_at !== null && Date.parse(r.expires_at) <= now;
}

/**
 * An expiry as an instant: a day means its midnight in the reporting time zone (the token works
 * the days before it). An instant already past is refused.
 */
function expiryInstant(value: string | null, tz: string, now: number): string | null {
  if (value === null) return null;
  const instant = isValidYmd(value) ? zonedDayStart(value, tz) : new Date(value);
  if (Number.isNaN(instant.getTime())) throw new DomainError('invalid', 'Caducidad: no es una fecha válida');
  if (instant.getTime() <= now) throw new DomainError('invalid', `${fieldLabel(['expires_at'])}: la fecha ya pasó`);
  return instant.toISOString();
}

/** Whether `ip` is in the allow-list (an empty list allows every address). */
function allows(list: readonly string[], ip: string): boolean {
  if (list.length === 0) return true;
  const family = isIP(ip);
  if (family === 0) return false;
  const blocks = new BlockList();
  for (const entry of list) {
    const slash = entry.indexOf('/');
    const address = slash < 0 ? entry : entry.slice(0, slash);
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (slash < 0) blocks.addAddress(address, type);
    else blocks.addSubnet(address, Number(entry.slice(slash + 1)), type);
  }
  return blocks.check(ip, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * A publisher token: 32 random bytes, base64url, never starting with '-' or '_' (a token that
 * starts with '-' reads as an option on a command line: `adops tokens delete -Xy…` failed).
 */
export function newPublisherToken(): string {
  for (;;) {
    const token = randomBytes(32).toString('base64url');
    if (/^[A-Za-z0-9]/.test(token)) return token;
  }
}
