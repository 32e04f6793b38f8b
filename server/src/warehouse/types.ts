// The warehouse as services see it: what reports, ingest, the live log and the demo may ask of
// the fact store, whatever the engine (DuckDB embedded by default; see createWarehouse).
// Methods take parsed filters and orders and answer typed rows or async iterables of them.
import type { ReferrerFilters, ReferrerLogRecord, ReferrerRow, ReportFilters, SortState, SumKey, Sums, ZoneColumns } from '@adops/core';
import { ZONE_REPORT_FIELDS } from '@adops/core';

/* ------------------------------------------------------------------ zone reports */

/** A validated row ready to store (derived p_revenue / margin already filled in). */
export interface ZoneReportRecord {
  date: string;
  advertiser: string;
  publisher: string;
  zone_id: string;
  geo: string;
  source: string;
  domain: string;
  impressions: number;
  monetized_impressions: number | null;
  clicks: number;
  revenue: number;
  rate_applied: number | null;
  p_revenue: number;
  margin: number;
  tq: number | null;
}

/** The natural key of a zone-report row, in the order that breaks ties between rows. */
export const ZONE_NATURAL_KEY = ['date', 'advertiser', 'publisher', 'zone_id', 'geo', 'source'] as const;

/** The key months' grain within a month: every report dimension but the day (zone-report/key-months.ts), in their tables' column order. */
export const KEY_MONTH_DIMENSIONS = ['advertiser', 'publisher', 'zone_id', 'geo', 'source', 'domain'] as const;

/** A stored zone-report row's columns, in the order every engine stores and reads them. */
export const ZONE_REPORT_COLUMNS = ZONE_REPORT_FIELDS satisfies ReadonlyArray<keyof ZoneReportRecord>;

/** Sort keys that are text: every engine sorts them in Spanish collation, missing ('') last. */
export const TEXT_SORT_KEYS: ReadonlySet<string> = new Set([
  'month',
  'advertiser',
  'publisher',
  'zone_id',
  'geo',
  'source',
  'domain',
  'parent_domain',
  'referrer',
  'keyword',
  'ip',
  'country',
]);

/** Filters without a date range. */
export type TextFilters = Omit<ReportFilters, 'start_date' | 'end_date'>;

/** A calendar-day range (inclusive) and any of the text filters. */
export type Filters = Pick<ReportFilters, 'start_date' | 'end_date'> & Partial<TextFilters>;

/** What a group can be made of ('month' is 'YYYY-MM' of the date). */
export type Dimension = 'date' | 'month' | 'advertiser' | 'publisher' | 'zone_id' | 'geo' | 'source' | 'domain';

/**
 * An order: a list of keys, each a dimension / stored column, a sum or a derived metric of the
 * registry. Missing values sort last in both directions; text in Spanish collation (ICU 'es'),
 * then exactly. The engine appends the natural key (or the group's dimensions, or the ids) in
 * byte order, so the order is total and pages never overlap.
 */
export type Order = ReadonlyArray<SortState<string>>;

export interface GroupQuery {
  filters: Filters;
  by: readonly Dimension[];
  order: Order;
  /** Rows of the answer at most (all when absent), after skipping `offset`. */
  limit?: number;
  offset?: number;
}

/** One group: its dimension values and its additive sums. */
export type GroupRow = Partial<Record<Dimension, string>> & Sums;

export interface RowQuery {
  filters: Filters;
  order: Order;
  limit?: number;
  offset?: number;
}

/** A zone (publisher × zone id) or an advertiser with its revenue and margin in a range. */
export interface TopZoneSums {
  publisher: string;
  zone_id: string;
  revenue: number;
  margin: number;
}
export interface TopAdvertiserSums {
  advertiser: string;
  revenue: number;
  margin: number;
}
export interface TopEarners {
  zones: TopZoneSums[];
  advertisers: TopAdvertiserSums[];
}

export interface DimensionValues {
  advertisers: string[];
  publishers: string[];
  geos: string[];
  sources: string[];
  domains: string[];
}

/** A zone with the most impressions in the latest week (the demo traffic simulator aims at them). */
export interface BusyZone {
  zone_id: string;
  publisher: string;
  domain: string;
  geo: string;
  impressions: number;
}

export interface ZoneOwner {
  publisher: string | null;
  advertiser: string | null;
}

