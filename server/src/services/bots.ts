// Invalid traffic (IVT) at ingest: each beacon hit and batch event is told apart as a known bot
// or crawler by its user agent (the isbot package's maintained list, answers cached per user
// agent), referrer spam (its referrer's or source's host on the spam list), one IP over its
// hits per minute, or a zone no zone report has ever named. The first reason that applies, in
// that order, is stored with the event (is_bot, reason); all of it costs a few map lookups.
import { isbot } from 'isbot';
import type { BotReason } from '@adops/core';
import type { SpamListService } from './spam-list.js';

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

const NOT_URL_HOST = /[/?#:@[\]]|\.$/;
/**
 * Whether urlHost(url) is `host` (the common event: its source read from its referrer), without
 * reading the URL: it is http(s):// then `host` (lower case, not ending in '.', without any of
 * / ? # : @ [ ], as urlHost never answers) then its end, path, query or fragment.
 */
function onHost(url: string, host: string): boolean {
  const at = url.startsWith('https://') ? 8 : url.startsWith('http://') ? 7 : 0;
  if (at === 0 || !url.startsWith(host, at)) return false;
  const end = at + host.length;
  if (end < url.length) {
    const c = url.charCodeAt(end);
    if (c !== 0x2f && c !== 0x3f && c !== 0x23) return false; // '/', '?', '#'
  }
  return host.length > 0 && !NOT_URL_HOST.test(host) && host === host.toLowerCase();
}

/**
 * Hits per IP in fixed minutes of the events' own time (seen_at): within one minute, the hits
 * beyond `perMinute` are over the rate. Counts of the last few minutes seen are kept.
 */
export class IpRateMeter {
  private readonly minutes = new Map<number, Map<string, number>>();

  constructor(private readonly perMinute: number) {}

  /** Counts the hit; true when its IP is over the rate in the hit's minute. */
  over(ip: string, ms: number): boolean {
    if (this.perMinute <= 0) return false;
    const minute = Math.floor(ms / MINUTE_MS);
    let counts = this.minutes.get(minute);
    if (counts === undefined) {
      counts = new Map();
      this.minutes.set(minute, counts);
      if (this.minutes.size > MINUTES_KEPT) this.minutes.delete(Math.min(...this.minutes.keys()));
    }
    const n = (counts.get(ip) ?? 0) + 1;
    counts.set(ip, n);
    return n > this.perMinute;
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

  /** Whether the event's referrer host or source is on the spam list. */
  isSpam(e: Pick<ClassifiedEvent, 'referrer' | 'parent_domain'>): boolean {
    if (e.parent_domain !== null) {
      if (this.spam.isSpam(e.parent_domain)) return true;
      if (e.referrer !== null && onHost(e.referrer, e.parent_domain)) return false; // its host is the source, just looked up
    }
    const host = urlHost(e.referrer);
    return host !== null && host !== e.parent_domain && this.spam.isSpam(host);
  }

  /** Why the event is invalid traffic, or null when it is not. Every hit with an IP counts toward its rate. */
  classify(e: ClassifiedEvent, userAgent: string | null | undefined): BotReason | null {
    const overRate = e.ip !== null && this.ipRate.over(e.ip, e.seen_ms);
    if (userAgent && this.isBotAgent(userAgent)) return 'user_agent';
    if (this.isSpam(e)) return 'spam_referrer';
    if (overRate) return 'ip_rate';
    if (this.knownZone(e.zone_id) === false) return 'unknown_zone';
    return null;
  }
}
