// The zone-report warehouse seen by services: what a report may ask of the fact store.
// DuckDB implements it today; a scale-out engine (ClickHouse) can implement it tomorrow.
import type { ReportFilters } from '@adops/core';

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

/**
 * Additive sums of a group of rows, from which every ratio is computed (never averaged):
 * ctr_base sums each row's CTR base (monetized impressions when > 0, else impressions);
 * tq_weighted / tq_weight sum tq × impressions and impressions over rows with tq > 0 and
 * impressions > 0.
 */
export interface Sums {
  rows: number;
  impressions: number;
  monetized_impressions: number;
  ctr_base: number;
  clicks: number;
  revenue: number;
  p_revenue: number;
  margin: number;
  tq_weighted: number;
  tq_weight: number;
}

export interface DaySums extends Sums {
  date: string;
}

export interface GroupDaySums extends DaySums {
  name: string;
}

export interface MonthAmount {
  month: string;
  name: string;
  amount: number;
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

/** Filters without a date range (lists of values, deltas). */
export type TextFilters = Omit<ReportFilters, 'start_date' | 'end_date'>;

export interface DimensionValues {
  advertisers: string[];
  publishers: string[];
  geos: string[];
  sources: string[];
  domains: string[];
}

/** Rows already serialised as a JSON array, and how many there are. */
export interface JsonRows {
  json: string;
  count: number;
}

/** An import in progress: rows are staged, then merged at once (or dropped). */
export interface ZoneReportImport {
  /** Stages one row; `seq` orders duplicates of a key (the highest wins). */
  add(record: ZoneReportRecord, seq: number): void;
  /** Replaces every stored row whose natural key is staged, atomically. */
  commit(): Promise<{ inserted: number; replaced: number }>;
  /** Drops what was staged (also safe after commit). */
  close(): Promise<void>;
}

export type SummaryDimension = 'publisher' | 'advertiser';

export interface ZoneReportWarehouse {
  ensureSchema(): Promise<void>;
  /** Rows stored in all. */
  countRows(): Promise<number>;
  /** Sums per day of the range (days without rows are absent), date ascending. */
  dailySums(filters: ReportFilters): Promise<DaySums[]>;
  /**
   * Matching rows as a JSON array of the contract's ZoneRow (stored fields plus derived
   * ratios), ordered date desc, revenue desc, zone_id, advertiser, publisher, geo, source;
   * at most `limit`. `fromDate` (optional) says rows before it are not needed (the caller
   * counted rows per day), letting the store read fewer days.
   */
  zoneRowsJson(filters: ReportFilters, limit: number, fromDate?: string): Promise<JsonRows>;
  /** Sums per date × publisher or × advertiser. */
  summarySums(filters: ReportFilters, by: SummaryDimension): Promise<GroupDaySums[]>;
  /**
   * The Dashboard's top lists, at most `limit` each, revenue desc then names. Zones are
   * publisher × zone id over rows with a non-blank zone id and non-zero revenue; advertisers
   * (non-blank) over every matching row. A zone or advertiser summing to 0 revenue is left out.
   */
  topEarners(filters: ReportFilters, limit: number): Promise<TopEarners>;
  /** Revenue (or margin) per month × advertiser / publisher / domain-or-total. */
  monthlyRevenue(filters: ReportFilters, by: SummaryDimension): Promise<MonthAmount[]>;
  monthlyMargin(filters: ReportFilters): Promise<MonthAmount[]>;
  /** Distinct geos and sources in a range under the other filters (geo and source ignored). */
  geoAndSourceOptions(filters: ReportFilters): Promise<{ geos: string[]; sources: string[] }>;
  /** Every distinct advertiser, publisher, geo, source and non-empty domain stored. */
  dimensionValues(): Promise<DimensionValues>;
  /**
   * One publisher's rows by date × zone × geo as a JSON array of the contract's
   * PublisherDataRow (name compared case-insensitively), date desc, zone_id, geo.
   */
  publisherDataJson(publisher: string, start: string, end: string, limit: number): Promise<JsonRows>;
  beginImport(): Promise<ZoneReportImport>;
}
