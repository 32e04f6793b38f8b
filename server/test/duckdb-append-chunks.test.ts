// DuckDB's event append writes whole columns into data chunks (short ASCII text inlined, the rest
// assigned value by value, nulls as validity bits): every value must read back exactly as given —
// text at and around the 12-byte inline limit, non-ASCII and astral text, empty strings, nulls in
// every nullable column, flags, instants, ids, and the batch keys on the first row only — across
// several chunks (2,048 rows each), in batches committed directly and by transaction.
import { describe, expect, test } from 'vitest';
import { openDuckDbWarehouse } from '../src/warehouse/duckdb/index.js';
import type { ReferrerEvent } from '../src/warehouse/index.js';
import { event } from './warehouse-contract.js';

const TEXTS = [
  '',
  'a',
  'ES',
  '123456789012', // 12 bytes: inlined
  '1234567890123', // 13: assigned
  'ñandú', // non-ASCII, short
  'añadidoañadi', // 12 characters, 13 bytes
  'zona 🦆', // astral
  '198.51.100.254',
  'https://www.diario7.example.com/noticias/articulo-1234?utm=x#frag',
  'x'.repeat(300),
];

function varied(id: number, ms: number): ReferrerEvent {
  const pick = (salt: number): string | null => {
    const n = (id * 31 + salt * 17) % (TEXTS.length + 2);
    return n >= TEXTS.length ? null : TEXTS[n];
  };
  const reason = (['user_agent', 'spam_referrer', 'ip_rate', 'unknown_zone'] as const)[id % 5] ?? null;
  return event(id, ms + (id % 7) * 1000, {
    zone_id: pick(1) || `z-${id % 13}`,
    parent_domain: pick(2),
    referrer: pick(3),
    keyword: pick(4),
    ip: pick(5),
    country: pick(6),
    publisher: pick(7),
    advertiser: pick(8),
    is_bot: reason !== null,
    reason,
    campaign_id: pick(9),
    adset_id: pick(10),
    ad_id: pick(11),
    placement: pick(12),
  });
}

type Stored = Record<string, string | number | boolean | null>;

async function stored(w: Awaited<ReturnType<typeof openDuckDbWarehouse>>): Promise<Stored[]> {
  return w.db.all<Stored>(
    `SELECT id, epoch_ms(seen_at) AS seen_ms, zone_id, parent_domain, referrer, keyword, ip, country, publisher, advertiser,
            is_bot, reason, event_key, epoch_ms(key_added_at) AS key_added_ms, campaign_id, adset_id, ad_id, placement
     FROM referrer_event ORDER BY id`,
  );
}

const expected = (e: ReferrerEvent, keys: string | null): Stored => ({
  id: e.id,
  seen_ms: e.seen_ms,
  zone_id: e.zone_id,
  parent_domain: e.parent_domain,
  referrer: e.referrer,
  keyword: e.keyword,
  ip: e.ip,
  country: e.country,
  publisher: e.publisher,
  advertiser: e.advertiser,
  is_bot: e.is_bot,
  reason: e.reason,
  event_key: keys,
  campaign_id: e.campaign_id ?? null,
  adset_id: e.adset_id ?? null,
  ad_id: e.ad_id ?? null,
  placement: e.placement ?? null,
});

