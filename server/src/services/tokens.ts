// Publisher API tokens: random 32-byte tokens, sealed at rest (AES-256-GCM) so admins can
// copy the URL again, looked up by HMAC-SHA-256; one token per publisher.
import { randomBytes } from 'node:crypto';
import type { PublisherToken } from '@adops/core';
import type { Store, TokenRecord } from '../store/store.js';
import { type Secrets, seal, unseal, hmac } from './secrets.js';
import { httpError } from '../errors.js';

const sameName = (a: string, b: string) => a.localeCompare(b, 'es', { sensitivity: 'accent' }) === 0;

export class TokenService {
  private lastUsedWrites = new Map<string, number>();

  constructor(
    private readonly store: Store,
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

  list(): PublisherToken[] {
    return this.store.data.publisherTokens.map((r) => this.view(r));
  }

  async create(publisherName: string): Promise<PublisherToken> {
    const { record } = this.fresh(publisherName);
    await this.store.update((d) => {
      if (d.publisherTokens.some((t) => sameName(t.publisher_name, publisherName)))
        throw httpError(409, 'Ya existe un token para ese publisher; usa Renovar');
      d.publisherTokens.push(record);
    });
    return this.view(record);
  }

  async renew(publisherName: string): Promise<PublisherToken> {
    const { record } = this.fresh(publisherName);
    await this.store.update((d) => {
      const index = d.publisherTokens.findIndex((t) => sameName(t.publisher_name, publisherName));
      if (index < 0) throw httpError(404, 'Publisher no válido para renovar.');
      record.publisher_name = d.publisherTokens[index].publisher_name;
      d.publisherTokens[index] = record;
    });
    return this.view(record);
  }

  async remove(token: string): Promise<void> {
    const hash = hmac(this.secrets.hashKey, token);
    await this.store.update((d) => {
      const index = d.publisherTokens.findIndex((t) => t.token_hash === hash);
      if (index < 0) throw httpError(404, 'Token no encontrado');
      d.publisherTokens.splice(index, 1);
    });
  }

  /** The publisher a token belongs to, or null; records last use (at most once a minute). */
  async resolve(token: string): Promise<string | null> {
    if (!token || token.length > 200) return null;
    const hash = hmac(this.secrets.hashKey, token);
    const record = this.store.data.publisherTokens.find((t) => t.token_hash === hash);
    if (!record) return null;
    const now = Date.now();
    if ((this.lastUsedWrites.get(hash) ?? 0) < now - 60_000) {
      this.lastUsedWrites.set(hash, now);
      await this.store.update((d) => {
        const r = d.publisherTokens.find((t) => t.token_hash === hash);
        if (r) r.last_used_at = new Date(now).toISOString();
      });
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
