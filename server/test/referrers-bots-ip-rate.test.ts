// The per-IP rate counter (ip_rate, ADOPS_BOT_IP_RATE) at its window edges: fixed minutes of the
// events' own time, the last three minutes seen kept, IPv4 addresses counted by number and any
// other text by itself — the same answers as counting every address's text in a map per minute.
// And the spam test: the source's host and the referrer's, each looked up on the list — the same
// answers as looking both up, whatever the short cuts taken for the common event.
import { describe, expect, test } from 'vitest';
import { BotClassifier, IpRateMeter, ipv4Number, urlHost } from '../src/services/bots.js';
import { normalizeEvent } from '../src/services/referrers.js';
import { SpamListService } from '../src/services/spam-list.js';
import type { EntityStore } from '../src/store/index.js';

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);

/** The plain counter: a map of text counts per minute, the earliest of more than three forgotten. */
class ReferenceMeter {
  private readonly minutes = new Map<number, Map<string, number>>();
  constructor(private readonly perMinute: number) {}
  over(ip: string, ms: number): boolean {
    if (this.perMinute <= 0) return false;
    const minute = Math.floor(ms / MIN);
    let counts = this.minutes.get(minute);
    if (counts === undefined) {
      counts = new Map();
      this.minutes.set(minute, counts);
      if (this.minutes.size > 3) this.minutes.delete(Math.min(...this.minutes.keys()));
    }
    const n = (counts.get(ip) ?? 0) + 1;
    counts.set(ip, n);
    return n > this.perMinute;
  }
}

