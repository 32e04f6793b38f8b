// Referrer traffic: validates beacon hits and NDJSON batches, stamps each event with its zone's
// publisher/advertiser, commits through the group-commit writer (each batch's ids reserved on
// the live bus just before its commit), publishes committed events on the live bus, answers
// report/log/filter queries and runs retention.
// Idempotent ingest: an event may carry a key (the client's event_id, or one derived from its
// batch's Idempotency-Key); a keyed event whose key was stored in the last 7 days, or that
// repeats a key earlier in its commit, is a duplicate: never stored, never published, counted
// in the answer. Keys live in the warehouse (they outlast a restart) and expire with retention.
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import {
  IdempotencyKey,
  REFERRER_LIMITS,
  logCsvFields,
  logCsvFile,
  referrerCsvFields,
  referrerCsvFile,
  todayIn,
  zonedDayStart,
  zonedDayEnd,
  instantComparison,
  instantComparisonWords,
  percentChange,
  type VisitsComparison,
  type ReferrerFilterParsed,
  type ReferrerFilters,
  type ReferrerLogRecord,
  type ReferrerRow,
  type IngestReferrersResult,
  type IvtRow,
  type IvtTable,
  ivtRate,
  ivtCsvFields,
  ivtCsvFile,
  type TableRequest,
  DATE_RANGE_REVERSED,
  rangeTooLong,
  fieldLabel,
} from '@adops/core';
import type { Config } from '../config.js';
import { httpError, zodDetail } from '../errors.js';
import {
  EventKeyConflict,
  EventWriter,
  eventsOf,
  type WritePart,
  eventMatches,
  type EventFilter,
  type IvtSums,
  type RangeFilter,
  type ReferrerEvent,
  type ReferrerWarehouse,
  type RetentionResult,
  type ZoneOwner,
} from '../warehouse/index.js';
import { countedPage, type TableExport, type TablePageOf } from '../tables.js';
import { MemoryLiveBus, type LiveBus } from '../live/bus.js';
import { SseHub } from '../live/sse.js';
import type { ZoneValues } from './zone-values.js';
import type { TokenBucket } from '../live/token-bucket.js';
import { BotClassifier } from './bots.js';
import { parseIngestLine } from './ingest-line.js';
import type { SpamListService } from './spam-list.js';

const DAY_MS = 86_400_000;
const FUTURE_SLACK_MS = 5 * 60_000;
const OLDEST_EVENT_MS = Date.UTC(2000, 0, 1);
/**
 * Zone owners are reloaded after every zone-report import (see services/index.ts) and, as a
 * safety net for imports another instance made, every 10 minutes: each reload scans the zone
 * reports, so it is not done on every unknown zone a beacon names.
 */
const ZONE_REFRESH_MS = 10 * 60_000;
const ZONE_ID = /^[\w.:-]{1,64}$/;
/** How long a stored key makes a resent event a duplicate. */
const IDEMPOTENCY_MS = REFERRER_LIMITS.idempotencyDays * DAY_MS;
/** Tries of a commit whose keys were stored before (each try drops those events): a resend, then another writer's race. */
const KEY_CONFLICT_TRIES = 3;
const HOST_LABELS = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** An event before it has an id and owners. */
export type NewReferrerEvent = Omit<ReferrerEvent, 'id' | 'publisher' | 'advertiser'>;

/** A rejected event field; the ingest route prefixes the line number. */
export class EventError extends Error {}

/** A field's refusal as every other refusal reads: its label, then what is wrong ("País: …"). */
const refused = (field: string, predicate: string) => new EventError(`${fieldLabel([field])}: ${predicate}`);
const CONTROL = 'no puede contener caracteres de control';

/**
 * Idempotency keys: a batch event's event_id ('e:'), a beacon's ('h:': the public beacon can
 * never claim, and so suppress, a batch event's id), and a batch sent with an Idempotency-Key
 * ('b:' + SHA-256 of the key and the body: a resend of the same batch matches; a different body
 * under a used key is another batch — its events stored, none silently dropped).
 */
export const eventKeys = {
  batchEvent: (eventId: string) => `e:${eventId}`,
  beacon: (eventId: string) => `h:${eventId}`,
  /**
   * A batch's key: SHA-256 of the Idempotency-Key, a newline and the body's UTF-8. `raw`, the
   * bytes the body was decoded from, is hashed as is when it is valid UTF-8 (the same bytes,
   * without encoding the text again); otherwise the decoded text is (its U+FFFD replacements).
   */
  batch: (idempotencyKey: string, body: string, raw?: Uint8Array) =>
    `b:${createHash('sha256')
      .update(idempotencyKey)
      .update('\n')
      .update(raw !== undefined && isUtf8(raw) ? raw : body)
      .digest('base64url')}`,
};

/**
 * An event's own key rides on it under a symbol: JSON (the live bus) and the log never see it.
 * A batch's key is its request's, written with the request's events as their tag (one, however
 * many events): stored once, and finding it makes every one of them a duplicate.
 */
const EVENT_KEY = Symbol('eventKey');
type KeyedEvent = ReferrerEvent & { [EVENT_KEY]?: string };
const keyOf = (e: ReferrerEvent): string | undefined => (e as KeyedEvent)[EVENT_KEY];