/** An import in progress: rows are staged, then merged at once (or dropped). */
/** What an import's commit did. */
export interface ZoneReportCommit {
  inserted: number;
  replaced: number;
  /**
   * Staged rows whose natural key a row staged before them (lower seq) already had — the one
   * stored is the last — each with the seq of the key's first row; by seq, at most the commit's
   * `listLimit`. `repeated_total` counts them all.
   */
  repeated: Array<{ seq: number; first_seq: number }>;
  repeated_total: number;
}

export interface ZoneReportImport {
  /**
   * Stages one row; `seq` (unique, e.g. the input line) orders duplicates of a key (the highest
   * wins) and names them in `repeated`. A promise when the import holds as many rows as it may
   * until the engine has taken some: the caller waits for it before adding more (memory stays
   * bounded whatever the file's size).
   */
  add(record: ZoneReportRecord, seq: number): void | Promise<void>;
  /** Replaces every stored row whose natural key is staged, atomically (rollup included); lists at most `listLimit` repeated keys (default 1,000). */
  commit(listLimit?: number): Promise<ZoneReportCommit>;
  /** Drops what was staged (also safe after commit). */
  close(): Promise<void>;
}

export interface ZoneReportWarehouse {
  /** Rows stored in all. */
  countRows(): Promise<number>;
  /** Sums of every matching row (`rows` is how many match). */
  totals(filters: Filters): Promise<Sums>;
  /** Groups of the matching rows, ordered, one page of them, and how many groups there are. */
  groups(query: GroupQuery): Promise<{ rows: GroupRow[]; total: number }>;
  /** Every group of the query, ordered, in chunks (exports). */
  streamGroups(query: Omit<GroupQuery, 'limit' | 'offset'>): AsyncIterable<GroupRow[]>;
  /** Stored rows, ordered, one page of them. */
  rows(query: RowQuery): Promise<ZoneReportRecord[]>;
  /** Every matching stored row, ordered, in chunks (exports). */
  streamRows(query: Omit<RowQuery, 'limit' | 'offset'>): AsyncIterable<ZoneReportRecord[]>;
  /**
   * The rows of streamRows as column chunks, no object per row (the zone CSV is written column by
   * column from them): DuckDB's vectors, ClickHouse's JSONColumnsWithMetadata.
   */
  streamColumns?(query: Omit<RowQuery, 'limit' | 'offset'>): AsyncIterable<ZoneColumns>;
  /**
   * The Dashboard's top lists, at most `limit` each, revenue desc then names. Zones are
   * publisher × zone id over rows with a non-blank zone id and non-zero revenue; advertisers
   * (non-blank) over every matching row. A zone or advertiser summing to 0 revenue is left out.
   */
  topEarners(filters: Filters, limit: number): Promise<TopEarners>;
  /**
   * The Ad Report's header in one pass: the sums of every matching row, and the distinct geos
   * and sources of the range under the other filters (geo and source ignored), sorted.
   */
  totalsAndOptions(filters: Filters): Promise<{ totals: Sums; geos: string[]; sources: string[] }>;
  /** Every distinct advertiser, publisher, geo, source and non-empty domain stored, sorted. */
  dimensionValues(): Promise<DimensionValues>;
  /** The zones with the most impressions in the latest stored week. */
  busiestZones(limit: number): Promise<BusyZone[]>;
  /**
   * zone_id → publisher/advertiser of its busiest row on its latest day: of every zone, or with
   * `since` (YYYY-MM-DD) of each zone with a row dated on or after it, reading only those days'
   * rows (what an import touched: its zones' owners, from its first day on).
   */
  zoneOwners(since?: string): Promise<Map<string, ZoneOwner>>;
  /** The days of [from, to] with at least one stored row, ascending (a day whose zone report has arrived, final or partial). */
  days(range: { from: string; to: string }): Promise<string[]>;
  beginImport(): Promise<ZoneReportImport>;
}

/* ------------------------------------------------------------------ referrer traffic */

/** One beacon hit or ingested line, with its id and the zone's owners resolved at ingest. */
export interface ReferrerEvent extends ReferrerLogRecord, Partial<EventAttribution> {
  /** seen_at as epoch milliseconds (UTC). */
  seen_ms: number;
  publisher: string | null;
  advertiser: string | null;
}