describe('IpRateMeter', () => {
  test('the hits beyond the rate within one minute are over; the next minute starts again', () => {
    const m = new IpRateMeter(3);
    const ip = '203.0.113.7';
    expect([0, 1, 2, 3, 4].map((i) => m.over(ip, T0 + MIN - 3 + i))).toEqual([false, false, false, false, false]); // 59,997…60,001 ms: three hits in one minute, two in the next
    const m2 = new IpRateMeter(3);
    expect([1, 2, 3, 4, 5].map((s) => m2.over(ip, T0 + s * 1000))).toEqual([false, false, false, true, true]);
    expect(m2.over(ip, T0 + MIN - 1)).toBe(true); // the last millisecond of the minute
    expect(m2.over(ip, T0 + MIN)).toBe(false); // its first millisecond: a new window
    expect(m2.over('203.0.113.8', T0 + 6000)).toBe(false); // another address counts apart
  });

  test('an earlier minute still kept counts in its own window; one earlier than the three kept counts alone', () => {
    const m = new IpRateMeter(2);
    const ip = '198.51.100.1';
    for (let k = 0; k < 3; k++) m.over(ip, T0 + k * MIN); // minutes 0, 1, 2: one hit each
    expect(m.over(ip, T0 + 1000)).toBe(false); // minute 0: its second hit
    expect(m.over(ip, T0 + 2000)).toBe(true); // its third
    expect(m.over(ip, T0 + 3 * MIN)).toBe(false); // minute 3 forgets minute 0
    expect(m.over(ip, T0 + 3000)).toBe(false); // minute 0 again: earliest of four, forgotten at once
    expect(m.over(ip, T0 + 4000)).toBe(false);
    expect(m.over(ip, T0 + 5000)).toBe(false); // never over: each hit counts alone
    expect(m.over(ip, T0 + MIN + 1)).toBe(false); // minute 1 kept: its second hit
    expect(m.over(ip, T0 + MIN + 2)).toBe(true);
  });

  test('a rate of 0 is never over', () => {
    const m = new IpRateMeter(0);
    expect(Array.from({ length: 5 }, () => m.over('10.0.0.1', T0))).toEqual([false, false, false, false, false]);
  });

  test('addresses are told apart by their text (IPv4 numbers, IPv6 and other text) as a text map would', () => {
    const m = new IpRateMeter(1);
    expect(m.over('1.2.3.4', T0)).toBe(false);
    expect(m.over('01.2.3.4', T0)).toBe(false); // not the same text: counted apart
    expect(m.over('::ffff:1.2.3.4', T0)).toBe(false);
    expect(m.over('0.0.0.0', T0)).toBe(false);
    expect(m.over('2001:db8::1', T0)).toBe(false);
    expect(m.over('1.2.3.4', T0)).toBe(true);
    expect(m.over('0.0.0.0', T0)).toBe(true);
    expect(m.over('2001:db8::1', T0)).toBe(true);
    expect(m.over('255.255.255.255', T0)).toBe(false);
    expect(m.over('255.255.255.255', T0)).toBe(true);
  });

  test('the same answers as the plain counter on random traffic across window edges and many addresses', () => {
    let seed = 11;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const pool = [
      ...Array.from({ length: 3000 }, (_, i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`),
      '2001:db8::1',
      '2001:db8::2',
      '010.0.0.1',
      '10.0.0.1',
      '1.2.3',
      '256.1.1.1',
    ];
    for (const rate of [1, 4, 50]) {
      const m = new IpRateMeter(rate);
      const ref = new ReferenceMeter(rate);
      let now = T0;
      for (let i = 0; i < 60_000; i++) {
        now += rand(40); // ~1 minute per 3,000 hits: windows turn over within the run
        const late = rand(20) === 0 ? rand(5) * MIN + rand(1000) : 0; // some events a few minutes old
        const ip = pool[rand(2) === 0 ? rand(pool.length) : rand(40)]; // a few busy addresses, over a thousand quiet ones a minute (the table grows)
        expect(m.over(ip, now - late)).toBe(ref.over(ip, now - late));
      }
    }
  });

  test('ipv4Number reads four decimal numbers 0–255 without leading zeros, nothing else', () => {
    expect(ipv4Number('0.0.0.0')).toBe(0);
    expect(ipv4Number('1.2.3.4')).toBe(0x01020304);
    expect(ipv4Number('255.255.255.255')).toBe(0xffffffff);
    for (const bad of ['01.2.3.4', '1.2.3.04', '1.2.3', '1.2.3.4.', '.1.2.3', '1..2.3', '256.1.1.1', '1.2.3.4444', '1.2.3.a', '::1', '1.2.3.4 ', ''])
      expect(ipv4Number(bad)).toBe(-1);
  });
});

describe('BotClassifier.isSpam', () => {
  test('the same answers as looking up the source and the referrer host, on random referrers of every form', async () => {
    const store = { settings: { get: async () => null } } as unknown as EntityStore;
    const spam = await SpamListService.open(store, () => {});
    try {
      const classifier = new BotClassifier(spam, () => true, 0);
      const listed = (host: string | null) => host !== null && spam.isSpam(host);
      let seed = 7;
      const pick = <T>(list: readonly T[]): T => {
        seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
        return list[(seed >>> 8) % list.length];
      };
      const hosts = [
        'semalt.com',
        'www.semalt.com',
        'not-spam.example.com',
        'semalt.com.example.org',
        'diario.example.es',
        'x.buttons-for-website.com',
      ];
      const forms = [
        (h: string) => `https://${h}/page`,
        (h: string) => `http://${h}`,
        (h: string) => `https://${h}?q=1`,
        (h: string) => `https://${h}#top`,
        (h: string) => `https://${h}:8080/`,
        (h: string) => `https://user@${h}/`,
        (h: string) => `https://${h.toUpperCase()}/`,
        (h: string) => `https://${h}./`,
        (h: string) => `https://${h}.evil.example/`,
        (h: string) => `https://${h}.semalt.com/`,
        (h: string) => `https://${h}:99999/`,
        (h: string) => `ftp://${h}/`,
        (h: string) => `https:/${h}/`,
        (h: string) => `${h}/x`,
        (h: string) => `https://${h}`.slice(0, -2),
      ];
      for (let i = 0; i < 20_000; i++) {
        const referrer = pick([null, ...forms.map((f) => f(pick(hosts)))]);
        // as ingest leaves the event: with a source of its own (another host, or the referrer's), or none (its host read from the referrer)
        const source = pick([undefined, pick(hosts), urlHost(referrer) ?? undefined, pick(hosts).toUpperCase(), `${pick(hosts)}.`]);
        const event = normalizeEvent({ zone_id: 'z', referrer, parent_domain: source }, T0);
        const expected = listed(event.parent_domain) || listed(urlHost(referrer));
        expect(classifier.isSpam(event, source !== undefined), `${referrer} from ${source}`).toBe(expected);
        expect(classifier.isSpam(event), `${referrer} from ${source}, the source's origin unknown`).toBe(expected);
      }
    } finally {
      spam.close();
    }
  });

  test('a host with a trailing dot is the same host', async () => {
    const store = { settings: { get: async () => null } } as unknown as EntityStore;
    const spam = await SpamListService.open(store, () => {});
    try {
      expect([spam.isSpam('semalt.com.'), spam.isSpam('www.semalt.com.'), spam.isSpam('semalt.com.example.org.')]).toEqual([true, true, false]);
    } finally {
      spam.close();
    }
  });
});