/** The keys of one request's events: its batch key (the Idempotency-Key's), if any, and whether some event has a key of its own. */
interface PartKeys {
  batchKey: string | undefined;
  ownKeys: boolean;
}

/** One request's events in a commit, and their keys (none when untagged). */
type Part = WritePart<PartKeys>;

/** Every key of the parts, each once: their batch keys and their events' own. */
function keysOf(parts: readonly Part[]): string[] {
  const keys = new Set<string>();
  for (const part of parts) {
    if (part.tag?.batchKey !== undefined) keys.add(part.tag.batchKey);
    if (part.tag?.ownKeys)
      for (const e of part.events) {
        const own = keyOf(e);
        if (own !== undefined) keys.add(own);
      }
  }
  return [...keys];
}

/**
 * The parts of a commit but the repeats: a part whose batch key an earlier part sent too (the
 * same batch twice at once: the first counts), and an event whose own key an earlier event had.
 */
function firstOfEachKey(parts: readonly Part[]): readonly Part[] {
  let repeated = false;
  const batches = new Set<string>();
  const keys = new Set<string>();
  for (const part of parts) {
    const batchKey = part.tag?.batchKey;
    if (batchKey !== undefined) {
      if (batches.has(batchKey)) repeated = true;
      else batches.add(batchKey);
    }
    if (!part.tag?.ownKeys) continue;
    for (const e of part.events) {
      const key = keyOf(e);
      if (key === undefined) continue;
      if (keys.has(key)) repeated = true;
      else keys.add(key);
    }
  }
  if (!repeated) return parts;
  const takenBatches = new Set<string>();
  const taken = new Set<string>();
  const kept: Part[] = [];
  for (const part of parts) {
    const batchKey = part.tag?.batchKey;
    if (batchKey !== undefined) {
      if (takenBatches.has(batchKey)) continue;
      takenBatches.add(batchKey);
    }
    if (!part.tag?.ownKeys) {
      kept.push(part);
      continue;
    }
    const events = part.events.filter((e) => {
      const key = keyOf(e);
      if (key === undefined) return true;
      if (taken.has(key)) return false;
      taken.add(key);
      return true;
    });
    kept.push({ ...part, events });
  }
  return kept;
}

/** The Idempotency-Key header's value (undefined when absent or empty); 400 when it is not a valid key. */
export function parseIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined || header === '') return undefined;
  const parsed = IdempotencyKey.safeParse(header);
  if (!parsed.success) throw httpError(400, parsed.error.issues[0]?.message ?? 'Idempotency-Key no válida');
  return parsed.data;
}

export interface ReferrerServiceOptions {
  lingerMs: number;
  maxRows: number;
  ringSize: number;
  heartbeatMs: number;
  /** How often an open live stream checks that its session still lives (ms). */
  aliveCheckMs: number;
  maxBacklogEvents: number;
  retentionEveryMs: number;
  /** First retention run after start (ms). */
  retentionFirstMs: number;
}

/** What keeps bad traffic apart: the spam list the classifier reads (none: no classification) and the beacon's per-IP bucket. */
export interface ReferrerTrafficGuards {
  spam?: SpamListService;
  beaconBucket?: TokenBucket;
  /** What each visit is worth ('Valor': its zone's RPV and TQ), on log rows and live events. */
  values?: ZoneValues;
}

export const DEFAULT_REFERRER_OPTIONS: ReferrerServiceOptions = {
  lingerMs: 5,
  maxRows: 5000,
  ringSize: 10_000,
  heartbeatMs: 15_000,
  aliveCheckMs: 3000,
  maxBacklogEvents: 20_000,
  retentionEveryMs: DAY_MS,
  retentionFirstMs: 60_000,
};

/** A host name from a domain or an http(s) URL, lower-cased; null when it is neither. */
export function hostOf(value: string): string | null {
  const v = value.trim();
  if (v === '') return null;
  if (/^https?:\/\//i.test(v)) {
    try {
      const host = new URL(v).hostname.toLowerCase();
      return host.startsWith('[') || HOST_LABELS.test(host) ? host : null;
    } catch {
      return null;
    }
  }
  const host = v.toLowerCase().replace(/\.$/, '');
  return HOST_LABELS.test(host) ? host : null;
}

/**
 * An http(s) URL whose host is plain ASCII labels, the last starting with a letter (not an IPv4
 * form), none punycode, right before its path, query, fragment or end: URL's hostname for it is
 * the host lower-cased, so it is read without parsing the URL (the common referrer).
 */
