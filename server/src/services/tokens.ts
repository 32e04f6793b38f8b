// Publisher API tokens: random 32-byte tokens, sealed at rest (AES-256-GCM) so admins can
// copy the URL again, looked up by HMAC-SHA-256; one token per publisher (the store enforces it).
import { randomBytes } from 'node:crypto';
import type { PublisherToken } from '@adops/core';
import { type EntityStore, StoreConflictError, type TokenRecord } from '../store/types.js';
import { type Secrets, seal, unseal, hmac } from './secrets.js';
import { httpError } from '../errors.js';

export class TokenService {
  private lastUsedWrites = new Map<string, number>();

  constructor(
    private readonly store: EntityStore,
    private readonly secrets: Secrets,
  ) {}

  private view(r: TokenRecord): PublisherToken {
    return {
      publisher_name: r.publisher_name,
      token: unseal(this.secrets.sealKey, r.token_sealed),
      created_at: r.created_at,
      last_used_at: r.last_used_at,
    };
  }

  private fresh(publisher_name: string): { record: TokenRecord; token: string } {
    const token = newPublisherToken();
    return {
      token,
      record: {
        publisher_name,
        token_sealed: seal(this.secrets.sealKey, token),
        token_hash: hmac(this.secrets.hashKey, token),
        created_at: new Date().toISOString(),
        last_used_at: null,
      },
    };
  }

  async list(): Promise<PublisherToken[]> {
    return (await this.store.tokens.list()).map((r) => this.view(r));
  }

  async create(publisherName: string): Promise<PublisherToken> {
    const { record } = this.fresh(publisherName);
    await this.store.tokens.create(record).catch((e) => {
      if (e instanceof StoreConflictError && e.field === 'publisher_name') throw httpError(409, 'Ya existe un token para ese publisher; usa Renovar');
      throw e;
    });
    return this.view(record);
  }

  async renew(publisherName: string): Promise<PublisherToken> {
    const { record } = this.fresh(publisherName);
    const stored = await this.store.tokens.replace(publisherName, record);
    if (!stored) throw httpError(404, 'Publisher no válido para renovar.');
    return this.view(stored);
  }

  async remove(token: string): Promise<void> {
    const hash = hmac(this.secrets.hashKey, token);
    if (!(await this.store.tokens.removeByHash(hash))) throw httpError(404, 'Token no encontrado');
  }

  /** The publisher a token belongs to, or null; records last use (at most once a minute per instance). */
  async resolve(token: string): Promise<string | null> {
    if (!token || token.length > 200) return null;
    const hash = hmac(this.secrets.hashKey, token);
    const record = await this.store.tokens.byHash(hash);
    if (!record) return null;
    const now = Date.now();
    if ((this.lastUsedWrites.get(hash) ?? 0) < now - 60_000) {
      this.lastUsedWrites.set(hash, now);
      await this.store.tokens.touch(hash, new Date(now).toISOString());
    }
    return record.publisher_name;
  }
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
