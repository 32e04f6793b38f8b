// Referrer events as the warehouse stores them, the resolved filter its queries take, and the
// ReferrerWarehouse interface (DuckDB today; a scale-out engine can implement it later).
import type { ReferrerFilters, ReferrerLogRecord, ReferrerRow } from '@adops/core';

/** One beacon hit or ingested line, with its id and the zone's owners resolved at ingest. */
export interface ReferrerEvent extends ReferrerLogRecord {
  /** seen_at as epoch milliseconds (UTC). */
  seen_ms: number;
  publisher: string | null;
  advertiser: string | null;
}

/** A filter with its dates resolved to instants (epoch ms, both inclusive). */
export interface EventFilter {
  /** Lower-cased substring of the zone id. */
  zoneId?: string;
  advertiser?: string;
  publisher?: string;
  parentDomain?: string;
  from?: number;
  to?: number;
}

/** A filter whose range is known (report and log queries). */
export type RangeFilter = EventFilter & { from: number; to: number };

export interface ZoneOwner {
  publisher: string | null;
  advertiser: string | null;
}

export interface RetentionResult {
  /** Raw events deleted. */
  deleted: number;
  /** Rollup rows written for them. */
  rolledUp: number;
}

export interface ReferrerWarehouse {
  /** Creates the tables when missing. */
  init(): Promise<void>;
  /** Commits one batch (all or nothing); resolves once it is durable. */
  append(events: readonly ReferrerEvent[]): Promise<void>;
  /** The highest event id ever assigned (0 when none), so ids stay monotonic across restarts. */
  maxEventId(): Promise<number>;
  /** Distinct (zone_id, parent_domain, referrer) in range, newest first. */
  referrers(filter: RangeFilter, limit: number): Promise<ReferrerRow[]>;
  /** Raw events in range, newest first. */
  logs(filter: RangeFilter, limit: number): Promise<ReferrerLogRecord[]>;
  filterOptions(limit: number): Promise<ReferrerFilters>;
  /** Events with id > afterId (the newest `limit` of them), in id order, for stream resume. */
  eventsAfter(afterId: number, beforeId: number, limit: number): Promise<ReferrerEvent[]>;
  /** zone_id → publisher/advertiser from each zone's latest zone_report rows. */
  zoneOwners(): Promise<Map<string, ZoneOwner>>;
  /** Rolls raw events seen before `cutoffMs` into the daily rollup and deletes them. */
  rollUpBefore(cutoffMs: number): Promise<RetentionResult>;
  /** Raw events in the warehouse (tests, benchmarks). */
  countEvents(): Promise<number>;
}
