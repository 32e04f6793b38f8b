// What the Referrers screens, the log and their exports read: filter dates resolved in the
// reporting time zone and checked, the distinct referrers, the raw log (up to the live bus's
// settled id), the IVT table and visits against the previous period.
import {
  DATE_RANGE_REVERSED,
  instantComparison,
  instantComparisonWords,
  ivtCsvFields,
  ivtCsvFile,
  ivtRate,
  type IvtRow,
  type IvtTable,
  logCsvFields,
  logCsvFile,
  percentChange,
  REFERRER_LIMITS,
  rangeTooLong,
  referrerCsvFields,
  referrerCsvFile,
  type ReferrerFilterParsed,
  type ReferrerFilters,
  type ReferrerLogRecord,
  type ReferrerRow,
  type TableRequest,
  todayIn,
  type VisitsComparison,
  zonedDayEnd,
  zonedDayStart,
} from '@adops/core';
import type { Config } from '../../config.js';
import { DomainError } from '../../domain-errors.js';
import type { LiveBus } from '../../live/types.js';
import { countedPage, type TableExport, type TablePageOf } from '../../tables.js';
import type { EventFilter, IvtSums, RangeFilter, ReferrerEvent, ReferrerWarehouse } from '../../warehouse/index.js';
import type { ZoneValues } from '../zone-values.js';

const DAY_MS = 86_400_000;

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
  if (from > to) throw new DomainError('invalid', DATE_RANGE_REVERSED);
  if (to - from > (REFERRER_LIMITS.spanDays + 1) * DAY_MS) throw new DomainError('invalid', rangeTooLong(REFERRER_LIMITS.spanDays));
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
  if (out.from !== undefined && out.to !== undefined && out.from > out.to) throw new DomainError('invalid', DATE_RANGE_REVERSED);
  return out;
}

/** The Referrers screens' reads, on the warehouse, in the configured reporting time zone. */
export class ReferrerQueries {
  constructor(
    private readonly warehouse: ReferrerWarehouse,
    private readonly config: Pick<Config, 'tz'>,
    private readonly bus: Pick<LiveBus<ReferrerEvent>, 'settledId'>,
    private readonly values: ZoneValues | undefined,
  ) {}

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
}