describe('DuckDB event append by data chunks', () => {
  const ms = Date.parse('2026-03-02T10:00:00.123Z');

  test('every value of a keyed batch over three chunks, a small unkeyed one and a small keyed one reads back as given', async () => {
    const w = await openDuckDbWarehouse(':memory:');
    try {
      const big = Array.from({ length: 5000 }, (_, i) => varied(i + 1, ms));
      const small = Array.from({ length: 10 }, (_, i) => varied(5001 + i, ms));
      const keyedSmall = Array.from({ length: 3 }, (_, i) => varied(5011 + i, ms));
      const before = Date.now();
      await w.referrers.append(big, { keys: ['b:batch-key', 'e:one'], since: 0 });
      await w.referrers.append(small);
      await w.referrers.append(keyedSmall, { keys: ['e:small'], since: 0 });
      const after = Date.now();
      const rows = await stored(w);
      expect(rows.length).toBe(5013);
      const want = [...big, ...small, ...keyedSmall].map((e) => expected(e, e.id === 1 ? 'b:batch-key\ne:one' : e.id === 5011 ? 'e:small' : null));
      for (let i = 0; i < rows.length; i++) {
        const { key_added_ms, ...row } = rows[i];
        expect(row).toEqual(want[i]);
        if (row.event_key === null) expect(key_added_ms).toBeNull();
        else {
          expect(key_added_ms).toBeGreaterThanOrEqual(before);
          expect(key_added_ms).toBeLessThanOrEqual(after);
        }
      }
      expect(await w.referrers.seenKeys(['b:batch-key', 'e:one', 'e:small', 'e:other'], 0)).toEqual(new Set(['b:batch-key', 'e:one', 'e:small']));
      // Nulls are nulls to every query (not empty text), empty text is text.
      const [counts] = await w.db.all<Stored>(
        `SELECT count(*) FILTER (WHERE referrer IS NULL) AS null_refs, count(*) FILTER (WHERE referrer = '') AS empty_refs,
                count(DISTINCT ip) AS ips FROM referrer_event`,
      );
      const all = [...big, ...small, ...keyedSmall];
      expect(counts).toEqual({
        null_refs: all.filter((e) => e.referrer === null).length,
        empty_refs: all.filter((e) => e.referrer === '').length,
        ips: new Set(all.map((e) => e.ip).filter((v) => v !== null)).size,
      });
    } finally {
      await w.close();
    }
  });

  test('long text in runs, unique, of every length, and not ASCII in some chunks reads back and compares as given', async () => {
    const w = await openDuckDbWarehouse(':memory:');
    try {
      // Chunks of 2,048: the second holds one long keyword that is not ASCII (that column's long text goes value by value there).
      const events = Array.from({ length: 5000 }, (_, i) =>
        event(i + 1, ms, {
          zone_id: i % 7 < 3 ? 'zona-larga-de-prueba' : 'z1',
          referrer: `https://r${i}.example.com/${'p'.repeat(i % 400)}`,
          parent_domain: `www.dominio${Math.floor(i / 5) % 3}.example.com`,
          keyword: i === 3000 ? 'búsqueda de seguros baratos' : i % 11 === 0 ? null : `palabra clave ${Math.floor(i / 3)}`,
          ip: i % 2 === 0 ? `2001:db8::${i.toString(16)}` : '10.0.0.1',
          country: i % 3 === 0 ? 'ES' : 'MX',
          publisher: 'Un editor con nombre largo',
          advertiser: i % 4 === 0 ? 'Anunciante largo número uno' : 'Anunciante largo dos',
        }),
      );
      await w.referrers.append(events);
      const rows = (await stored(w)).map(({ key_added_ms, ...row }) => row);
      expect(rows).toEqual(events.map((e) => expected(e, null)));
      const [counts] = await w.db.all<Stored>(
        `SELECT count(*) FILTER (WHERE referrer = 'https://r4999.example.com/' || repeat('p', 199)) AS one,
                count(*) FILTER (WHERE zone_id = 'zona-larga-de-prueba') AS zone,
                count(*) FILTER (WHERE keyword = 'búsqueda de seguros baratos') AS accented,
                count(*) FILTER (WHERE parent_domain < 'www.dominio1.example.com') AS before,
                count(DISTINCT advertiser) AS advertisers FROM referrer_event`,
      );
      expect(counts).toEqual({
        one: 1,
        zone: events.filter((e) => e.zone_id === 'zona-larga-de-prueba').length,
        accented: 1,
        before: events.filter((e) => e.parent_domain === 'www.dominio0.example.com').length,
        advertisers: 2,
      });
    } finally {
      await w.close();
    }
  });

  test('a batch refused for a stored key writes nothing; the next commits whole', async () => {
    const w = await openDuckDbWarehouse(':memory:');
    try {
      await w.referrers.append([varied(1, ms)], { keys: ['e:taken'], since: 0 });
      const batch = Array.from({ length: 3000 }, (_, i) => varied(i + 2, ms));
      await expect(w.referrers.append(batch, { keys: ['e:new', 'e:taken'], since: 0 })).rejects.toThrow();
      expect(await w.referrers.countEvents()).toBe(1);
      await w.referrers.append(batch, { keys: ['e:new'], since: 0 });
      expect(await w.referrers.countEvents()).toBe(3001);
      expect((await stored(w)).filter((r) => r.event_key !== null).map((r) => [r.id, r.event_key])).toEqual([
        [1, 'e:taken'],
        [2, 'e:new'],
      ]);
    } finally {
      await w.close();
    }
  });
});
