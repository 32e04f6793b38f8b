// The warehouse contract's referrer events: appending, reading back, the log and its pages,
// bot and spam traffic kept apart, and idempotency keys; run by describeWarehouseContract on every
// engine, against the event fixture below.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EventKeyConflict, type ReferrerEvent, type Warehouse } from '../src/warehouse/index.js';
import { by, collect } from './warehouse-contract-helpers.js';

/** Referrer events: instants relative to a fixed day, ids in ingest order. */
const T0 = Date.parse('2026-03-10T00:00:00Z');
const at = (day: number, h: number, m = 0) => T0 + day * 86_400_000 + (h * 60 + m) * 60_000;
/** A referrer event seen at `ms`: the given fields, the rest null. */
export function event(id: number, ms: number, e: Partial<ReferrerEvent> & Pick<ReferrerEvent, 'zone_id'>): ReferrerEvent {
  return {
    id,
    seen_ms: ms,
    seen_at: new Date(ms).toISOString(),
    parent_domain: null,
    referrer: null,
    keyword: null,
    ip: null,
    country: null,
    publisher: null,
    advertiser: null,
    is_bot: false,
    reason: null,
    ...e,
  };
}
export const EVENT_FIXTURE: ReferrerEvent[] = [
  event(1, at(-3, 10), {
    zone_id: '1001',
    referrer: 'https://news.example.com/a',
    parent_domain: 'news.example.com',
    keyword: 'k1',
    ip: '10.0.0.1',
    country: 'ES',
    publisher: 'Pub A',
    advertiser: 'Adv X',
  }),
  event(2, at(-2, 9), {
    zone_id: '1001',
    referrer: 'https://news.example.com/a',
    parent_domain: 'news.example.com',
    publisher: 'Pub A',
    advertiser: 'Adv X',
  }),
  event(3, at(-1, 8), {
    zone_id: '1001',
    referrer: 'https://news.example.com/a',
    parent_domain: 'news.example.com',
    publisher: 'Pub A',
    advertiser: 'Adv X',
  }),
  event(4, at(-2, 12), {
    zone_id: '1001',
    referrer: 'https://news.example.com/b',
    parent_domain: 'news.example.com',
    publisher: 'Pub A',
    advertiser: 'Adv X',
  }),
  event(5, at(-2, 13), {
    zone_id: '1002',
    referrer: 'https://blog.example.org/x',
    parent_domain: 'blog.example.org',
    publisher: 'Pub A',
    advertiser: 'Adv Y',
  }),
  event(6, at(-1, 7), {
    zone_id: '2001',
    referrer: 'https://news.example.com/a',
    parent_domain: 'news.example.com',
    publisher: 'Pub B',
    advertiser: 'Adv X',
  }),
  event(7, at(-1, 9, 30), { zone_id: '2001', parent_domain: 'direct.example', publisher: 'Pub B', advertiser: 'Adv X' }),
  event(8, at(-1, 10), { zone_id: '10010', referrer: 'https://news.example.com/a', parent_domain: 'news.example.com' }),
];
const ALL_EVENTS = { from: at(-3, 0), to: at(0, 0) - 1 };

