// The referrer-spam list: Matomo's maintained list shipped with the server
// (server/assets/referrer-spam), plus the domains admins added or took out, kept in the entity
// store's settings (so every instance and a newer shipped list keep them). A host is spam when
// it or one of its parent domains is listed. Other instances pick a change up within a minute.
import { readFileSync } from 'node:fs';
import { SpamListChange, type SpamList } from '@adops/core';
import type { EntityStore } from '../store/index.js';
import { DomainError } from '../domain-errors.js';

const SHIPPED = new URL('../../assets/referrer-spam/spammers.txt', import.meta.url);
export const SPAM_LIST_SOURCE = 'Matomo referrer-spam-list (dominio público)';
/** The settings key of the admins' changes. */
const SETTING = 'referrer_spam';
const REFRESH_MS = 60_000;
/** Hosts whose answer is remembered (the cache starts over when full). */
const VERDICTS_KEPT = 10_000;

/** A host's verdict, as bits: on the list (itself or a parent domain)… */
export const SPAM_HOST = 1;
/** …and written as a URL's host reads (urlHost): lower case, none of / ? # : @ [ ], not ending in '.'. */
export const PLAIN_HOST = 2;
const NOT_PLAIN = /[/?#:@[\]]|\.$/;

interface SpamChanges {
  added: string[];
  removed: string[];
}

let shipped: ReadonlySet<string> | null = null;

/** The shipped list, read once (about 2,300 hosts). */
export function shippedSpamDomains(): ReadonlySet<string> {
  shipped ??= new Set(
    readFileSync(SHIPPED, 'utf8')
      .split('\n')
      .map((d) => d.trim().toLowerCase())
      .filter((d) => d !== '' && !d.startsWith('#')),
  );
  return shipped;
}

const asChanges = (v: unknown): SpamChanges => {
  const c = (v ?? {}) as Partial<SpamChanges>;
  return { added: Array.isArray(c.added) ? c.added : [], removed: Array.isArray(c.removed) ? c.removed : [] };
};

export class SpamListService {
  private domains: Set<string>;
  /** Hosts looked up since the list last changed, and their verdicts (SPAM_HOST | PLAIN_HOST bits). */
  private verdicts = new Map<string, number>();
  private changes: SpamChanges = { added: [], removed: [] };
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly store: EntityStore,
    private readonly log: (line: string) => void,
  ) {
    this.domains = new Set(shippedSpamDomains());
  }

  static async open(store: EntityStore, log: (line: string) => void): Promise<SpamListService> {
    const service = new SpamListService(store, log);
    await service.refresh();
    service.timer = setInterval(() => void service.refresh(), REFRESH_MS);
    service.timer.unref();
    return service;
  }

  /** Whether the host (lower case) or one of its parent domains is listed (answers remembered until the list changes). */
  isSpam(host: string): boolean {
    return (this.verdict(host) & SPAM_HOST) !== 0;
  }

  /** The host's SPAM_HOST and PLAIN_HOST bits, remembered until the list changes (one lookup for both). */
  verdict(host: string): number {
    let v = this.verdicts.get(host);
    if (v === undefined) {
      v = (this.listed(host) ? SPAM_HOST : 0) | (host !== '' && !NOT_PLAIN.test(host) && host === host.toLowerCase() ? PLAIN_HOST : 0);
      if (this.verdicts.size >= VERDICTS_KEPT) this.verdicts.clear();
      this.verdicts.set(host, v);
    }
    return v;
  }

  /** Whether the host (a trailing dot aside: the same host) or a parent domain of it is on the list. */
  private listed(host: string): boolean {
    const domains = this.domains;
    for (let h = host.endsWith('.') ? host.slice(0, -1) : host; ; ) {
      if (domains.has(h)) return true;
      const dot = h.indexOf('.');
      if (dot === -1) return false;
      h = h.slice(dot + 1);
    }
  }

  /** Reloads the admins' changes (another instance may have made some). */
  async refresh(): Promise<void> {
    try {
      this.apply(asChanges(await this.store.settings.get(SETTING)));
    } catch (e) {
      this.log(`referrer spam list: changes not reloaded: ${(e as Error).message}`);
    }
  }

  private apply(changes: SpamChanges): void {
    const domains = new Set(shippedSpamDomains());
    for (const d of changes.added) domains.add(d);
    for (const d of changes.removed) domains.delete(d);
    this.changes = changes;
    this.domains = domains;
    this.verdicts = new Map();
  }

  view(): SpamList {
    return {
      source: SPAM_LIST_SOURCE,
      shipped: shippedSpamDomains().size,
      added: [...this.changes.added],
      removed: [...this.changes.removed],
      total: this.domains.size,
    };
  }

  /** Applies an admin's change (validated by SpamListChange); answers the list and what changed. */
  async change(input: SpamListChange): Promise<{ list: SpamList; before: SpamChanges; after: SpamChanges }> {
    const { add, remove } = SpamListChange.parse(input);
    const both = add.find((d) => remove.includes(d));
    if (both !== undefined) throw new DomainError('invalid', `«${both}» no puede estar en add y en remove a la vez`);
    const base = shippedSpamDomains();
    let before: SpamChanges = { added: [], removed: [] };
    const after = await this.store.settings.update<SpamChanges>(SETTING, (current) => {
      before = asChanges(current);
      const added = new Set(before.added);
      const removed = new Set(before.removed);
      for (const d of add) {
        removed.delete(d);
        if (!base.has(d)) added.add(d);
      }
      for (const d of remove) {
        added.delete(d);
        if (base.has(d)) removed.add(d);
      }
      return { added: [...added].sort(), removed: [...removed].sort() };
    });
    this.apply(asChanges(after));
    return { list: this.view(), before, after };
  }

  close(): void {
    clearInterval(this.timer);
  }
}
