// Revenue reports: turns the warehouse's additive sums into the contract's shapes, with every
// ratio computed from sums by core's formulas (never averaged averages); days are calendar
// days of the reporting time zone. Also wires the zone-report services of an app.
import {
  addDays,
  daysBetween,
  cost,
  cpc,
  cpm,
  dashboardCtr,
  ratio,
  rsPercent,
  monthsBetween,
  pCpc,
  pCpm,
  todayIn,
  DEFAULT_TOP_LIMIT,
  DEFAULT_ZONE_ROW_LIMIT,
  MAX_PUBLISHER_DATA_ROWS,
  type AdvertiserRevenue,
  type DailyDeltas,
  type DailyRow,
  type DashboardOverview,
  type DashboardTops,
  type DeltaFilters,
  type FinanceAdvertiserRow,
  type FinanceMarginRow,
  type FinancePublisherRow,
  type RawOptions,
  type ReportFilters,
  type ReportTotals,
  type SummaryRow,
} from '@adops/core';
import type { AppServices } from '../app.js';
import { httpError } from '../errors.js';
import {
  DuckDbZoneReportWarehouse,
  type DaySums,
  type DimensionValues,
  type JsonRows,
  type SummaryDimension,
  type Sums,
  type ZoneReportWarehouse,
} from '../warehouse/zone-report/index.js';
import { ZoneReportIngest } from './ingest-zone-report.js';
import { RevenueShareService } from './revenue-shares.js';

const EMPTY_SUMS: Sums = {
  rows: 0,
  impressions: 0,
  monetized_impressions: 0,
  ctr_base: 0,
  clicks: 0,
  revenue: 0,
  p_revenue: 0,
  margin: 0,
  tq_weighted: 0,
  tq_weight: 0,
};

function addSums(into: Sums, s: Sums): Sums {
  for (const k of Object.keys(EMPTY_SUMS) as (keyof Sums)[]) into[k] += s[k];
  return into;
}

/**
 * Totals-shaped metrics from sums, by core's formulas. CTR: clicks over the summed per-row
 * base (Ad Report), or over impressions (Dashboard). Built as one literal: spreading a wide
 * row into a new object is ~30x slower in V8, which matters at thousands of rows.
 */
export function metricsOf(s: Sums, ctrBasis: 'monetized' | 'impressions' = 'monetized'): ReportTotals {
  const rs = rsPercent(s.margin, s.revenue);
  return {
    impressions: s.impressions,
    monetized_impressions: s.monetized_impressions,
    clicks: s.clicks,
    revenue: s.revenue,
    p_revenue: s.p_revenue,
    margin: s.margin,
    tq: s.tq_weight > 0 ? s.tq_weighted / s.tq_weight : null,
    ctr: ctrBasis === 'impressions' ? dashboardCtr(s.clicks, s.impressions) : ratio(s.clicks, s.ctr_base, 100),
    cpm: cpm(s.revenue, s.impressions),
    cpc: cpc(s.revenue, s.clicks),
    cost: cost(s.revenue, s.margin),
    rs_percent: rs,
    margin_percent: rs,
    p_cpm: pCpm(s.p_revenue, s.impressions),
    p_cpc: pCpc(s.p_revenue, s.clicks),
  };
}

/** A JSON answer already serialised (zone rows come as JSON text from the warehouse). */
export class JsonText {
  constructor(readonly text: string) {}
}

/** Every calendar day from start to end inclusive. */
function days(start: string, end: string): string[] {
  const n = daysBetween(start, end);
  return Array.from({ length: n }, (_, i) => addDays(start, i));
}

/** % change of `now` against `base`; null when either is missing or the base is 0. */
function change(now: number | null, base: number | null): number | null {
  if (now === null || base === null || base === 0) return null;
  return ((now - base) / Math.abs(base)) * 100;
}

export class ReportService {
  private dimensions: Promise<DimensionValues> | null = null;

