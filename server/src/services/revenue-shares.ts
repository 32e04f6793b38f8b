// Publishers' revenue shares (the entity store's publishers): the rate an import applies when a
// row has neither margin nor publisher revenue. Changing a share affects later imports only.
import { DEFAULT_REVENUE_SHARE, type PublisherShare } from '@adops/core';
import { type EntityStore, publisherKey as key } from '../store/types.js';

export class RevenueShareService {
  constructor(
    private readonly store: EntityStore,
    /** Publisher names present in the warehouse (listed at the default share when not configured). */
    private readonly seenPublishers: () => Promise<string[]>,
  ) {}

  /** Configured shares by lower-case name (a snapshot for one import). */
  async snapshot(): Promise<Map<string, number>> {
    return new Map((await this.store.publishers.list()).map((p) => [key(p.name), p.revenue_share]));
  }

  async list(): Promise<PublisherShare[]> {
    const out = new Map<string, PublisherShare>();
    for (const p of await this.store.publishers.list()) out.set(key(p.name), { name: p.name, revenue_share: p.revenue_share, configured: true });
    for (const name of await this.seenPublishers())
      if (!out.has(key(name))) out.set(key(name), { name, revenue_share: DEFAULT_REVENUE_SHARE, configured: false });
    return [...out.values()].sort((a, b) => a.name.localeCompare(b.name, 'es'));
  }

  /** Sets a publisher's share; a name differing only in case updates the existing entry. */
  async set(name: string, revenueShare: number): Promise<PublisherShare> {
    const stored = await this.store.publishers.set(name, revenueShare);
    return { name: stored.name, revenue_share: stored.revenue_share, configured: true };
  }

  /** Adds shares for publishers not configured yet (demo data); existing ones are kept. */
  addMissing(shares: ReadonlyArray<{ name: string; revenue_share: number }>): Promise<void> {
    return this.store.publishers.addMissing(shares);
  }
}
