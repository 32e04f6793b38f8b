// Referrer traffic: validates beacon hits and NDJSON batches (referrers/ingest.ts), stamps each
// event with its zone's publisher/advertiser (referrers/zones.ts), commits through the
// group-commit writer (each batch's ids reserved on the live bus just before its commit, keys
// checked: referrers/idempotency.ts), publishes committed events on the live bus
// (referrers/live.ts), answers report/log/filter queries (referrers/queries.ts) and runs
// retention (referrers/retention.ts).
import {
  REFERRER_LIMITS,
  type IngestReferrersResult,
  type IvtRow,
  type IvtTable,
  type ReferrerFilterParsed,
  type ReferrerFilters,
  type ReferrerLogRecord,
  type ReferrerRow,
  type TableRequest,
  type VisitsComparison,
} from '@adops/core';
import type { Config } from '../config.js';
import { DomainError } from '../domain-errors.js';
import {
  EventWriter,
  eventMatches,
  type EventFilter,
  type ReferrerEvent,
  type ReferrerWarehouse,
  type RetentionResult,
  type ZoneOwner,
} from '../warehouse/index.js';
import type { TableExport, TablePageOf } from '../tables.js';
import { MemoryLiveBus } from '../live/memory/bus.js';
import type { LiveBus, TokenBucket } from '../live/types.js';
import { SseHub } from '../live/sse.js';
import type { ZoneValues } from './zone-values.js';
import { MemoryTokenBucket } from '../live/memory/token-bucket.js';
import { BotClassifier } from './bots.js';
import type { SpamListService } from './spam-list.js';
import { commitKeyed, EVENT_KEY, eventKeys, type KeyedEvent, type PartKeys } from './referrers/idempotency.js';
import { blankToNull, EventError, type NewReferrerEvent, normalizeEvent, normalizeIp, readNdjsonBatch } from './referrers/ingest.js';
import { eventFrame, valuedDelivery } from './referrers/live.js';
import { ReferrerQueries } from './referrers/queries.js';
import { runRetention } from './referrers/retention.js';
import { ZONE_REFRESH_MS, ZoneOwners } from './referrers/zones.js';

export { eventKeys, parseIdempotencyKey } from './referrers/idempotency.js';
export { EventError, hostOf, type NewReferrerEvent, normalizeEvent, normalizeIp } from './referrers/ingest.js';
export { eventFrame } from './referrers/live.js';
export { resolveRange, streamFilter, textFilter, visitsComparison } from './referrers/queries.js';

const DAY_MS = 86_400_000;

/** A beacon hit's query fields (HitQuery, parsed). */
export interface HitFields {
  zone_id: string;
  ref?: string;
  kw?: string;
  src?: string;
  event_id?: string;
  cid?: string;
  asid?: string;
  adid?: string;
  plc?: string;
}

/** Where a beacon hit came from: its address, the CDN's country, the Referer header and the user agent. */
export interface HitOrigin {
  ip: string | undefined;
  country: string | undefined;
  referer: string | undefined;
  userAgent?: string;
}

export interface ReferrerServiceOptions {
  lingerMs: number;
  maxRows: number;
  /** Under load, commits begin at most this often (ms): see EventWriterOptions.commitEveryMs. */
  commitEveryMs: number;
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
  // ≤ 50 commits/s under load (~2 ms of engine CPU each); a live event alone is not held by it.
  commitEveryMs: 20,
  ringSize: 10_000,
  heartbeatMs: 15_000,
  aliveCheckMs: 3000,
  maxBacklogEvents: 20_000,
  retentionEveryMs: DAY_MS,
  retentionFirstMs: 60_000,
};

