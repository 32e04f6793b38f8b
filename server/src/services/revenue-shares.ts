// Publishers' revenue shares (lowdb `publishers`): the rate an import applies when a row has
// neither margin nor publisher revenue. Changing a share affects later imports only.
import { DEFAULT_REVENUE_SHARE, type PublisherShare } from '@adops/core';
import type { Store } from '../store/store.js';

const key = (name: string) => name.trim().toLowerCase();

export class RevenueShareService {
  constructor(
    private readonly store: Store,
    /** Publisher names present in the warehouse (listed at the default share when not configured). */
    private readonly seenPublishers: () => Promise<string[]>,
  ) {}

  /** Configured shares by lower-case name (a snapshot for one import). */
  snapshot(): Map<string, number> {
    return new Map(this.store.data.publishers.map((p) => [key(p.name), p.revenue_share]));
  }

  async list(): Promise<PublisherShare[]> {
    const out = new Map<string, PublisherShare>();
    for (const p of this.store.data.publishers) out.set(key(p.name), { name: p.name, revenue_share: p.revenue_share, configured: true });
    for (const name of await this.seenPublishers())
      if (!out.has(key(name))) out.set(key(name), { name, revenue_share: DEFAULT_REVENUE_SHARE, configured: false });
    return [...out.values()].sort((a, b) => a.name.localeCompare(b.name, 'es'));
  }

  /** Sets a publisher's share; a name differing only in case updates the existing entry. */
  async set(name: string, revenueShare: number): Promise<PublisherShare> {
    return this.store.update((d) => {
      const existing = d.publishers.find((p) => key(p.name) === key(name));
      if (existing) existing.revenue_share = revenueShare;
      else d.publishers.push({ name, revenue_share: revenueShare });
      return { name: existing?.name ?? name, revenue_share: revenueShare, configured: true };
    });
  }

  /** Adds shares for publishers not configured yet (demo data); existing ones are kept. */
  async addMissing(shares: ReadonlyArray<{ name: string; revenue_share: number }>): Promise<void> {
    const known = this.snapshot();
    if (shares.every((s) => known.has(key(s.name)))) return;
    await this.store.update((d) => {
      const have = new Set(d.publishers.map((p) => key(p.name)));
      for (const s of shares) if (!have.has(key(s.name))) d.publishers.push({ name: s.name, revenue_share: s.revenue_share });
    });
  }
}