/** Where a visit came from on Meta (the tracking URL's cid, asid, adid, plc); null when not sent. Events stored before carry none. */
export interface EventAttribution {
  campaign_id: string | null;
  adset_id: string | null;
  ad_id: string | null;
  placement: string | null;
}

/** The attribution columns, in the order every engine stores them. */
export const ATTRIBUTION_COLUMNS = ['campaign_id', 'adset_id', 'ad_id', 'placement'] as const satisfies ReadonlyArray<keyof EventAttribution>;

/** A filter with its dates resolved to instants (epoch ms, both inclusive). */
export interface EventFilter {
  /** Lower-cased substring of the zone id. */
  zoneId?: string;
  advertiser?: string;
  publisher?: string;
  parentDomain?: string;
  from?: number;
  to?: number;
  /** Also events flagged as bots or spam (is_bot); left out by default. */
  includeBots?: boolean;
}

/** A filter whose range is known (report and log queries). */
export type RangeFilter = EventFilter & { from: number; to: number };

export interface RetentionResult {
  /** Raw events deleted. */
  deleted: number;
  /** Rollup rows written for them. */
  rolledUp: number;
}

export interface ReferrerQuery {
  filter: RangeFilter;
  order: Order;
  limit?: number;
  offset?: number;
}

export interface LogQuery extends ReferrerQuery {
  /** Only events with an id up to this one (pages stay still while events arrive). */
  beforeId?: number;
}

/** The IVT table's query: its range and text filters (flagged events always count), one row per zone or per publisher. */
export interface IvtQuery {
  filter: RangeFilter;
  by: 'zone' | 'publisher';
  order: Order;
  limit?: number;
  offset?: number;
}

/** The IVT table's order without one: most flagged hits first. */
export const IVT_DEFAULT_ORDER: Order = [{ key: 'bot_hits', dir: 'desc' }];

/** What breaks ties in the IVT table's order (every engine alike): the zone, then the publisher. */
export function ivtTies(by: IvtQuery['by']): Order {
  return by === 'zone'
    ? [
        { key: 'zone_id', dir: 'asc' },
        { key: 'publisher', dir: 'asc' },
      ]
    : [{ key: 'publisher', dir: 'asc' }];
}

/** One zone's (with its publisher) or publisher's hits and flagged hits; the rate is the service's (core's ivtRate). */
export interface IvtSums {
  zone_id: string | null;
  publisher: string | null;
  hits: number;
  bot_hits: number;
}

/**
 * The idempotency keys stored with a batch about to be appended (its events' client event ids,
 * and a key for each ingest request sent with an Idempotency-Key), each once, printable ASCII.
 */
export interface EventKeys {
  keys: readonly string[];
  /** The idempotency window's start (epoch ms): a key stored before it has expired. */
  since: number;
}

/** An append refused because some of its keys were stored meanwhile (another writer won the race). */
export class EventKeyConflict extends Error {
  constructor(readonly keys: ReadonlySet<string>) {
    super(`${keys.size} event keys were stored meanwhile`);
  }
}