export class ReferrerService {
  readonly bus: LiveBus<ReferrerEvent>;
  readonly hub: SseHub<ReferrerEvent>;
  /** Each request's events are written with their keys as the tag (none: no key to look for). */
  private readonly writer: EventWriter<PartKeys>;
  private readonly zones: ZoneOwners;
  private readonly queries: ReferrerQueries;
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
    /** zone_id → publisher/advertiser, from the zone reports (with `since`: of the zones with rows from that day on). */
    loadZoneOwners: (since?: string) => Promise<Map<string, ZoneOwner>>,
    private readonly config: Config,
    private readonly log: (line: string) => void,
    readonly options: ReferrerServiceOptions,
    bus: LiveBus<ReferrerEvent> | undefined,
    traffic: ReferrerTrafficGuards,
  ) {
    this.bus = bus ?? new MemoryLiveBus<ReferrerEvent>(options.ringSize);
    this.zones = new ZoneOwners(loadZoneOwners, log, () => this.closed);
    // A zone is unknown once some zone report names zones and none names it.
    if (config.botFilter && traffic.spam)
      this.bots = new BotClassifier(traffic.spam, (zoneId) => this.zones.known(zoneId), config.botIpRatePerMinute);
    this.beaconBucket = traffic.beaconBucket;
    const values = traffic.values;
    this.values = values;
    this.queries = new ReferrerQueries(warehouse, config, this.bus, values);
    // Streams get each batch once its days' zone values are loaded (the beacon never waits for them).
    this.hub = new SseHub<ReferrerEvent>(values ? valuedDelivery(this.bus, values) : this.bus, (e) => eventFrame(e, values), {
      heartbeatMs: options.heartbeatMs,
      maxBacklogEvents: options.maxBacklogEvents,
      retryMs: 2000,
      maxReplay: options.ringSize,
      aliveCheckMs: options.aliveCheckMs,
    });
    this.writer = new EventWriter(
      (parts) => commitKeyed(parts, this.bus, this.warehouse),
      (events) => {
        this.bus.publish(events).catch((e: Error) => this.log(`referrers: committed events not published live: ${e.message}`));
      },
      { lingerMs: options.lingerMs, maxRows: options.maxRows, commitEveryMs: options.commitEveryMs },
    );
  }

  /** Continues the id sequence, loads zone owners and starts the timers (and the bus: in memory by default). */
  static async open(
    warehouse: ReferrerWarehouse,
    zoneOwners: (since?: string) => Promise<Map<string, ZoneOwner>>,
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

  /**
   * Reloads zone → publisher/advertiser from the zone reports (each zone's latest, busiest row):
   * of every zone, or with `since` (an import's first day) of the zones with rows from then on.
   */
  refreshZones(since?: string): Promise<void> {
    return this.zones.refresh(since);
  }

  /** The publisher and advertiser hits of a zone are stamped with (null while unknown). */
  zoneOwner(zoneId: string): ZoneOwner {
    return this.zones.owner(zoneId);
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
  private store(stamped: readonly ReferrerEvent[], batchKey?: string, ownKeys = false): Promise<IngestReferrersResult> {
    return new Promise((resolve, reject) => this.storeNow(stamped, batchKey, ownKeys, (e, result) => (e ? reject(e) : resolve(result!))));
  }

  /** store() without a promise: `done` hears, after the commit, the refusal or what was stored (never before this returns). */
  private storeNow(
    stamped: readonly ReferrerEvent[],
    batchKey: string | undefined,
    ownKeys: boolean,
    done: (error: DomainError | undefined, result?: IngestReferrersResult) => void,
  ): void {
    if (this.closed) return void queueMicrotask(() => done(new DomainError('unavailable', 'El servidor se está cerrando')));
    this.writer.enqueue(stamped, batchKey !== undefined || ownKeys ? { batchKey, ownKeys } : undefined, (e) => {
      if (e !== undefined) {
        this.log(`referrers: batch not committed: ${(e as Error).message}`);
        return done(new DomainError('unavailable', 'No se pudieron guardar los eventos; reinténtalo'));
      }
      if (stamped.length === 1) {
        // A beacon hit: its own answer without filtering or slicing (the same figures).
        const id = stamped[0].id;
        return done(undefined, {
          accepted: id === 0 ? 0 : 1,
          duplicates: id === 0 ? 1 : 0,
          first_id: id === 0 ? null : id,
          last_id: id === 0 ? null : id,
        });
      }
      const stored = stamped.filter((e) => e.id !== 0);
      done(undefined, {
        accepted: stored.length,
        duplicates: stamped.length - stored.length,
        first_id: stored[0]?.id ?? null,
        last_id: stored.at(-1)?.id ?? null,
      });
    });
  }

  /**
   * An NDJSON batch: every line must be valid or nothing is stored (400 names the line). With an
   * `idempotencyKey` (the Idempotency-Key header), a resend of the same body is a duplicate whole.
   * `raw`: the bytes `body` was decoded from (UTF-8), when the caller holds them.
   */
  async ingestNdjson(body: string, arrivedAt = Date.now(), idempotencyKey?: string, raw?: Uint8Array): Promise<IngestReferrersResult> {
    // Each event is made stamped (as accept() stamps it), its key on it.
    const { events, ownKeys } = readNdjsonBatch(
      body,
      arrivedAt,
      this.ownerOf,
      this.bots ? (event, userAgent, sourceSent) => this.flag(event, userAgent, sourceSent) : undefined,
    );
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
    const wait = this.beaconWaitNow(ip, now);
    return wait === undefined ? this.beaconBucket!.take(ip!, now) : Promise.resolve(wait);
  }

  /** beaconWait() when it can answer at once (no bucket, or the bucket in this process); undefined when it must ask Redis. */
  beaconWaitNow(ip: string | undefined, now = Date.now()): number | undefined {
    const bucket = this.beaconBucket;
    if (bucket === undefined || ip === undefined) return 0;
    return bucket instanceof MemoryTokenBucket ? bucket.takeNow(ip, now) : undefined;
  }

  /** One beacon hit; answers its id, or null when its event_id made it a duplicate. */
  hit(q: HitFields, from: HitOrigin): Promise<number | null> {
    return new Promise((resolve, reject) => this.hitNow(q, from, (e, id) => (e ? reject(e) : resolve(id ?? null))));
  }

  /**
   * hit() without a promise (the beacon's path): the hit is validated, classified and queued for
   * the next commit before this returns — a refusal is thrown (DomainError) — and `done` hears
   * its id (null: a duplicate) once its batch committed.
   */
  hitNow(q: HitFields, from: HitOrigin, done: (error: DomainError | undefined, id?: number | null) => void): void {
    const country = from.country?.trim().toUpperCase();
    const referer = from.referer && from.referer.length <= REFERRER_LIMITS.referrer ? from.referer : undefined;
    let event: ReferrerEvent;
    try {
      // Stamped as accept() stamps it, in one object (id 0 until the commit, its zone's owner).
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
          // An address that is none is left out, not refused (a plain dotted quad costs no regex).
          ip: normalizeIp(from.ip),
        },
        Date.now(),
        this.ownerOf,
      );
    } catch (e) {
      if (e instanceof EventError) throw new DomainError('invalid', e.message);
      throw e;
    }
    if (this.bots) this.flag(event, from.userAgent, blankToNull(q.src) !== null);
    if (q.event_id !== undefined) (event as KeyedEvent)[EVENT_KEY] = eventKeys.beacon(q.event_id);
    this.storeNow([event], undefined, q.event_id !== undefined, (e, result) => (e ? done(e) : done(undefined, result!.first_id)));
  }

  /** A page of distinct referrers with how many there are and their hits in all. */
  report(f: ReferrerFilterParsed, request: TableRequest): Promise<TablePageOf<ReferrerRow, { hits: number }>> {
    return this.queries.report(f, request);
  }

  /** The filter's visits against the previous period up to the same time of day (visitsComparison). */
  comparison(f: ReferrerFilterParsed, now = new Date()): Promise<VisitsComparison> {
    return this.queries.comparison(f, now);
  }

  reportExport(f: ReferrerFilterParsed, request: TableRequest): TableExport<ReferrerRow> {
    return this.queries.reportExport(f, request);
  }

  /** A page of raw events (up to `beforeId` when given) with how many match and the newest stored id. */
  logs(
    f: ReferrerFilterParsed & { before_id?: number },
    request: TableRequest,
  ): Promise<TablePageOf<ReferrerLogRecord, { latest_id: number | null }>> {
    return this.queries.logs(f, request);
  }

  logsExport(f: ReferrerFilterParsed & { before_id?: number }, request: TableRequest): TableExport<ReferrerLogRecord> {
    return this.queries.logsExport(f, request);
  }

  /** A page of the IVT table: hits, flagged hits and the IVT rate per zone or publisher, with the same over every group. */
  ivt(f: ReferrerFilterParsed & { by: 'zone' | 'publisher' }, request: TableRequest): Promise<TablePageOf<IvtRow, IvtTable['totals']>> {
    return this.queries.ivt(f, request);
  }

  ivtExport(f: ReferrerFilterParsed & { by: 'zone' | 'publisher' }, request: TableRequest): TableExport<IvtRow> {
    return this.queries.ivtExport(f, request);
  }

  filterOptions(): Promise<ReferrerFilters> {
    return this.queries.filterOptions();
  }

  /** The highest id assigned so far on any instance (a resume point beyond it is stale: the store was reset). */
  latestId(): Promise<number> {
    return this.bus.latestId();
  }

  /** Deletes raw events older than the retention period, keeping their daily rollup, and forgets expired idempotency keys. */
  runRetention(now = Date.now()): Promise<RetentionResult> {
    return runRetention(this.warehouse, this.config, this.log, now);
  }

  /** Stops timers, ends live streams and commits what is pending. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.hub.closeAll();
    await this.writer.close();
    await this.bus.close();
    await this.zones.pending;
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

/** Runs the retention job once (tests and the daily timer). */
export function runReferrerRetention(service: ReferrerService, now = Date.now()): Promise<RetentionResult> {
  return service.runRetention(now);
}
