// Pixabay image search over undici: answers cached 24 h (Pixabay's terms), the key's rate
// limit read from X-RateLimit-* headers and respected, and the bounded download of a chosen
// image from the provider's own hosts only.
import { request } from 'undici';
import type { ImageSuggestion } from '@adops/core';
import { MAX_IMAGE_BYTES } from '@adops/core';
import { DomainError } from '../../domain-errors.js';
import { BodyTooLargeError, discard, readUpstream } from '../http.js';

export interface PixabayOptions {
  /** e.g. https://pixabay.com/api (or the sandbox's URL). */
  apiBase: string;
  key: string;
  perPage?: number;
  cacheTtlMs?: number;
  maxCacheEntries?: number;
  timeoutMs?: number;
  now?: () => number;
}

interface CacheEntry {
  at: number;
  hits: ImageSuggestion[];
}

const DAY_MS = 24 * 3600_000;
const MAX_REDIRECTS = 3;

export class PixabayClient {
  /** Searches sent to Pixabay (cache misses), for figures and tests. */
  upstreamCalls = 0;
  private readonly cache = new Map<string, CacheEntry>();
  private readonly inFlight = new Map<string, Promise<ImageSuggestion[]>>();
  private remaining = Infinity;
  private resetAt = 0;
  private readonly apiUrl: URL;
  private readonly now: () => number;

  constructor(private readonly options: PixabayOptions) {
    this.apiUrl = new URL(options.apiBase.endsWith('/') ? options.apiBase : `${options.apiBase}/`);
    this.now = options.now ?? Date.now;
  }

  /** Photo suggestions for a keyword, page 1–5; cached per (keyword, page) for 24 h. */
  async search(query: string, page: number): Promise<ImageSuggestion[]> {
    const key = `${query.trim().toLowerCase()}|${page}`;
    const cached = this.cache.get(key);
    if (cached && this.now() - cached.at < (this.options.cacheTtlMs ?? DAY_MS)) return cached.hits;
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const run = this.fetchPage(query.trim(), page)
      .then((hits) => {
        this.cache.delete(key);
        this.cache.set(key, { at: this.now(), hits });
        const max = this.options.maxCacheEntries ?? 1000;
        while (this.cache.size > max) this.cache.delete(this.cache.keys().next().value!);
        return hits;
      })
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, run);
    return run;
  }

  private async fetchPage(query: string, page: number): Promise<ImageSuggestion[]> {
    const now = this.now();
    if (this.remaining <= 0 && now < this.resetAt) {
      const seconds = Math.ceil((this.resetAt - now) / 1000);
      throw new DomainError('too_many', `Se alcanzó el límite de búsquedas de imágenes; vuelve a intentarlo en ${seconds} s`);
    }
    const url = new URL(this.apiUrl);
    url.search = new URLSearchParams({
      key: this.options.key,
      q: query,
      image_type: 'photo',
      page: String(page),
      per_page: String(this.options.perPage ?? 20),
      safesearch: 'true',
    }).toString();
    this.upstreamCalls++;
    const timeout = this.options.timeoutMs ?? 15_000;
    let res: Awaited<ReturnType<typeof request>>;
    try {
      res = await request(url, { method: 'GET', headersTimeout: timeout, bodyTimeout: timeout, signal: AbortSignal.timeout(timeout) });
    } catch {
      throw new DomainError('upstream', 'No se pudo conectar con Pixabay');
    }
    this.readRateLimit(res.headers);
    const text = (await readUpstream(res.body, 2 * 1024 * 1024).catch(() => Buffer.alloc(0))).toString('utf8');
    if (res.statusCode === 429) {
      this.remaining = 0;
      if (this.resetAt <= this.now()) this.resetAt = this.now() + 60_000;
      throw new DomainError('too_many', 'Pixabay limitó las búsquedas; vuelve a intentarlo en un minuto');
    }
    // Pixabay answers 400 "[ERROR 400] page is out of valid range" past the last page.
    if (res.statusCode === 400 && /out of valid range/i.test(text)) return [];
    if (res.statusCode !== 200) throw new DomainError('upstream', `Pixabay respondió con un error (HTTP ${res.statusCode})`);
    let hits: unknown;
    try {
      hits = (JSON.parse(text) as { hits?: unknown }).hits;
    } catch {
      throw new DomainError('upstream', 'Respuesta no válida de Pixabay');
    }
    if (!Array.isArray(hits)) throw new DomainError('upstream', 'Respuesta no válida de Pixabay');
    return hits
      .filter((h): h is Record<string, unknown> => typeof h === 'object' && h !== null)
      .filter((h) => typeof h.previewURL === 'string' && typeof h.largeImageURL === 'string')
      .map((h) => ({
        id: typeof h.id === 'number' || typeof h.id === 'string' ? h.id : String(h.previewURL),
        previewURL: h.previewURL as string,
        largeImageURL: h.largeImageURL as string,
      }));
  }

  private readRateLimit(headers: Record<string, string | string[] | undefined>): void {
    const remaining = Number(headers['x-ratelimit-remaining']);
    const reset = Number(headers['x-ratelimit-reset']);
    if (Number.isFinite(remaining)) this.remaining = remaining;
    if (Number.isFinite(reset)) this.resetAt = this.now() + reset * 1000;
  }

  /** True when a URL belongs to the image provider: its host or a subdomain, same port. */
  isProviderUrl(url: URL): boolean {
    const base = this.apiUrl;
    const secure = base.protocol === 'https:' ? url.protocol === 'https:' : url.protocol === 'http:' || url.protocol === 'https:';
    const host = url.hostname === base.hostname || url.hostname.endsWith(`.${base.hostname}`);
    return secure && host && url.port === base.port && !url.username && !url.password;
  }

  /** Downloads an image from the provider (redirects only within it), at most 8 MB. */
  async download(start: URL): Promise<Buffer> {
    let url = start;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      if (!this.isProviderUrl(url)) throw new DomainError('invalid', 'La imagen sugerida debe venir de Pixabay');
      const timeout = this.options.timeoutMs ?? 30_000;
      let res: Awaited<ReturnType<typeof request>>;
      try {
        res = await request(url, { method: 'GET', headersTimeout: timeout, bodyTimeout: timeout, signal: AbortSignal.timeout(timeout) });
      } catch {
        throw new DomainError('upstream', 'No se pudo descargar la imagen sugerida');
      }
      if (res.statusCode >= 300 && res.statusCode < 400 && typeof res.headers.location === 'string') {
        discard(res.body);
        url = new URL(res.headers.location, url);
        continue;
      }
      if (res.statusCode !== 200) {
        discard(res.body);
        throw new DomainError('upstream', `No se pudo descargar la imagen sugerida (HTTP ${res.statusCode})`);
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > MAX_IMAGE_BYTES) {
        discard(res.body);
        throw new DomainError('too_large', 'La imagen supera el máximo de 8 MB');
      }
      try {
        return await readUpstream(res.body, MAX_IMAGE_BYTES);
      } catch (e) {
        if (e instanceof BodyTooLargeError) throw new DomainError('too_large', 'La imagen supera el máximo de 8 MB');
        throw new DomainError('upstream', 'No se pudo descargar la imagen sugerida');
      }
    }
    throw new DomainError('upstream', 'Demasiadas redirecciones al descargar la imagen sugerida');
  }
}
