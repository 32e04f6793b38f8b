// Invalid traffic (IVT) at ingest: each beacon hit and batch event is told apart as a known bot
// or crawler by its user agent (the isbot package's maintained list, answers cached per user
// agent), referrer spam (its referrer's or source's host on the spam list), one IP over its
// hits per minute, or a zone no zone report has ever named. The first reason that applies, in
// that order, is stored with the event (is_bot, reason); all of it costs a few map lookups.
import { isbot } from 'isbot';
import type { BotReason } from '@adops/core';
import { PLAIN_HOST, SPAM_HOST, type SpamListService } from './spam-list.js';

/** User agents remembered (a beacon sees few distinct ones; the cache starts over when full). */
const UA_CACHE = 5000;
/** Minutes of per-IP counts kept (a batch of older events counts in its own minutes). */
const MINUTES_KEPT = 3;
const MINUTE_MS = 60_000;

/** What the classifier reads of an event. */
export interface ClassifiedEvent {
  zone_id: string;
  referrer: string | null;
  parent_domain: string | null;
  ip: string | null;
  seen_ms: number;
}

/** The host of an http(s) URL, lower case, without parsing the whole URL (null when none). */
const URL_HOST = /^https?:\/\/(?:[^/?#@]*@)?([^/?#:[\]]+)/i;
export function urlHost(url: string | null): string | null {
  if (url === null) return null;
  const m = URL_HOST.exec(url);
  return m ? m[1].toLowerCase().replace(/\.$/, '') : null;
}

/**
 * Whether urlHost(url) is `host`, a plain host (PLAIN_HOST: as urlHost answers one), without
 * reading the URL: it is http(s):// then `host` then its end, path, query or fragment.
 */
function onPlainHost(url: string, host: string): boolean {
  if (url.charCodeAt(0) !== 0x68 || url.charCodeAt(1) !== 0x74 || url.charCodeAt(2) !== 0x74 || url.charCodeAt(3) !== 0x70) return false; // 'http'
  let at = url.charCodeAt(4) === 0x73 ? 5 : 4; // 's'
  if (url.charCodeAt(at) !== 0x3a || url.charCodeAt(at + 1) !== 0x2f || url.charCodeAt(at + 2) !== 0x2f) return false; // '://'
  at += 3;
  const end = at + host.length;
  if (end > url.length) return false;
  for (let i = 0; i < host.length; i++) if (url.charCodeAt(at + i) !== host.charCodeAt(i)) return false;
  if (end === url.length) return true;
  const c = url.charCodeAt(end);
  return c === 0x2f || c === 0x3f || c === 0x23; // '/', '?', '#'
}

/**
 * The IPv4 address written as the meter keys it (four decimal numbers 0–255 without leading
 * zeros, as normalizeIp leaves it) as a 32-bit number, or -1 for any other text (counted by
 * its text): one text has one number and one number one text, so counts are the same.
 */
export function ipv4Number(ip: string): number {
  const len = ip.length;
  if (len < 7 || len > 15) return -1;
  let value = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < len; i++) {
    const c = ip.charCodeAt(i);
    if (c === 0x2e) {
      if (digits === 0 || ++dots > 3) return -1;
      value = value * 256 + part;
      part = 0;
      digits = 0;
    } else if (c >= 0x30 && c <= 0x39) {
      if (digits > 0 && part === 0) return -1; // a leading zero
      part = part * 10 + (c - 0x30);
      if (++digits > 3 || part > 255) return -1;
    } else return -1;
  }
  if (digits === 0 || dots !== 3) return -1;
  return value * 256 + part;
}

/**
 * One minute's counts. IPv4 addresses (nearly every hit) are counted in an open-addressing
 * table of typed arrays keyed by their number (no string hashing, nothing allocated per hit);
 * any other address in a map by its text. A count stops growing once over the rate (the answer
 * cannot change then).
 */
class MinuteCounts {
  /** Slot i holds address keys[i] with counts[i] hits (0: the slot is free). */
  private keys = new Uint32Array(1024);
  private counts = new Uint32Array(1024);
  private used = 0;
  private readonly others = new Map<string, number>();

  constructor(private readonly perMinute: number) {}

  /** Counts the hit; true when the address is over the rate. */
  hit(ip: string): boolean {
    const v4 = ipv4Number(ip);
    if (v4 === -1) {
      const n = this.others.get(ip) ?? 0;
      if (n > this.perMinute) return true;
      this.others.set(ip, n + 1);
      return n + 1 > this.perMinute;
    }
    const at = this.slot(v4);
    const n = this.counts[at];
    if (n > this.perMinute) return true;
    if (n === 0) {
      this.keys[at] = v4;
      if (++this.used * 2 > this.keys.length) {
        this.counts[at] = 1;
        this.grow();
        return 1 > this.perMinute;
      }
    }
    this.counts[at] = n + 1;
    return n + 1 > this.perMinute;
  }

  /** The address's slot, or the free slot where it goes. */
  private slot(v4: number): number {
    const mask = this.keys.length - 1;
    let at = (Math.imul(v4, 0x9e3779b1) >>> 0) & mask;
    while (this.counts[at] !== 0 && this.keys[at] !== v4) at = (at + 1) & mask;
    return at;
  }

  /** Twice the slots (kept at most half full), every address moved to its place. */
  private grow(): void {
    const keys = this.keys;
    const counts = this.counts;
    this.keys = new Uint32Array(keys.length * 2);
    this.counts = new Uint32Array(keys.length * 2);
    for (let i = 0; i < keys.length; i++) {
      if (counts[i] === 0) continue;
      const at = this.slot(keys[i]);
      this.keys[at] = keys[i];
      this.counts[at] = counts[i];
    }
  }
}

/**
 * Hits per IP in fixed minutes of the events' own time (seen_at): within one minute, the hits
 * beyond `perMinute` are over the rate. Counts of the last few minutes seen are kept: a minute
 * not seen before starts its counts, and the earliest of more than MINUTES_KEPT is forgotten
 * (itself, when it is the earliest: an older event then counts alone). The last minute's
 * counts are at hand (a batch's events mostly share their minute).
 */
export class IpRateMeter {
  private readonly minutes = new Map<number, MinuteCounts>();
  private lastMinute = Number.NaN;
  private last: MinuteCounts | undefined;

  constructor(private readonly perMinute: number) {}

  /** Counts the hit; true when its IP is over the rate in the hit's minute. */
  over(ip: string, ms: number): boolean {
    if (this.perMinute <= 0) return false;
    const minute = Math.floor(ms / MINUTE_MS);
    const m = minute === this.lastMinute ? this.last : this.minuteCounts(minute);
    if (m === undefined) return false; // its minute forgotten at once: the hit counts alone (1, never over a rate ≥ 1)
    return m.hit(ip);
  }

  /** The minute's counts, started when new (undefined when that makes it the earliest of too many: forgotten). */
  private minuteCounts(minute: number): MinuteCounts | undefined {
    let m = this.minutes.get(minute);
    if (m === undefined) {
      m = new MinuteCounts(this.perMinute);
      this.minutes.set(minute, m);
      if (this.minutes.size > MINUTES_KEPT) {
        const earliest = Math.min(...this.minutes.keys());
        this.minutes.delete(earliest);
        if (earliest === this.lastMinute) {
          this.lastMinute = Number.NaN;
          this.last = undefined;
        }
        if (earliest === minute) return undefined;
      }
    }
    this.lastMinute = minute;
    this.last = m;
    return m;
  }
}

export class BotClassifier {
  private readonly agents = new Map<string, boolean>();
  private lastAgent: string | undefined;
  private lastBot = false;
  private readonly ipRate: IpRateMeter;

  constructor(
    private readonly spam: SpamListService,
    /** Whether a zone report has named the zone; undefined while no report names any (nothing can be told). */
    private readonly knownZone: (zoneId: string) => boolean | undefined,
    ipRatePerMinute: number,
  ) {
    this.ipRate = new IpRateMeter(ipRatePerMinute);
  }

  /** Whether the user agent is a known bot or crawler (isbot), cached (the last one apart: a batch's events often share theirs). */
  isBotAgent(userAgent: string): boolean {
    if (userAgent === this.lastAgent) return this.lastBot;
    let bot = this.agents.get(userAgent);
    if (bot === undefined) {
      bot = isbot(userAgent);
      if (this.agents.size >= UA_CACHE) this.agents.clear();
      this.agents.set(userAgent, bot);
    }
    this.lastAgent = userAgent;
    this.lastBot = bot;
    return bot;
  }

  /**
   * Whether the event's referrer host or source is on the spam list. `sourceSent`: the event came
   * with a source of its own; without one, its parent_domain is its referrer's host as ingest read
   * it (the URL's hostname), so that one lookup answers for both.
   */
  isSpam(e: Pick<ClassifiedEvent, 'referrer' | 'parent_domain'>, sourceSent = true): boolean {
    if (e.parent_domain !== null) {
      const verdict = this.spam.verdict(e.parent_domain);
      if ((verdict & SPAM_HOST) !== 0) return true;
      if (!sourceSent) return false; // the referrer's host, just looked up
      // its host is the source, just looked up
      if (e.referrer !== null && (verdict & PLAIN_HOST) !== 0 && onPlainHost(e.referrer, e.parent_domain)) return false;
    }
    const host = urlHost(e.referrer);
    return host !== null && host !== e.parent_domain && this.spam.isSpam(host);
  }

  /**
   * Why the event is invalid traffic, or null when it is not. Every hit with an IP counts toward
   * its rate. `sourceSent`: whether the event came with a source (parent_domain) of its own.
   */
  classify(e: ClassifiedEvent, userAgent: string | null | undefined, sourceSent = true): BotReason | null {
    const overRate = e.ip !== null && this.ipRate.over(e.ip, e.seen_ms);
    if (userAgent && this.isBotAgent(userAgent)) return 'user_agent';
    if (this.isSpam(e, sourceSent)) return 'spam_referrer';
    if (overRate) return 'ip_rate';
    if (this.knownZone(e.zone_id) === false) return 'unknown_zone';
    return null;
  }
}