const PLAIN_URL_HOST = /^https?:\/\/((?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*)(?:[/?#]|$)/i;
const PUNYCODE_LABEL = /(?:^|\.)xn--/i;

/** The referrer URL's host (http/https only). */
function referrerHost(referrer: string | null): string | null {
  if (!referrer) return null;
  const plain = PLAIN_URL_HOST.exec(referrer);
  if (plain !== null && !PUNYCODE_LABEL.test(plain[1])) return plain[1].toLowerCase();
  if (!/^https?:\/\//i.test(referrer)) return null;
  try {
    const host = new URL(referrer).hostname.toLowerCase();
    return host || null;
  } catch {
    return null;
  }
}

/** An instant as ISO text; the last one is remembered (a batch's events mostly share their arrival time). */
let lastIso = { ms: Number.NaN, iso: '' };
function isoOf(ms: number): string {
  if (ms !== lastIso.ms) lastIso = { ms, iso: new Date(ms).toISOString() };
  return lastIso.iso;
}

/** IPv4-mapped IPv6 written as IPv4; null when not an address. */
export function normalizeIp(ip: string | null | undefined): string | null {
  if (!ip) return null;
  const t = ip.trim();
  const v = t.includes(':') ? t.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1') : t;
  return isIP(v) ? v : null;
}

const blankToNull = (v: string | null | undefined): string | null => (v == null || v.trim() === '' ? null : v);

function noNul(field: string, v: string | null): string | null {
  if (v?.includes('\u0000')) throw refused(field, CONTROL);
  return v;
}

/** What normalizeEvent reads. */
interface EventInput {
  zone_id: string;
  referrer?: string | null;
  keyword?: string | null;
  parent_domain?: string | null;
  ip?: string | null;
  country?: string | null;
  seen_at?: string | null;
  campaign_id?: string | null;
  adset_id?: string | null;
  ad_id?: string | null;
  placement?: string | null;
}

/**
 * Validates and completes one event: parent_domain is the given source (a host or URL) or else
 * the referrer URL's host; seen_at defaults to the arrival time.
 */
export function normalizeEvent(input: EventInput, arrivedAt: number): NewReferrerEvent;
/** The same, stamped as accept() stamps it (id 0, its zone's owner from `ownerOf`) in one object. */
export function normalizeEvent(input: EventInput, arrivedAt: number, ownerOf: (zoneId: string) => ZoneOwner): ReferrerEvent;
export function normalizeEvent(input: EventInput, arrivedAt: number, ownerOf?: (zoneId: string) => ZoneOwner): NewReferrerEvent | ReferrerEvent {
  const zone_id = input.zone_id.trim();
  if (!ZONE_ID.test(zone_id)) throw refused('zone_id', 'debe tener de 1 a 64 letras, dígitos o . _ : -');
  const referrer = noNul('referrer', blankToNull(input.referrer));
  if (referrer !== null && referrer.length > REFERRER_LIMITS.referrer)
    throw refused('referrer', `no puede superar ${REFERRER_LIMITS.referrer} caracteres`);
  const keyword = noNul('keyword', blankToNull(input.keyword));
  if (keyword !== null && keyword.length > REFERRER_LIMITS.keyword)
    throw refused('keyword', `no puede superar ${REFERRER_LIMITS.keyword} caracteres`);
  let parent_domain: string | null = null;
  const source = blankToNull(input.parent_domain);
  if (source !== null) {
    parent_domain = hostOf(source);
    if (parent_domain === null) throw refused('parent_domain', 'debe ser un dominio o una URL http(s)');
  } else parent_domain = referrerHost(referrer);
  let ip: string | null = null;
  if (blankToNull(input.ip) !== null) {
    ip = normalizeIp(input.ip);
    if (ip === null) throw refused('ip', 'no es una dirección IPv4 o IPv6 válida');
  }
  let country: string | null = null;
  if (blankToNull(input.country) !== null) {
    const c = input.country!.trim().toUpperCase();
    if (!/^[A-Z][A-Z0-9]$/.test(c)) throw refused('country', 'debe ser un código de país de 2 letras');
    country = c;
  }
  let seen_ms = arrivedAt;
  if (input.seen_at) {
    seen_ms = Date.parse(input.seen_at);
    if (Number.isNaN(seen_ms)) throw refused('seen_at', 'no es una fecha válida');
    if (seen_ms > arrivedAt + FUTURE_SLACK_MS) throw refused('seen_at', 'está en el futuro');
    if (seen_ms < OLDEST_EVENT_MS) throw refused('seen_at', 'es anterior a 2000');
  }
  const seen_at = isoOf(seen_ms);
  const campaign_id = attributionValue('campaign_id', input.campaign_id);
  const adset_id = attributionValue('adset_id', input.adset_id);
  const ad_id = attributionValue('ad_id', input.ad_id);
  const placement = attributionValue('placement', input.placement);
  if (ownerOf === undefined)
    return {
      zone_id,
      parent_domain,
      referrer,
      keyword,
      ip,
      country,
      seen_ms,
      seen_at,
      is_bot: false,
      reason: null,
      campaign_id,
      adset_id,
      ad_id,
      placement,
    };
  const owner = ownerOf(zone_id);
  // accept()'s `{ id: 0, ...event, publisher, advertiser }`, key for key
  return {
    id: 0,
    zone_id,
    parent_domain,
    referrer,
    keyword,
    ip,
    country,
    seen_ms,
    seen_at,
    is_bot: false,
    reason: null,
    campaign_id,
    adset_id,
    ad_id,
    placement,
    publisher: owner.publisher,
    advertiser: owner.advertiser,
  };
}

/**
 * An attribution value as stored: trimmed; blank or a Meta macro left unreplaced ('{{ad.id}}',
 * as a preview of the ad sends it) is absent; longer than the limit or with control characters, refused.
 */
function attributionValue(field: string, value: string | null | undefined): string | null {
  const v = value?.trim();
  if (!v || /^\{\{[^{}]*\}\}$/.test(v)) return null;
  if (v.length > REFERRER_LIMITS.attribution) throw refused(field, `no puede superar ${REFERRER_LIMITS.attribution} caracteres`);
  if (/\p{Cc}/u.test(v)) throw refused(field, CONTROL);
  return v;
}

/** A filter date: ISO with offset, a local date-time (in tz) or a calendar day (in tz). */
function instantOf(value: string, bound: 'start' | 'end', tz: string): number {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return (bound === 'start' ? zonedDayStart(value, tz) : zonedDayEnd(value, tz)).getTime();
  if (/(Z|[+-]\d{2}:?\d{2})$/i.test(value)) return Date.parse(value);
  const [day, time] = value.split('T');
  const [h = 0, m = 0, s = 0] = time.split(':').map(Number);
  return zonedDayStart(day, tz).getTime() + Math.round(((h * 60 + m) * 60 + s) * 1000);
}

/** Resolves a parsed filter's dates in the reporting time zone (default: today) and checks them. */
export function resolveRange(f: ReferrerFilterParsed, tz: string, now = new Date()): RangeFilter {
  const today = todayIn(tz, now);
  const to = f.endDate ? instantOf(f.endDate, 'end', tz) : zonedDayEnd(today, tz).getTime();
  const from = f.startDate ? instantOf(f.startDate, 'start', tz) : zonedDayStart(f.endDate ? todayIn(tz, new Date(to)) : today, tz).getTime();
  if (from > to) throw httpError(400, DATE_RANGE_REVERSED);
  if (to - from > (REFERRER_LIMITS.spanDays + 1) * DAY_MS) throw httpError(400, rangeTooLong(REFERRER_LIMITS.spanDays));
  return { ...textFilter(f), from, to };
}

/**
 * The filter's human visits against the previous period, like with like (core's
 * instantComparison): visits have instants, so a period still running stops both sides at the
 * same time of day.
 */
export async function visitsComparison(
  warehouse: Pick<ReferrerWarehouse, 'referrers'>,
  filter: RangeFilter,
  tz: string,
  now: Date,
): Promise<VisitsComparison> {
  const c = instantComparison({ from: filter.from, to: filter.to }, now, tz);
  const visits = async (span: { from: number; to: number } | null) =>
    span && {
      from: new Date(span.from).toISOString(),
      to: new Date(span.to).toISOString(),
      hits: (await warehouse.referrers({ filter: { ...filter, from: span.from, to: span.to }, order: [], limit: 1 })).hits,
    };
  const [current, previous] = await Promise.all([visits(c.current), visits(c.previous)]);
  return {
    basis: c.basis,
    tz,
    today: c.today,
    current,
    previous,
    change_percent: current && previous ? percentChange(current.hits, previous.hits) : null,
    ...instantComparisonWords(c, tz),
  };
}

/** The calendar day of an instant in the reporting time zone (export file names). */
const dayOf = (ms: number, tz: string) => todayIn(tz, new Date(ms));

/** The text part of a filter (zone substring lower-cased) and whether flagged traffic counts. */
export function textFilter(f: Pick<ReferrerFilterParsed, 'zoneId' | 'advertiser' | 'publisher' | 'parentDomain' | 'include_bots'>): EventFilter {
  return {
    zoneId: f.zoneId?.toLowerCase(),
    advertiser: f.advertiser,
    publisher: f.publisher,
    parentDomain: f.parentDomain?.toLowerCase(),
    includeBots: f.include_bots === true,
  };
}

/** The stream's filter: dates only when given (a live stream has no default range). */
export function streamFilter(f: ReferrerFilterParsed, tz: string): EventFilter {
  const out = textFilter(f);
  if (f.startDate) out.from = instantOf(f.startDate, 'start', tz);
  if (f.endDate) out.to = instantOf(f.endDate, 'end', tz);
  if (out.from !== undefined && out.to !== undefined && out.from > out.to) throw httpError(400, DATE_RANGE_REVERSED);
  return out;
}

const frames = new WeakMap<ReferrerEvent, string>();
/** The event's SSE frame: `id:` and one ReferrerLogRecord as JSON, with its value (computed once, shared by every client). */
export function eventFrame(e: ReferrerEvent, values?: ZoneValues): string {
  let frame = frames.get(e);
  if (frame === undefined) {
    const worth = values ? values.peek(e.zone_id, e.seen_ms, e.is_bot) : { value: null, tq: null };
    const record: ReferrerLogRecord = {
      id: e.id,
      zone_id: e.zone_id,
      parent_domain: e.parent_domain,
      referrer: e.referrer,
      seen_at: e.seen_at,
      keyword: e.keyword,
      ip: e.ip,
      country: e.country,
      is_bot: e.is_bot,
      reason: e.reason,
      value: worth.value,
      tq: worth.tq,
    };
    frame = `id: ${e.id}\ndata: ${JSON.stringify(record)}\n\n`;
    frames.set(e, frame);
  }
  return frame;
}

export class ReferrerService {
  readonly bus: LiveBus<ReferrerEvent>;
  readonly hub: SseHub<ReferrerEvent>;
  /** Each request's events are written with their keys as the tag (none: no key to look for). */
  private readonly writer: EventWriter<PartKeys>;
  private zones = new Map<string, ZoneOwner>();
  /** A reload asked for while one ran: it runs once more after, so an import's zones are never missed. */
  private zoneRefreshAgain = false;
  private zoneRefresh: Promise<void> | undefined;
  private readonly timers: NodeJS.Timeout[] = [];
  private closed = false;
  /** Tells bot and spam traffic apart (absent with ADOPS_BOT_FILTER=0). */
  readonly bots: BotClassifier | undefined;
  /** The beacon's per-IP token bucket (absent with ADOPS_BEACON_RATE=0). */
  private readonly beaconBucket: TokenBucket | undefined;
  /** Each visit's worth (absent: value and tq are null). */
  readonly values: ZoneValues | undefined;

  private constructor(
    readonly warehouse: ReferrerWarehouse,
    /** zone_id → publisher/advertiser, from the zone reports. */
    private readonly loadZoneOwners: () => Promise<Map<string, ZoneOwner>>,
    private readonly config: Config,
    private readonly log: (line: string) => void,
    readonly options: ReferrerServiceOptions,
    bus: LiveBus<ReferrerEvent> | undefined,
    traffic: ReferrerTrafficGuards,
  ) {
    this.bus = bus ?? new MemoryLiveBus<ReferrerEvent>(options.ringSize);
    // A zone is unknown once some zone report names zones and none names it.
    if (config.botFilter && traffic.spam)
      this.bots = new BotClassifier(
        traffic.spam,
        (zoneId) => (this.zones.size === 0 ? undefined : this.zones.has(zoneId)),
        config.botIpRatePerMinute,
      );
    this.beaconBucket = traffic.beaconBucket;
    const values = traffic.values;
    this.values = values;
    // Streams get each batch once its days' zone values are loaded (the beacon never waits for them).
    this.hub = new SseHub<ReferrerEvent>(values ? valuedDelivery(this.bus, values) : this.bus, (e) => eventFrame(e, values), {
      heartbeatMs: options.heartbeatMs,
      maxBacklogEvents: options.maxBacklogEvents,
      retryMs: 2000,
      maxReplay: options.ringSize,
      aliveCheckMs: options.aliveCheckMs,
    });
    this.writer = new EventWriter(
      (parts) => this.commit(parts),
      (events) => {
        this.bus.publish(events).catch((e: Error) => this.log(`referrers: committed events not published live: ${e.message}`));
      },
      { lingerMs: options.lingerMs, maxRows: options.maxRows },
    );
  }

  /**
   * One group-commit batch: ids reserved on the bus (unique across instances), then stored with
   * the events' keys. A key repeated within the batch keeps its first event (a batch key, its
   * first request); when the warehouse finds keys stored within the window (EventKeyConflict:
   * nothing stored), those events are left out, the reservation given back, and the rest tried
   * again. Answers the events stored; the others keep id 0.
   */
  private async commit(parts: readonly Part[]): Promise<readonly ReferrerEvent[]> {
    const since = Date.now() - IDEMPOTENCY_MS;
    let kept = firstOfEachKey(parts);
    for (let tries = 1; ; tries++) {
      const fresh = eventsOf(kept);
      if (fresh.length === 0) return fresh;
      const first = await this.bus.reserve(fresh.length);
      for (let i = 0; i < fresh.length; i++) (fresh[i] as { id: number }).id = first + i;
      const keys = keysOf(kept);
      try {
        await this.warehouse.append(fresh, keys.length > 0 ? { keys, since } : undefined);
        return fresh;
      } catch (e) {
        for (const event of fresh) (event as { id: number }).id = 0;
        this.bus.cancel(first, fresh.length).catch(() => {}); // otherwise given up at its deadline
        if (!(e instanceof EventKeyConflict) || tries >= KEY_CONFLICT_TRIES) throw e;
        const stored = e.keys;
        kept = kept
          .filter((part) => part.tag?.batchKey === undefined || !stored.has(part.tag.batchKey))
          .map((part) => (part.tag?.ownKeys ? { ...part, events: part.events.filter((event) => !stored.has(keyOf(event) ?? '')) } : part));
      }
    }
  }

  /** Continues the id sequence, loads zone owners and starts the timers (and the bus: in memory by default). */
  static async open(
    warehouse: ReferrerWarehouse,
    zoneOwners: () => Promise<Map<string, ZoneOwner>>,
    config: Config,
    log: (line: string) => void,
    options: Partial<ReferrerServiceOptions> = {},
    bus?: LiveBus<ReferrerEvent>,
    traffic: ReferrerTrafficGuards = {},
  ): Promise<ReferrerService> {
    const service = new ReferrerService(warehouse, zoneOwners, config, log, { ...DEFAULT_REFERRER_OPTIONS, ...options }, bus, traffic);
    await service.bus.start(await service.warehouse.maxEventId());
    await service.refreshZones();
    service.startTimers();
    return service;
  }

  private startTimers(): void {
    const every = (ms: number, fn: () => void) => {
      const t = setInterval(fn, ms);
      t.unref();
      this.timers.push(t);
    };
    every(ZONE_REFRESH_MS, () => void this.refreshZones());
    const first = setTimeout(() => {
      void this.runRetention();
      every(this.options.retentionEveryMs, () => void this.runRetention());
    }, this.options.retentionFirstMs);
    first.unref();
    this.timers.push(first);
  }

  /** Reloads zone → publisher/advertiser from the zone reports (each zone's latest, busiest row). */
  refreshZones(): Promise<void> {
    if (this.zoneRefresh) {
      this.zoneRefreshAgain = true;
      return this.zoneRefresh;
    }
    const run = async (): Promise<void> => {
      do {
        this.zoneRefreshAgain = false;
        try {
          this.zones = await this.loadZoneOwners();
        } catch (e) {
          this.log(`referrers: zone owners not refreshed: ${(e as Error).message}`);
        }
      } while (this.zoneRefreshAgain && !this.closed);
    };
    this.zoneRefresh = run().finally(() => {
      this.zoneRefresh = undefined;
    });
    return this.zoneRefresh;
  }

  /** The publisher and advertiser hits of a zone are stamped with (null while unknown). */
  zoneOwner(zoneId: string): ZoneOwner {
    return this.zones.get(zoneId) ?? { publisher: null, advertiser: null };
  }

  private readonly ownerOf = (zoneId: string): ZoneOwner => this.zoneOwner(zoneId);

  /**
   * Stamps, commits and publishes events; resolves after their batch committed (the real
   * ingest path: the beacon, batches and the demo simulator all come through here). Ids are
   * given when the batch commits, so they follow the commit order. `keys[i]` is events[i]'s
   * idempotency key (see eventKeys), if any, and `batchKey` the key of the whole request: a
   * duplicate is counted, not stored.
   */
  async accept(events: readonly NewReferrerEvent[], keys?: readonly (string | undefined)[], batchKey?: string): Promise<IngestReferrersResult> {
    if (events.length === 0) return { accepted: 0, duplicates: 0, first_id: null, last_id: null };
    const stamped: ReferrerEvent[] = events.map((e, i) => {
      const owner = this.zoneOwner(e.zone_id);
      const event: KeyedEvent = { id: 0, ...e, publisher: owner.publisher, advertiser: owner.advertiser };
      const key = keys?.[i];
      if (key !== undefined) event[EVENT_KEY] = key;
      return event;
    });
    return this.store(stamped, batchKey, keys?.some((k) => k !== undefined) === true);
  }

  /**
   * Commits stamped events and counts what was stored: `batchKey`, the request's key, and
   * `ownKeys`, whether some event carries a key of its own, are what the commit looks for (an
   * untagged write has none).
   */
  private async store(stamped: readonly ReferrerEvent[], batchKey?: string, ownKeys = false): Promise<IngestReferrersResult> {
    if (this.closed) throw httpError(503, 'El servidor se está cerrando');
    try {
      await this.writer.write(stamped, batchKey !== undefined || ownKeys ? { batchKey, ownKeys } : undefined);
    } catch (e) {
      this.log(`referrers: batch not committed: ${(e as Error).message}`);
      throw httpError(503, 'No se pudieron guardar los eventos; reinténtalo');
    }
    const stored = stamped.filter((e) => e.id !== 0);
    return {
      accepted: stored.length,
      duplicates: stamped.length - stored.length,
      first_id: stored[0]?.id ?? null,
      last_id: stored.at(-1)?.id ?? null,
    };
  }

  /**
   * An NDJSON batch: every line must be valid or nothing is stored (400 names the line). With an
   * `idempotencyKey` (the Idempotency-Key header), a resend of the same body is a duplicate whole.
   * `raw`: the bytes `body` was decoded from (UTF-8), when the caller holds them.
   */
  async ingestNdjson(body: string, arrivedAt = Date.now(), idempotencyKey?: string, raw?: Uint8Array): Promise<IngestReferrersResult> {
    // Each event is made stamped (as accept() stamps it), its key on it.
    const events: KeyedEvent[] = [];
    let ownKeys = false;
    let lineNo = 0;
    let start = 0;
    while (start <= body.length) {
      let end = body.indexOf('\n', start);
      if (end === -1) end = body.length;
      const line = body.slice(start, end).trim();
      start = end + 1;
      lineNo++;
      if (line === '') continue;
      if (events.length >= REFERRER_LIMITS.batchEvents) throw httpError(413, `El lote supera ${REFERRER_LIMITS.batchEvents} eventos`);
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw httpError(400, `línea ${lineNo}: JSON mal formado`);
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw httpError(400, `línea ${lineNo}: se esperaba un objeto JSON`);
      const parsed = parseIngestLine(value as Record<string, unknown>);
      if (!parsed.success) throw httpError(400, `línea ${lineNo}: ${zodDetail(parsed.error)}`);
      try {
        const event: KeyedEvent = normalizeEvent(parsed.data, arrivedAt, this.ownerOf);
        if (this.bots) this.flag(event, parsed.data.user_agent, blankToNull(parsed.data.parent_domain) !== null);
        const eventId = parsed.data.event_id;
        if (eventId != null) {
          event[EVENT_KEY] = eventKeys.batchEvent(eventId);
          ownKeys = true;
        }
        events.push(event);
      } catch (e) {
        if (e instanceof EventError) throw httpError(400, `línea ${lineNo}: ${e.message}`);
        throw e;
      }
    }
    if (events.length === 0) throw httpError(400, 'El lote no contiene eventos');
    return this.store(events, idempotencyKey === undefined ? undefined : eventKeys.batch(idempotencyKey, body, raw), ownKeys);
  }

  /**
   * Visits that arrived with their user agent, told apart by the classifier as the beacon's are
   * (when the bot filter is on), then accepted: for callers holding normalised events (the demo).
   */
  acceptVisits(visits: ReadonlyArray<{ event: NewReferrerEvent; userAgent: string | null }>): Promise<IngestReferrersResult> {
    if (this.bots) for (const v of visits) this.flag(v.event, v.userAgent);
    return this.accept(visits.map((v) => v.event));
  }

  /** Marks the event as invalid traffic when the classifier finds a reason (`sourceSent`: whether it came with a source; when not known, both hosts are looked up). */
  private flag(event: NewReferrerEvent, userAgent: string | null | undefined, sourceSent = true): void {
    const reason = this.bots!.classify(event, userAgent, sourceSent);
    if (reason !== null) {
      event.is_bot = true;
      event.reason = reason;
    }
  }

  /** How long the address must wait before its next beacon hit (ms; 0: it may send one now, and that takes a token). */
  beaconWait(ip: string | undefined, now = Date.now()): Promise<number> {
    return this.beaconBucket === undefined || ip === undefined ? Promise.resolve(0) : this.beaconBucket.take(ip, now);
  }

  /** One beacon hit; answers its id, or null when its event_id made it a duplicate. */
  async hit(
    q: { zone_id: string; ref?: string; kw?: string; src?: string; event_id?: string; cid?: string; asid?: string; adid?: string; plc?: string },
    from: { ip: string | undefined; country: string | undefined; referer: string | undefined; userAgent?: string },
  ): Promise<number | null> {
    const country = from.country?.trim().toUpperCase();
    const referer = from.referer && from.referer.length <= REFERRER_LIMITS.referrer ? from.referer : undefined;
    let event: NewReferrerEvent;
    try {
      event = normalizeEvent(
        {
          zone_id: q.zone_id,
          referrer: q.ref ?? referer,
          keyword: q.kw,
          parent_domain: q.src,
          campaign_id: q.cid,
          adset_id: q.asid,
          ad_id: q.adid,
          placement: q.plc,
          // Headers set by the CDN/proxy: a value that is not a country code is left out.
          country: country && /^[A-Z][A-Z0-9]$/.test(country) && country !== 'XX' ? country : null,
          ip: normalizeIp(from.ip),
        },
        Date.now(),
      );
    } catch (e) {
      if (e instanceof EventError) throw httpError(400, e.message);
      throw e;
    }
    if (this.bots) this.flag(event, from.userAgent, blankToNull(q.src) !== null);
    const result = await this.accept([event], [q.event_id === undefined ? undefined : eventKeys.beacon(q.event_id)]);
    return result.first_id;
  }

  /** A page of distinct referrers with how many there are and their hits in all. */
  async report(f: ReferrerFilterParsed, request: TableRequest): Promise<TablePageOf<ReferrerRow, { hits: number }>> {
    const filter = resolveRange(f, this.config.tz);
    const order = request.sort ? [request.sort] : [];
    return countedPage(
      request,
      (offset) => this.warehouse.referrers({ filter, order, limit: request.page_size, offset }),
      (first) => ({ hits: first.hits }),
    );
  }

  /** The filter's visits against the previous period up to the same time of day (visitsComparison). */
  comparison(f: ReferrerFilterParsed, now = new Date()): Promise<VisitsComparison> {
    return visitsComparison(this.warehouse, resolveRange(f, this.config.tz, now), this.config.tz, now);
  }

  reportExport(f: ReferrerFilterParsed, request: TableRequest): TableExport<ReferrerRow> {
    const filter = resolveRange(f, this.config.tz);
    return {
      file: referrerCsvFile(dayOf(filter.from, this.config.tz), dayOf(filter.to, this.config.tz)),
      fields: referrerCsvFields(this.config.tz),
      chunks: this.warehouse.streamReferrers({ filter, order: request.sort ? [request.sort] : [] }),
    };
  }

  /** A page of raw events (up to `beforeId` when given) with how many match and the newest stored id. */
  async logs(
    f: ReferrerFilterParsed & { before_id?: number },
    request: TableRequest,
  ): Promise<TablePageOf<ReferrerLogRecord, { latest_id: number | null }>> {
    const filter = resolveRange(f, this.config.tz);
    const order = request.sort ? [request.sort] : [];
    const beforeId = this.logBound(f.before_id);
    const page = await countedPage<ReferrerLogRecord, Awaited<ReturnType<ReferrerWarehouse['logs']>>, { latest_id: number | null }>(
      request,
      (offset) => this.warehouse.logs({ filter, order, beforeId, limit: request.page_size, offset }),
      (first) => ({
        latest_id: this.bus.settledId === undefined || first.latestId === null ? first.latestId : Math.min(first.latestId, this.bus.settledId),
      }),
    );
    return { ...page, rows: this.values ? await this.values.valuesOf(page.rows) : page.rows.map((r) => ({ ...r, value: null, tq: null })) };
  }

  logsExport(f: ReferrerFilterParsed & { before_id?: number }, request: TableRequest): TableExport<ReferrerLogRecord> {
    const filter = resolveRange(f, this.config.tz);
    return {
      file: logCsvFile(dayOf(filter.from, this.config.tz), dayOf(filter.to, this.config.tz)),
      fields: logCsvFields(this.config.tz),
      chunks: this.warehouse.streamLogs({ filter, order: request.sort ? [request.sort] : [], beforeId: this.logBound(f.before_id) }),
    };
  }

  /** A page of the IVT table: hits, flagged hits and the IVT rate per zone or publisher, with the same over every group. */
  async ivt(f: ReferrerFilterParsed & { by: 'zone' | 'publisher' }, request: TableRequest): Promise<TablePageOf<IvtRow, IvtTable['totals']>> {
    const filter = resolveRange(f, this.config.tz);
    const order = request.sort ? [request.sort] : [];
    const page = await countedPage<IvtSums, Awaited<ReturnType<ReferrerWarehouse['ivt']>>, IvtTable['totals']>(
      request,
      (offset) => this.warehouse.ivt({ filter, by: f.by, order, limit: request.page_size, offset }),
      (first) => ({ hits: first.hits, bot_hits: first.bot_hits, ivt_rate: ivtRate(first) }),
    );
    return { ...page, rows: page.rows.map((r) => ({ ...r, ivt_rate: ivtRate(r) })) };
  }

  ivtExport(f: ReferrerFilterParsed & { by: 'zone' | 'publisher' }, request: TableRequest): TableExport<IvtRow> {
    const filter = resolveRange(f, this.config.tz);
    const chunks = this.warehouse.streamIvt({ filter, by: f.by, order: request.sort ? [request.sort] : [] });
    return {
      file: ivtCsvFile(f.by, dayOf(filter.from, this.config.tz), dayOf(filter.to, this.config.tz)),
      fields: ivtCsvFields(f.by),
      chunks: (async function* () {
        for await (const chunk of chunks) yield chunk.map((r) => ({ ...r, ivt_rate: ivtRate(r) }));
      })(),
    };
  }

  filterOptions(): Promise<ReferrerFilters> {
    return this.warehouse.filterOptions(5000);
  }

  /**
   * The log is read up to the live bus's settled id (when several instances commit at once), so
   * a page's newest id is a resume point for the stream that skips nothing still committing.
   */
  private logBound(beforeId: number | undefined): number | undefined {
    const settled = this.bus.settledId;
    if (settled === undefined) return beforeId;
    return beforeId === undefined ? settled : Math.min(beforeId, settled);
  }

  /** The highest id assigned so far on any instance (a resume point beyond it is stale: the store was reset). */
  latestId(): Promise<number> {
    return this.bus.latestId();
  }

  /** Deletes raw events older than the retention period, keeping their daily rollup, and forgets expired idempotency keys. */
  async runRetention(now = Date.now()): Promise<RetentionResult> {
    const cutoff = now - this.config.eventRetentionDays * DAY_MS;
    try {
      await this.warehouse.expireKeys(now - IDEMPOTENCY_MS);
    } catch (e) {
      this.log(`referrers: expired event keys not removed: ${(e as Error).message}`);
    }
    try {
      const result = await this.warehouse.rollUpBefore(cutoff);
      if (result.deleted > 0) this.log(`referrers: retention removed ${result.deleted} raw events before ${new Date(cutoff).toISOString()}`);
      return result;
    } catch (e) {
      this.log(`referrers: retention failed: ${(e as Error).message}`);
      throw e;
    }
  }

  /** Stops timers, ends live streams and commits what is pending. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.hub.closeAll();
    await this.writer.close();
    await this.bus.close();
    await this.zoneRefresh;
  }

  /** Events after `afterId` for a stream resuming beyond the ring buffer. */
  backfill = async (afterId: number, beforeId: number, limit: number): Promise<ReferrerEvent[]> => {
    const events = await this.warehouse.eventsAfter(afterId, beforeId, limit);
    await this.values?.ready(events.map((e) => ({ zone_id: e.zone_id, ms: e.seen_ms })));
    return events;
  };

  /** The stream's test for one event. */
  matcher(f: EventFilter): (e: ReferrerEvent) => boolean {
    return (e) => eventMatches(e, f);
  }
}

/**
 * The bus as the SSE hub sees it: each published batch is handed on once the zone values of its
 * days are loaded (at once when they are), in publish order.
 */
function valuedDelivery(bus: LiveBus<ReferrerEvent>, values: ZoneValues): Pick<LiveBus<ReferrerEvent>, 'subscribe' | 'replay'> {
  return {
    replay: (afterId, limit) => bus.replay(afterId, limit),
    subscribe: (listener) => {
      let queue: Promise<void> | undefined;
      let waiting = 0;
      return bus.subscribe((events) => {
        const ready = values.ready(eventInstants(events));
        if (ready === undefined && waiting === 0) return listener(events);
        waiting++;
        queue = (queue ?? Promise.resolve())
          .then(() => ready)
          .then(() => listener(events))
          .finally(() => {
            waiting--;
          });
      });
    },
  };
}

/** The zone and instant of each event (what its value is looked up by). */
function* eventInstants(events: readonly ReferrerEvent[]): Iterable<{ zone_id: string; ms: number }> {
  for (const e of events) yield { zone_id: e.zone_id, ms: e.seen_ms };
}

/** Runs the retention job once (tests and the daily timer). */
export function runReferrerRetention(service: ReferrerService, now = Date.now()): Promise<RetentionResult> {
  return service.runRetention(now);
}