export interface ReferrerWarehouse {
  /**
   * Commits one batch (all or nothing) and, with it, the events' keys; resolves once it is
   * durable. Throws EventKeyConflict (storing nothing) when a key is already stored within the
   * window — checked in the same transaction where the engine has one (DuckDB), just before the
   * insert where it has not (ClickHouse: see docs/deploy.md on two instances racing).
   */
  append(events: readonly ReferrerEvent[], keys?: EventKeys): Promise<void>;
  /** Which of `keys` were stored at or after `since` (epoch ms). */
  seenKeys(keys: readonly string[], since: number): Promise<Set<string>>;
  /** Forgets keys stored before `before` (epoch ms); answers how many stored batches of keys went (ClickHouse's TTL does it by itself: 0). */
  expireKeys(before: number): Promise<number>;
  /** The highest event id ever assigned (0 when none), so ids stay monotonic across restarts. */
  maxEventId(): Promise<number>;
  /** Distinct (zone_id, parent_domain, referrer) in range, ordered, one page; how many and their hits in all. */
  referrers(query: ReferrerQuery): Promise<{ rows: ReferrerRow[]; total: number; hits: number }>;
  streamReferrers(query: Omit<ReferrerQuery, 'limit' | 'offset'>): AsyncIterable<ReferrerRow[]>;
  /** Raw events in range, ordered, one page; how many match and the newest stored id. */
  logs(query: LogQuery): Promise<{ rows: ReferrerLogRecord[]; total: number; latestId: number | null }>;
  streamLogs(query: Omit<LogQuery, 'limit' | 'offset'>): AsyncIterable<ReferrerLogRecord[]>;
  filterOptions(limit: number): Promise<ReferrerFilters>;
  /** Hits and flagged hits per zone or publisher in range (raw events and rollup), ordered, one page; how many groups and their sums in all. */
  ivt(query: IvtQuery): Promise<{ rows: IvtSums[]; total: number; hits: number; bot_hits: number }>;
  streamIvt(query: Omit<IvtQuery, 'limit' | 'offset'>): AsyncIterable<IvtSums[]>;
  /** Events with id in (afterId, beforeId) (the newest `limit` of them), in id order, for stream resume. */
  eventsAfter(afterId: number, beforeId: number, limit: number): Promise<ReferrerEvent[]>;
  /** Rolls raw events seen before `cutoffMs` into the daily rollup and deletes them. */
  rollUpBefore(cutoffMs: number): Promise<RetentionResult>;
  /** Raw events in the warehouse (tests, benchmarks); with `attributed`, only those with a campaign id (adops migrate). */
  countEvents(only?: { attributed?: boolean }): Promise<number>;
  /** Each window of `size` ids holding raw events (window k: ids k·size+1 … (k+1)·size) — adops migrate copies only windows that differ. */
  countEventWindows(size: number): Promise<Map<number, EventWindow>>;
}

/** The raw events of a window of ids: how many, and the sum of their ids. */
export interface EventWindow {
  events: number;
  id_sum: number;
}

/* ------------------------------------------------------------------ media buying: spend and profit */

/** One ad's delivery on one day as Meta's insights report it (level=ad, time_increment=1), in the ad account's currency. */
export interface AdSpendRecord {
  date: string;
  /** The ad account (act_…). */
  account_id: string;
  campaign_id: string;
  campaign_name: string;
  adset_id: string;
  adset_name: string;
  ad_id: string;
  ad_name: string;
  spend: number;
  impressions: number;
  clicks: number;
  /** ISO 4217 code of the account's currency. */
  currency: string;
}

export interface SpendWarehouse {
  /** Stores the rows, replacing any stored row of the same (date, ad_id). */
  upsert(rows: readonly AdSpendRecord[]): Promise<void>;
  /** Stored rows of the days [from, to], by date then ad id. */
  rows(range: { from: string; to: string }): Promise<AdSpendRecord[]>;
  /** Rows stored in all. */
  countRows(): Promise<number>;
  /** Per month ('YYYY-MM', ascending): stored rows and their Σ spend (any currency), Σ impressions and Σ clicks (adops migrate). */
  months(): Promise<SpendMonth[]>;
  /** The days of [from, to] with at least one stored row, ascending (what counts as synced without a sync record). */
  days(range: { from: string; to: string }): Promise<string[]>;
}

export interface SpendMonth {
  month: string;
  rows: number;
  spend: number;
  impressions: number;
  clicks: number;
}

/** What a profit row is about: a campaign, an ad set, an ad, a keyword or a day. */
export type ProfitDimension = 'campaign' | 'adset' | 'ad' | 'keyword' | 'day';

export interface ProfitQuery {
  by: ProfitDimension;
  /** Calendar days (reporting time zone), inclusive. */
  from: string;
  to: string;
  /** The reporting time zone: an event's day is its local calendar day there. */
  tz: string;
  /** Only this campaign's (ad set's) spend and visits (expanding a row). */
  campaignId?: string;
  adsetId?: string;
  /**
   * Days whose zone report is partial: they count as not reported (their RPV is the trailing
   * one, and they are left out of other days' trailing windows). Any day, inside the range or
   * in the 7 days before it.
   */
  partialDays?: readonly string[];
  /** Days whose spend and visits are answered apart (`apart: true` parts): days without synced spend, or not matured. */
  apartDays?: readonly string[];
  /**
   * One part per group and day (`day` set) instead of per group over the range: the alert rules
   * sum the days they count themselves (by campaign, ad set or ad; not by keyword or day).
   */
  perDay?: boolean;
  /**
   * Whether the days not in a warehouse's visit cache yet are counted into it first (true, the
   * default: later queries over them read the counts) or only this query counts them from the
   * raw events (false: one pass, as a backtest's one query over a month of past days wants).
   */
  fillCache?: boolean;
}