  constructor(
    private readonly warehouse: ZoneReportWarehouse,
    private readonly tz: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Drops cached filter lists (after an import). */
  invalidate(): void {
    this.dimensions = null;
  }

  private dimensionValues(): Promise<DimensionValues> {
    if (!this.dimensions) {
      const loading = this.warehouse.dimensionValues();
      this.dimensions = loading;
      loading.catch(() => {
        if (this.dimensions === loading) this.dimensions = null;
      });
    }
    return this.dimensions;
  }

  async rawOptions(): Promise<RawOptions> {
    const v = await this.dimensionValues();
    return { advertisers: v.advertisers, publishers: v.publishers, geoOptions: v.geos, sourceOptions: v.sources };
  }

  async domains(): Promise<{ domains: string[] }> {
    return { domains: (await this.dimensionValues()).domains };
  }

  async overview(f: ReportFilters): Promise<DashboardOverview> {
    const byDay = new Map((await this.warehouse.dailySums(f)).map((d) => [d.date, d]));
    const total = [...byDay.values()].reduce(addSums, { ...EMPTY_SUMS });
    const m = metricsOf(total, 'impressions');
    return {
      summary: { revenue: m.revenue, margin: m.margin, impressions: m.impressions, clicks: m.clicks, ctr: m.ctr, tq: m.tq },
      chart: days(f.start_date, f.end_date).map((date) => {
        const d = metricsOf(byDay.get(date) ?? EMPTY_SUMS, 'impressions');
        return { date, revenue: d.revenue, margin: d.margin, tq: d.tq, clicks: d.clicks, impressions: d.impressions };
      }),
    };
  }

  /** One row per day with data, date ascending; CTR over impressions (the Dashboard's). */
  async aggregated(f: ReportFilters): Promise<DailyRow[]> {
    return (await this.warehouse.dailySums(f)).map((d) => ({ date: d.date, ...metricsOf(d, 'impressions') }));
  }

  /** 'Top Zones' and 'Top Advertisers': at most `limit` each, ranked from 1 (see the warehouse's topEarners). */
  async dashboardTops(f: ReportFilters, limit = DEFAULT_TOP_LIMIT): Promise<DashboardTops> {
    const { zones, advertisers } = await this.warehouse.topEarners(f, limit);
    return {
      zones: zones.map((z, i) => ({ rank: i + 1, publisher: z.publisher, zone_id: z.zone_id, revenue: z.revenue, margin: z.margin })),
      advertisers: advertisers.map((a, i) => ({ rank: i + 1, advertiser: a.advertiser, revenue: a.revenue, margin: a.margin })),
    };
  }

  /** Yesterday against the day before, in the reporting time zone. */
  async deltas(f: DeltaFilters): Promise<DailyDeltas> {
    const yesterday = addDays(todayIn(this.tz, this.now()), -1);
    const before = addDays(yesterday, -1);
    const sums = await this.warehouse.dailySums({ ...f, start_date: before, end_date: yesterday });
    const of = (date: string) => metricsOf(sums.find((d) => d.date === date) ?? EMPTY_SUMS, 'impressions');
    const [y, b] = [of(yesterday), of(before)];
    return {
      revenue: change(y.revenue, b.revenue),
      margin: change(y.margin, b.margin),
      impressions: change(y.impressions, b.impressions),
      clicks: change(y.clicks, b.clicks),
      ctr: change(y.ctr, b.ctr),
      tq: change(y.tq, b.tq),
    };
  }

  /**
   * Zone rows (date desc, revenue desc, then zone_id, advertiser, publisher, geo, source),
   * at most `limit`; totals and total_rows cover every matching row. Answered as the
   * contract's ZoneDetails in JSON text.
   */
  async zoneDetails(f: ReportFilters, limit = DEFAULT_ZONE_ROW_LIMIT): Promise<JsonText> {
    const [daily, options] = await Promise.all([this.warehouse.dailySums(f), this.warehouse.geoAndSourceOptions(f)]);
    const total = daily.reduce(addSums, { ...EMPTY_SUMS });
    const rows = await this.zoneRowsOf(f, limit, daily, total.rows);
    return new JsonText(
      `{"data":${rows.json},"geoOptions":${JSON.stringify(options.geos)},` +
        `"sourceOptions":${JSON.stringify(options.sources)},"totals":${JSON.stringify(metricsOf(total))},` +
        `"total_rows":${total.rows},"truncated":${total.rows > rows.count}}`,
    );
  }

  /** The Api Explorer's list (ZoneRow[] in JSON text): the same rows as zone-details. */
  async explorer(f: ReportFilters, limit = DEFAULT_ZONE_ROW_LIMIT): Promise<JsonText> {
    const daily = await this.warehouse.dailySums(f);
    const rows = await this.zoneRowsOf(f, limit, daily, daily.reduce((n, d) => n + d.rows, 0));
    return new JsonText(rows.json);
  }

  private async zoneRowsOf(f: ReportFilters, limit: number, daily: DaySums[], totalRows: number): Promise<JsonRows> {
    if (totalRows === 0) return { json: '[]', count: 0 };
    // Newest days first: the oldest day still needed to fill `limit` rows bounds the read.
    let fromDate = f.start_date;
    let counted = 0;
    for (let i = daily.length - 1; i >= 0; i--) {
      counted += daily[i].rows;
      if (counted >= limit) {
        fromDate = daily[i].date;
        break;
      }
    }
    return this.warehouse.zoneRowsJson(f, limit, fromDate);
  }

  /** One row per date × publisher or advertiser: date desc, revenue desc, name. */
  async summary(f: ReportFilters, by: SummaryDimension): Promise<{ data: SummaryRow[] }> {
    const rows = await this.warehouse.summarySums(f, by);
    return {
      data: rows.map((r): SummaryRow => {
        const m = metricsOf(r);
        // One literal (no spreads): fast at tens of thousands of rows; undefined keys are not sent.
        return {
          date: r.date,
          publisher: by === 'publisher' ? r.name : undefined,
          advertiser: by === 'advertiser' ? r.name : undefined,
          impressions: m.impressions,
          monetized_impressions: m.monetized_impressions,
          clicks: m.clicks,
          revenue: m.revenue,
          p_revenue: m.p_revenue,
          margin: m.margin,
          tq: m.tq,
          ctr: m.ctr,
          cpm: m.cpm,
          cpc: m.cpc,
          cost: m.cost,
          rs_percent: m.rs_percent,
          margin_percent: m.margin_percent,
          p_cpm: m.p_cpm,
          p_cpc: m.p_cpc,
        };
      }),
    };
  }

  /** advertiser → a point per day of the range (zero-filled); advertisers by revenue desc. */
  async advertiserRevenue(f: ReportFilters): Promise<AdvertiserRevenue> {
    const rows = await this.warehouse.summarySums(f, 'advertiser');
    const byAdvertiser = new Map<string, { revenue: number; points: Map<string, { revenue: number; margin: number }> }>();
    for (const r of rows) {
      const a = byAdvertiser.get(r.name) ?? { revenue: 0, points: new Map() };
      a.revenue += r.revenue;
      a.points.set(r.date, { revenue: r.revenue, margin: r.margin });
      byAdvertiser.set(r.name, a);
    }
    const range = days(f.start_date, f.end_date);
    const out: AdvertiserRevenue = {};
    const ordered = [...byAdvertiser.entries()].sort((a, b) => b[1].revenue - a[1].revenue || a[0].localeCompare(b[0]));
    for (const [name, a] of ordered)
      out[name] = range.map((date) => ({ date, ...(a.points.get(date) ?? { revenue: 0, margin: 0 }) }));
    return out;
  }

  /** A row per advertiser / publisher with a revenue column per month (zero-filled), by total desc. */
  async finance(f: ReportFilters, by: 'advertiser'): Promise<FinanceAdvertiserRow[]>;
  async finance(f: ReportFilters, by: 'publisher'): Promise<FinancePublisherRow[]>;
  async finance(f: ReportFilters, by: SummaryDimension): Promise<Array<Record<string, string | number>>> {
    const months = monthsBetween(f.start_date, f.end_date);
    const rows = new Map<string, { total: number; months: Map<string, number> }>();
    for (const r of await this.warehouse.monthlyRevenue(f, by)) {
      const row = rows.get(r.name) ?? { total: 0, months: new Map() };
      row.total += r.amount;
      row.months.set(r.month, r.amount);
      rows.set(r.name, row);
    }
    return [...rows.entries()]
      .sort((a, b) => b[1].total - a[1].total || a[0].localeCompare(b[0]))
      .map(([name, row]) => {
        const out: Record<string, string | number> = { [by]: name };
        for (const m of months) out[m] = row.months.get(m) ?? 0;
        return out;
      });
  }

  /** Margin per month of the chosen domain ('Total' without one): always one element. */
  async financeMargin(f: ReportFilters): Promise<FinanceMarginRow[]> {
    const found = new Map((await this.warehouse.monthlyMargin(f)).map((r) => [r.month, r.amount]));
    const by_month: Record<string, number> = {};
    let total = 0;
    for (const m of monthsBetween(f.start_date, f.end_date)) {
      by_month[m] = found.get(m) ?? 0;
      total += by_month[m];
    }
    return [{ segment: f.domain ?? 'Total', by_month, ...by_month, total } as FinanceMarginRow];
  }

  /**
   * The publisher's own rows (date desc, zone_id, geo) as JSON text of PublisherDataRow[];
   * refuses a range with more than MAX_PUBLISHER_DATA_ROWS rows (400) rather than cut it.
   */
  async publisherData(publisher: string, start: string, end: string): Promise<JsonText> {
    const rows = await this.warehouse.publisherDataJson(publisher, start, end, MAX_PUBLISHER_DATA_ROWS + 1);
    if (rows.count > MAX_PUBLISHER_DATA_ROWS)
      throw httpError(400, `El rango tiene más de ${MAX_PUBLISHER_DATA_ROWS} filas; pide menos días`);
    return new JsonText(rows.json);
  }
}

export interface ZoneReportServices {
  warehouse: ZoneReportWarehouse;
  reports: ReportService;
  ingest: ZoneReportIngest;
  shares: RevenueShareService;
}

const byApp = new WeakMap<AppServices, ZoneReportServices>();

/** The zone-report services of an app (created once per app). */
export function zoneReportServices(s: AppServices): ZoneReportServices {
  let m = byApp.get(s);
  if (!m) {
    const warehouse = new DuckDbZoneReportWarehouse(s.db);
    const reports = new ReportService(warehouse, s.config.tz);
    const shares = new RevenueShareService(s.store, async () => (await reports.rawOptions()).publishers);
    const ingest = new ZoneReportIngest(warehouse, () => shares.snapshot(), () => reports.invalidate());
    m = { warehouse, reports, ingest, shares };
    byApp.set(s, m);
  }
  return m;
}