/** The referrer part of the contract against one engine (`open`: a fresh, empty warehouse). */
export function describeReferrerContract(engine: string, open: () => Promise<Warehouse>): void {
  describe(`${engine}: referrer events`, () => {
    let w: Warehouse;
    beforeAll(async () => {
      w = await open();
      expect(await w.referrers.maxEventId()).toBe(0);
      await w.referrers.append(EVENT_FIXTURE.slice(0, 5));
      await w.referrers.append(EVENT_FIXTURE.slice(5));
    });
    afterAll(() => w.close());

    test('appended events are counted and continue the id sequence', async () => {
      expect(await w.referrers.countEvents()).toBe(8);
      expect(await w.referrers.maxEventId()).toBe(8);
    });

    test('the report: one row per zone, source and referrer, newest first, with hits and first seen', async () => {
      const r = await w.referrers.referrers({ filter: ALL_EVENTS, order: [] });
      expect(r.total).toBe(6);
      expect(r.hits).toBe(8);
      expect(r.rows.map((x) => [x.zone_id, x.referrer, x.hits])).toEqual([
        ['10010', 'https://news.example.com/a', 1],
        ['2001', null, 1],
        ['1001', 'https://news.example.com/a', 3],
        ['2001', 'https://news.example.com/a', 1],
        ['1002', 'https://blog.example.org/x', 1],
        ['1001', 'https://news.example.com/b', 1],
      ]);
      expect(r.rows[2]).toEqual({
        zone_id: '1001',
        parent_domain: 'news.example.com',
        referrer: 'https://news.example.com/a',
        seen_at: new Date(at(-1, 8)).toISOString(),
        first_seen: new Date(at(-3, 10)).toISOString(),
        hits: 3,
      });
    });

    test('the report’s filters, order and pages', async () => {
      const filtered = await w.referrers.referrers({ filter: { ...ALL_EVENTS, zoneId: '1001' }, order: [] });
      expect(filtered.rows.map((x) => x.zone_id)).toEqual(['10010', '1001', '1001']);
      const pubA = await w.referrers.referrers({ filter: { ...ALL_EVENTS, publisher: 'Pub A', parentDomain: 'news.example.com' }, order: [] });
      expect(pubA.rows.map((x) => x.referrer)).toEqual(['https://news.example.com/a', 'https://news.example.com/b']);
      const byHits = await w.referrers.referrers({ filter: ALL_EVENTS, order: [by('hits', 'desc')], limit: 2, offset: 1 });
      // 1001/a has 3; ties at 1 hit by zone (character by character: 1001 < 10010 < 1002), source, referrer.
      expect(byHits.rows.map((x) => `${x.zone_id} ${x.referrer}`)).toEqual(['1001 https://news.example.com/b', '10010 https://news.example.com/a']);
      expect(byHits.total).toBe(6);
      expect((await w.referrers.referrers({ filter: ALL_EVENTS, order: [], limit: 5, offset: 50 })).total).toBe(6);
      expect(await collect(w.referrers.streamReferrers({ filter: ALL_EVENTS, order: [by('hits', 'desc')] }))).toEqual(
        (await w.referrers.referrers({ filter: ALL_EVENTS, order: [by('hits', 'desc')] })).rows,
      );
    });

    test('the log: raw events newest first, counted, pinned to an id, sorted by any column', async () => {
      const log = await w.referrers.logs({ filter: ALL_EVENTS, order: [] });
      expect(log.rows.map((e) => e.id)).toEqual([8, 7, 3, 6, 5, 4, 2, 1]);
      expect(log.total).toBe(8);
      expect(log.latestId).toBe(8);
      expect(log.rows[7]).toEqual({
        id: 1,
        zone_id: '1001',
        parent_domain: 'news.example.com',
        referrer: 'https://news.example.com/a',
        seen_at: new Date(at(-3, 10)).toISOString(),
        keyword: 'k1',
        ip: '10.0.0.1',
        country: 'ES',
        is_bot: false,
        reason: null,
      });
      const pinned = await w.referrers.logs({ filter: ALL_EVENTS, order: [], beforeId: 5, limit: 2, offset: 1 });
      expect(pinned.rows.map((e) => e.id)).toEqual([5, 4]);
      expect(pinned.total).toBe(5);
      const byZone = await w.referrers.logs({ filter: ALL_EVENTS, order: [by('zone_id', 'desc')] });
      expect(byZone.rows.map((e) => e.id)).toEqual([7, 6, 5, 8, 4, 3, 2, 1]);
      expect(await collect(w.referrers.streamLogs({ filter: ALL_EVENTS, order: [] }))).toEqual(log.rows);
      const narrow = await w.referrers.logs({ filter: { from: at(-2, 12), to: at(-2, 13) }, order: [] });
      expect(narrow.rows.map((e) => e.id)).toEqual([5, 4]);
    });

    test('filter options and resuming after an id', async () => {
      expect(await w.referrers.filterOptions(100)).toEqual({
        parentDomains: ['blog.example.org', 'direct.example', 'news.example.com'],
        publishers: ['Pub A', 'Pub B'],
        advertisers: ['Adv X', 'Adv Y'],
      });
      expect((await w.referrers.eventsAfter(5, 9, 100)).map((e) => e.id)).toEqual([6, 7, 8]);
      // The newest `limit` of them, still in id order.
      expect((await w.referrers.eventsAfter(0, 9, 2)).map((e) => e.id)).toEqual([7, 8]);
    });

    test('retention rolls old events into the daily rollup: the report still lists them, the log does not', async () => {
      const before = await w.referrers.referrers({ filter: ALL_EVENTS, order: [] });
      const result = await w.referrers.rollUpBefore(at(-1, 0));
      expect(result.deleted).toBe(4); // events 1, 2, 4, 5
      expect(await w.referrers.countEvents()).toBe(4);
      expect(await w.referrers.maxEventId()).toBe(8);
      const after = await w.referrers.referrers({ filter: ALL_EVENTS, order: [] });
      expect(after.rows).toEqual(before.rows);
      expect(after.hits).toBe(8);
      expect((await w.referrers.logs({ filter: ALL_EVENTS, order: [] })).rows.map((e) => e.id)).toEqual([8, 7, 3, 6]);
    });
  });

  describe(`${engine}: bot and spam traffic`, () => {
    const DAY = 86_400_000;
    const base = Date.UTC(2026, 2, 10, 12);
    const flagged: ReferrerEvent[] = [
      event(101, base, { zone_id: 'z1', publisher: 'P', referrer: 'https://a.test/', is_bot: false, reason: null }),
      event(102, base + 1, { zone_id: 'z1', publisher: 'P', referrer: 'https://a.test/', is_bot: true, reason: 'user_agent' }),
      event(103, base + 2, { zone_id: 'z1', publisher: 'P', referrer: 'https://spam.test/', is_bot: true, reason: 'spam_referrer' }),
      event(104, base + 3, { zone_id: 'z2', publisher: 'P', referrer: 'https://b.test/', is_bot: false, reason: null }),
      event(105, base + 4, { zone_id: 'z3', publisher: null, referrer: 'https://c.test/', is_bot: true, reason: 'unknown_zone' }),
    ];
    const range = { from: base - DAY, to: base + DAY };
    let w: Warehouse;
    beforeAll(async () => {
      w = await open();
      await w.referrers.append(flagged);
    });
    afterAll(() => w.close());

    test('flagged events are left out of the report and the log unless includeBots, and keep their reason', async () => {
      expect((await w.referrers.referrers({ filter: range, order: [] })).hits).toBe(2);
      expect((await w.referrers.referrers({ filter: { ...range, includeBots: true }, order: [] })).hits).toBe(5);
      expect((await w.referrers.logs({ filter: range, order: [] })).rows.map((e) => e.id)).toEqual([104, 101]);
      const all = await w.referrers.logs({ filter: { ...range, includeBots: true }, order: [] });
      expect(all.rows.map((e) => [e.id, e.is_bot, e.reason])).toEqual([
        [105, true, 'unknown_zone'],
        [104, false, null],
        [103, true, 'spam_referrer'],
        [102, true, 'user_agent'],
        [101, false, null],
      ]);
      expect((await w.referrers.eventsAfter(100, 200, 10)).map((e) => e.reason)).toEqual([null, 'user_agent', 'spam_referrer', null, 'unknown_zone']);
    });

    test('the IVT sums per zone and per publisher count every event, before and after retention rolls them up', async () => {
      const byZone = async () => (await w.referrers.ivt({ filter: range, by: 'zone', order: [] })).rows;
      const expected = [
        { zone_id: 'z1', publisher: 'P', hits: 3, bot_hits: 2 },
        { zone_id: 'z3', publisher: null, hits: 1, bot_hits: 1 },
        { zone_id: 'z2', publisher: 'P', hits: 1, bot_hits: 0 },
      ];
      expect(await byZone()).toEqual(expected);
      const pubs = await w.referrers.ivt({ filter: range, by: 'publisher', order: [{ key: 'hits', dir: 'desc' }] });
      expect(pubs).toEqual({
        rows: [
          { zone_id: null, publisher: 'P', hits: 4, bot_hits: 2 },
          { zone_id: null, publisher: null, hits: 1, bot_hits: 1 },
        ],
        total: 2,
        hits: 5,
        bot_hits: 3,
      });
      const byRate = await w.referrers.ivt({ filter: range, by: 'zone', order: [{ key: 'ivt_rate', dir: 'asc' }], limit: 2 });
      expect(byRate.rows.map((r) => r.zone_id)).toEqual(['z2', 'z1']);
      expect(await collect(w.referrers.streamIvt({ filter: range, by: 'zone', order: [] }))).toEqual(expected);
      await w.referrers.rollUpBefore(base + DAY);
      expect(await w.referrers.countEvents()).toBe(0);
      expect(await byZone()).toEqual(expected);
      expect((await w.referrers.referrers({ filter: range, order: [] })).hits).toBe(2);
    });
  });

  describe(`${engine}: idempotency keys of referrer events`, () => {
    const DAY = 86_400_000;
    /** The window the service passes (7 days back from now). */
    const windowStart = () => Date.now() - 7 * DAY;
    const keyed = (id: number) => event(id, at(-1, 9, id % 60), { zone_id: '9001', referrer: `https://k.example/${id}` });
    const HOSTILE_KEY = `e:O'Brien "x" \\ {p0:String} '); DROP TABLE referrer_event_key; --`;
    let w: Warehouse;
    beforeAll(async () => {
      w = await open();
      await w.referrers.append([keyed(1), keyed(2), keyed(3)], { keys: ['e:one', HOSTILE_KEY], since: windowStart() });
    });
    afterAll(() => w.close());

    test('an appended batch stores its events and its keys: they are found within the window, others are not', async () => {
      expect(await w.referrers.countEvents()).toBe(3);
      expect(await w.referrers.seenKeys(['e:one', HOSTILE_KEY, 'e:two', 'b:other'], windowStart())).toEqual(new Set(['e:one', HOSTILE_KEY]));
      expect(await w.referrers.seenKeys([], windowStart())).toEqual(new Set());
      // A window that starts after the keys were stored: they have expired.
      expect(await w.referrers.seenKeys(['e:one', HOSTILE_KEY], Date.now() + 60_000)).toEqual(new Set());
    });

    test('a batch with a key stored within the window is refused whole: EventKeyConflict names it, nothing is stored', async () => {
      const refused = w.referrers.append([keyed(4), keyed(5)], { keys: ['e:new', 'e:one'], since: windowStart() });
      await expect(refused).rejects.toBeInstanceOf(EventKeyConflict);
      await refused.catch((e: EventKeyConflict) => expect([...e.keys]).toEqual(['e:one']));
      expect(await w.referrers.countEvents()).toBe(3);
      expect(await w.referrers.maxEventId()).toBe(3);
      expect(await w.referrers.seenKeys(['e:new'], windowStart())).toEqual(new Set());
    });

    test('an expired key may be stored again, and is then found within the new window', async () => {
      await w.referrers.append([keyed(6)], { keys: ['e:one'], since: Date.now() + 1 });
      expect(await w.referrers.countEvents()).toBe(4);
      expect(await w.referrers.seenKeys(['e:one'], windowStart())).toEqual(new Set(['e:one']));
    });

    test('thousands of keys in one batch are all stored and all found', async () => {
      const events = Array.from({ length: 2500 }, (_, i) => keyed(100 + i));
      const keys = events.map((e) => `b:${e.id.toString(36)}-${'x'.repeat(40)}`);
      await w.referrers.append(events, { keys, since: windowStart() });
      // A key stored twice in one append (the service never sends that) is harmless.
      expect(await w.referrers.countEvents()).toBe(2504);
      const seen = await w.referrers.seenKeys([...keys, 'b:absent'], windowStart());
      expect(seen.size).toBe(2500);
      expect(seen.has('b:absent')).toBe(false);
      // Appends without keys are unchanged: no key stored, nothing refused.
      await w.referrers.append([keyed(3000)]);
      await w.referrers.append([keyed(3001)], { keys: [], since: windowStart() });
      expect(await w.referrers.countEvents()).toBe(2506);
    });

    test('a keyed batch stores its text as sent: quotes, backslashes, new lines and JSON in every field', async () => {
      const hostile = `O'Brien "x" \\ \n\t{p0:String} {"a":1} '); DROP TABLE referrer_event; -- ñ €`;
      const e = {
        ...event(4000, at(-1, 10, 0), { zone_id: `z ${hostile}` }),
        parent_domain: `d ${hostile}`,
        referrer: `https://h.example/?q=${hostile}`,
        keyword: hostile,
        ip: '2001:db8::1',
        country: 'ES',
        publisher: `p ${hostile}`,
        advertiser: `a ${hostile}`,
        is_bot: true,
        reason: 'user_agent' as const,
        campaign_id: `c ${hostile}`,
        adset_id: `s ${hostile}`,
        ad_id: `ad ${hostile}`,
        placement: `pl ${hostile}`,
      };
      // Keys are printable ASCII (event ids and Idempotency-Key headers are checked so).
      const key = `e:${HOSTILE_KEY}\\n"}`;
      await w.referrers.append([e], { keys: [key], since: windowStart() });
      const [stored] = await w.referrers.eventsAfter(3999, 4001, 10);
      expect(stored).toMatchObject({ ...e, seen_at: expect.any(String) });
      expect(await w.referrers.seenKeys([key], windowStart())).toEqual(new Set([key]));
    });

    test('a large keyed batch (long text, hundreds of keys) with one key taken is refused whole too', async () => {
      const long = 'l'.repeat(2000);
      const events = Array.from({ length: 300 }, (_, i) => ({ ...keyed(6000 + i), referrer: `https://k.example/${i}/${long}` }));
      const keys = events.map((e) => `e:large-${e.id}`);
      const before = await w.referrers.countEvents();
      const refused = w.referrers.append(events, { keys: [...keys, 'e:one'], since: windowStart() });
      await expect(refused).rejects.toBeInstanceOf(EventKeyConflict);
      await refused.catch((e: EventKeyConflict) => expect([...e.keys]).toEqual(['e:one']));
      expect(await w.referrers.countEvents()).toBe(before);
      await w.referrers.append(events, { keys, since: windowStart() });
      expect(await w.referrers.countEvents()).toBe(before + 300);
      expect((await w.referrers.seenKeys(keys, windowStart())).size).toBe(300);
      await expect(w.referrers.append([keyed(6500)], { keys: [keys[299]], since: windowStart() })).rejects.toThrow(EventKeyConflict);
    });

    test('keys outlive retention of their events within the window', async () => {
      const old = event(5000, Date.UTC(2001, 0, 1), { zone_id: '9002' });
      await w.referrers.append([old], { keys: ['e:kept-after-retention'], since: windowStart() });
      await w.referrers.rollUpBefore(Date.UTC(2002, 0, 1));
      expect((await w.referrers.eventsAfter(4999, 5001, 10)).length).toBe(0);
      expect(await w.referrers.seenKeys(['e:kept-after-retention'], windowStart())).toEqual(new Set(['e:kept-after-retention']));
      await expect(
        w.referrers.append([event(5001, Date.now(), { zone_id: '9002' })], { keys: ['e:kept-after-retention'], since: windowStart() }),
      ).rejects.toThrow(EventKeyConflict);
    });
  });
}
