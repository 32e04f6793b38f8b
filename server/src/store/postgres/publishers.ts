// Publishers and their revenue shares on PostgreSQL, one per name key (publisherKey).
import { type PublisherRecord, type PublisherRepository, publisherKey } from '../types.js';
import type { Query } from './db.js';

export function postgresPublishers(q: Query): PublisherRepository {
  return {
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
  };
}