/** A group's spend in one currency and month (conversion is the service's: the rates live in the entity store). */
export interface ProfitSpendPart {
  key: string | null;
  /** The campaign, ad set or ad name as Meta last reported it (null for keywords and days). */
  name: string | null;
  campaign_id: string | null;
  adset_id: string | null;
  /** 'YYYY-MM' */
  month: string;
  currency: string;
  spend: number;
  impressions: number;
  clicks: number;
  /** On one of the query's apartDays. */
  apart: boolean;
  /** Its day (YYYY-MM-DD) when the query asked perDay; null otherwise. */
  day: string | null;
}

/**
 * A group's human visits attributed to Meta (campaign_id present) and what they earned: Σ over
 * zones and days of the zone's revenue per visit that day × the group's visits there (the
 * zone's trailing 7-day RPV on days without a zone report), TQ weighted by visits the same way.
 */
export interface ProfitVisitPart {
  key: string | null;
  campaign_id: string | null;
  adset_id: string | null;
  visits: number;
  revenue: number;
  /** Visits on days without a zone report, or with a partial one (their revenue is an estimate). */
  estimated_visits: number;
  tq_weighted: number;
  tq_weight: number;
  /** On one of the query's apartDays. */
  apart: boolean;
  /** Its day (YYYY-MM-DD) when the query asked perDay; null otherwise. */
  day: string | null;
}

export interface ProfitParts {
  spend: ProfitSpendPart[];
  visits: ProfitVisitPart[];
  /** Days of the range with attributed visits but no zone report yet, or a partial one (their RPV is the trailing 7 days'). */
  estimatedDays: string[];
}

/** One day's zone values: the day (reporting time zone) and the zone a visit's worth is asked for. */
export interface ZoneValuesQuery {
  day: string;
  tz: string;
  /** Days whose zone report is partial (the day itself, or any of the 7 before it): counted as not reported. */
  partialDays?: readonly string[];
}
/** A zone's revenue per human visit on a day (its trailing 7 reported days' when the day has no report: estimated) and its TQ. */
export interface ZoneDayValue {
  zone_id: string;
  /** Null on a reported day the zone has no human visit yet. */
  rpv: number | null;
  tq: number | null;
  estimated: boolean;
}
export interface ProfitWarehouse {
  parts(query: ProfitQuery): Promise<ProfitParts>;
  /**
   * Every zone with human visits in the 7 days before the day — and, on a day with a zone report,
   * on the day itself — with the RPV and TQ the profit query gives it. (On a day without a report
   * the day's own visits change no value and are not read: a zone first seen that day has none.)
   */
  zoneValues(query: ZoneValuesQuery): Promise<ZoneDayValue[]>;
}

/* ------------------------------------------------------------------ alerts */

/** Human visits (is_bot false) per referrer host or per IP in [from, to] (epoch ms), only groups over `over` visits. */
export interface TrafficBurstQuery {
  by: 'host' | 'ip';
  from: number;
  to: number;
  /** Groups with more visits than this. */
  over: number;
  /** Only this referrer host (parent_domain). */
  host?: string;
  /** Only hosts with no event (bots included) from this instant to `from`, nor in the daily rollup: never seen. */
  newSince?: number;
  limit: number;
}

export interface TrafficBurst {
  key: string;
  visits: number;
}

export interface AlertWarehouse {
  /** The groups over the threshold, most visits first. */
  bursts(query: TrafficBurstQuery): Promise<TrafficBurst[]>;
}

/* ------------------------------------------------------------------ the whole warehouse */

export interface Warehouse {
  /** Which engine answers (for logs and health). */
  readonly engine: string;
  readonly zoneReports: ZoneReportWarehouse;
  readonly referrers: ReferrerWarehouse;
  /** Meta spend per ad and day (ad_spend). */
  readonly spend: SpendWarehouse;
  /** Spend joined to the zone revenue its visits earned. */
  readonly profit: ProfitWarehouse;
  /** The alert rules' traffic queries (referrer and IP bursts). */
  readonly alerts: AlertWarehouse;
  /** Resolves when the engine answers a query (health); throws otherwise. */
  ping(): Promise<void>;
  /** Waits for work under way, then releases the engine. */
  close(): Promise<void>;
}

export type { SumKey, Sums };
