// Revenue reports: every table of the Dashboard, Ad Report, Api Explorer, Demand, Finance and
// the publisher-data URL as one warehouse query — filtered, sorted, paged and totalled over
// every matching row — with each figure derived from core's metrics registry. Days are
// calendar days of the reporting time zone.
import {
  percentChange,
  dayComparison,
  dayComparisonWords,
  DASHBOARD_RANKED,
  TABLE_CSV,
  type ZoneColumns,
  zoneCsvWriter,
  addDays,
  daysBetween,
  demandTotals,
  deriveMetrics,
  financeCsvFields,
  financeCsvFile,
  groupMetrics,
  minMax,
  monthsBetween,
  rankColor,
  roundTo,
  rowSums,
  startOfMonth,
  todayIn,
  DEFAULT_TOP_LIMIT,
  EMPTY_SUMS,
  type AdvertiserRevenue,
  type DailyDeltas,
  type DailyRow,
  type DashboardComparison,
  type DashboardOverview,
  type DashboardSummary,
  type DashboardTops,
  type DeltaFilters,
  type DemandPoint,
  type FinanceMarginRow,
  type FinanceTotals,
  type PublisherDataRow,
  type PublisherDataTotals,
  type RawOptions,
  type ReportFilters,
  type ReportTotals,
  type RevenueCards,
  type SortState,
  type SummaryRow,
  type Sums,
  type TableRequest,
  type ZoneRow,
} from '@adops/core';
import type { Dimension, DimensionValues, Filters, GroupQuery, GroupRow, Order, ZoneReportRecord, ZoneReportWarehouse } from '../warehouse/index.js';
import { countedPage, memoryPage, warehousePage, type TableExport, type TablePageOf } from '../tables.js';

type Dir = 'asc' | 'desc';
const by = (key: string, dir: Dir = 'asc'): SortState => ({ key, dir });

/** Each table's order when none is asked for (ties: the natural key, or the group's dimensions). */
const DEFAULT_ORDER = {
  zones: [by('date', 'desc'), by('revenue', 'desc')],
  summary: [by('date', 'desc'), by('revenue', 'desc')],
  daily: [by('date')],
  finance: (name: string) => [by('total', 'desc'), by(name)],
  publisherData: [by('date', 'desc')],
} as const;

const orderOf = (request: Pick<TableRequest, 'sort'>, fallback: Order): Order => (request.sort ? [request.sort] : fallback);

/** A stored row with its ratios (the registry's formulas over the row; tq stays as reported). */
export function zoneRow(r: ZoneReportRecord): ZoneRow {
  const d = deriveMetrics(rowSums(r));
  return {
    date: r.date,
    advertiser: r.advertiser,
    publisher: r.publisher,
    zone_id: r.zone_id,
    geo: r.geo,
    source: r.source,
    domain: r.domain,
    impressions: r.impressions,
    monetized_impressions: r.monetized_impressions,
    clicks: r.clicks,
    revenue: r.revenue,
    rate_applied: r.rate_applied,
    p_revenue: r.p_revenue,
    margin: r.margin,
    tq: r.tq,
    ctr: d.ctr,
    cpm: d.cpm,
    cpc: d.cpc,
    rs_percent: d.rs_percent,
    p_cpm: d.p_cpm,
    p_cpc: d.p_cpc,
  };
}

/** Every calendar day from start to end inclusive. */
function days(start: string, end: string): string[] {
  const n = daysBetween(start, end);
  return Array.from({ length: n }, (_, i) => addDays(start, i));
}

export type FinanceRow = { total: number } & Record<string, string | number>;

/** A zone's or publisher's revenue on a day against the day before (`publisher`: the zone's). */
export interface RevenueMover {
  name: string;
  publisher: string;
  revenue: number;
  previous: number;
  change: number;
  change_percent: number | null;
}

/** One line of Demand's export. */
export type DemandExportRow = DemandPoint & { advertiser: string };

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

  /** Every zone id, publisher or advertiser some zone report named (a rule's target is one of them). */
  async knownNames(kind: 'zone' | 'publisher' | 'advertiser'): Promise<string[]> {
    if (kind === 'zone') return [...(await this.warehouse.zoneOwners()).keys()];
    const v = await this.dimensionValues();
    return kind === 'publisher' ? v.publishers : v.advertisers;
  }

  async rawOptions(): Promise<RawOptions> {
    const v = await this.dimensionValues();
    return { advertisers: v.advertisers, publishers: v.publishers, geoOptions: v.geos, sourceOptions: v.sources };
  }

  async domains(): Promise<{ domains: string[] }> {
    return { domains: (await this.dimensionValues()).domains };
  }

  /** Totals of the matching rows as the 'Totales' row shows them. */
  private async totalsOf(f: ReportFilters): Promise<{ sums: Sums; totals: ReportTotals }> {
    const sums = await this.warehouse.totals(f);
    return { sums, totals: groupMetrics(sums) };
  }

  private dailyGroups(f: ReportFilters): Promise<GroupRow[]> {
    return this.warehouse.groups({ filters: f, by: ['date'], order: [by('date')] }).then((g) => g.rows);
  }

  /** The cards (the range's totals) and one chart point per day (zero-filled). */
  async overview(f: ReportFilters): Promise<DashboardOverview> {
    const [daily, summary] = await Promise.all([this.dailyGroups(f), this.summaryOf(f)]);
    const byDay = new Map(daily.map((d) => [d.date!, d]));
    return {
      summary,
      chart: days(f.start_date, f.end_date).map((date) => {
        const d = groupMetrics(byDay.get(date) ?? EMPTY_SUMS);
        return { date, revenue: d.revenue, margin: d.margin, tq: d.tq, clicks: d.clicks, impressions: d.impressions };
      }),
    };
  }

  /** The cards over the filter's days. */
  private async summaryOf(f: ReportFilters): Promise<DashboardSummary> {
    const { totals: m } = await this.totalsOf(f);
    return { revenue: m.revenue, margin: m.margin, impressions: m.impressions, clicks: m.clicks, ctr: m.ctr, tq: m.tq };
  }

  /**
   * 'Comparar con el período anterior', like with like: zone reports are daily and today's is
   * partial, so a range running into today compares only its complete days (core's
   * dayComparison); each card's change is current against previous.
   */
  async comparison(f: ReportFilters): Promise<DashboardComparison> {
    const c = dayComparison({ from: f.start_date, to: f.end_date }, this.now(), this.tz);
    const over = (range: { from: string; to: string } | null) =>
      range ? this.summaryOf({ ...f, start_date: range.from, end_date: range.to }).then((summary) => ({ ...range, summary })) : Promise.resolve(null);
    const [current, previous, previousOverview] = await Promise.all([
      over(c.current),
      over(c.previous),
      this.overview({ ...f, start_date: c.previous_period.from, end_date: c.previous_period.to }),
    ]);
    const change = (key: keyof DashboardSummary) => (current && previous ? percentChange(current.summary[key], previous.summary[key]) : null);
    return {
      basis: c.basis,
      tz: this.tz,
      today: c.today,
      period: c.period,
      previous_period: c.previous_period,
      current,
      previous,
      change: {
        revenue: change('revenue'),
        margin: change('margin'),
        impressions: change('impressions'),
        clicks: change('clicks'),
        ctr: change('ctr'),
        tq: change('tq'),
      },
      ...dayComparisonWords(c, 'el informe de zonas es diario'),
      previous_chart: previousOverview.chart,
    };
  }

  /**
   * Every day with data as the 'Analytics' rows, revenue/cost/margin ranked over the complete
   * days: today (reporting time zone) is still running, so it neither takes part in the min/max
   * nor gets a rank of its own (null, like a day with nothing to rank).
   */
  private async dailyRows(f: ReportFilters): Promise<DailyRow[]> {
    const today = todayIn(this.tz, this.now());
    const rows = (await this.dailyGroups(f)).map((d) => ({ date: d.date!, ...groupMetrics(d) }));
    const complete = rows.filter((r) => r.date !== today);
    const ranges = Object.fromEntries(DASHBOARD_RANKED.map((k) => [k, minMax(complete, k)]));
    return rows.map((r) => ({
      ...r,
      rank: Object.fromEntries(
        DASHBOARD_RANKED.map((k) => [k, r.date !== today && ranges[k] ? rankColor(r[k], ranges[k]!.min, ranges[k]!.max) : null]),
      ) as DailyRow['rank'],
    }));
  }

  /** The 'Analytics' table: a page of days, 'Totales' from the same sums as the cards (its TQ is the TQ Avg card's). */
  async dailyTable(f: ReportFilters, request: TableRequest): Promise<TablePageOf<DailyRow, ReportTotals>> {
    const [rows, { totals }] = await Promise.all([this.dailyRows(f), this.totalsOf(f)]);
    return memoryPage(rows, request, DEFAULT_ORDER.daily, totals);
  }

  async dailyExport(f: ReportFilters, request: TableRequest): Promise<TableExport<DailyRow>> {
    const page = await this.dailyTable(f, { ...request, page: 1, page_size: Number.MAX_SAFE_INTEGER });
    return { file: TABLE_CSV.daily.file(), fields: TABLE_CSV.daily.fields, chunks: [page.rows] };
  }

  /** 'Top Zones' and 'Top Advertisers': at most `limit` each, ranked from 1 (see the warehouse's topEarners). */
  async dashboardTops(f: ReportFilters, limit = DEFAULT_TOP_LIMIT): Promise<DashboardTops> {
    const { zones, advertisers } = await this.warehouse.topEarners(f, limit);
    return {
      zones: zones.map((z, i) => ({ rank: i + 1, publisher: z.publisher, zone_id: z.zone_id, revenue: z.revenue, margin: z.margin })),
      advertisers: advertisers.map((a, i) => ({ rank: i + 1, advertiser: a.advertiser, revenue: a.revenue, margin: a.margin })),
    };
  }

  /** Yesterday against the day before, in the reporting time zone (`today`: the digest's clock). */
  async deltas(f: DeltaFilters, today = todayIn(this.tz, this.now())): Promise<DailyDeltas> {
    const yesterday = addDays(today, -1);
    const before = addDays(yesterday, -1);
    const daily = await this.dailyGroups({ ...f, start_date: before, end_date: yesterday });
    const of = (date: string) => groupMetrics(daily.find((d) => d.date === date) ?? EMPTY_SUMS);
    const [y, b] = [of(yesterday), of(before)];
    return {
      revenue: percentChange(y.revenue, b.revenue),
      margin: percentChange(y.margin, b.margin),
      impressions: percentChange(y.impressions, b.impressions),
      clicks: percentChange(y.clicks, b.clicks),
      ctr: percentChange(y.ctr, b.ctr),
      tq: percentChange(y.tq, b.tq),
    };
  }

  /**
   * The zones or publishers whose revenue moved most on `date` against the day before (largest
   * absolute change first, ties by name), at most `limit`: the daily digest's top movers. Sums
   * are exact (rounded once where shown); a change that shows as 0,00 is no move.
   */
  async movers(date: string, dimension: 'zone_id' | 'publisher', limit = 5): Promise<RevenueMover[]> {
    const before = addDays(date, -1);
    const keys: Dimension[] = dimension === 'zone_id' ? ['date', 'zone_id', 'publisher'] : ['date', 'publisher'];
    const { rows } = await this.warehouse.groups({ filters: { start_date: before, end_date: date }, by: keys, order: [by('date')] });
    const moved = new Map<string, RevenueMover>();
    for (const g of rows) {
      const name = g[dimension] ?? '';
      const m = moved.get(name) ?? { name, publisher: g.publisher ?? '', revenue: 0, previous: 0, change: 0, change_percent: null };
      const revenue = groupMetrics(g).revenue ?? 0;
      if (g.date === date) m.revenue += revenue;
      else m.previous += revenue;
      moved.set(name, m);
    }
    return [...moved.values()]
      .map((m) => ({ ...m, change: m.revenue - m.previous, change_percent: percentChange(m.revenue, m.previous) }))
      .filter((m) => roundTo(m.change, 2) !== 0)
      .sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || a.name.localeCompare(b.name))
      .slice(0, limit);
  }

  /** A page of zone rows (any column's order) with the totals of every matching row. */
  async zoneTable(f: ReportFilters, request: TableRequest): Promise<TablePageOf<ZoneRow, ReportTotals>> {
    const order = orderOf(request, DEFAULT_ORDER.zones);
    return warehousePage(
      request,
      this.totalsOf(f).then(({ sums, totals }) => ({ total: sums.rows, totals })),
      async (offset) => (await this.warehouse.rows({ filters: f, order, limit: request.page_size, offset })).map(zoneRow),
    );
  }

  /** The Ad Report's zone table plus the Geo / Source options of the range (one pass for both and the totals). */
  async zoneDetails(f: ReportFilters, request: TableRequest) {
    const order = orderOf(request, DEFAULT_ORDER.zones);
    const header = this.warehouse.totalsAndOptions(f);
    const page = await warehousePage(
      request,
      header.then(({ totals }) => ({ total: totals.rows, totals: groupMetrics(totals) })),
      async (offset) => (await this.warehouse.rows({ filters: f, order, limit: request.page_size, offset })).map(zoneRow),
    );
    const { geos, sources } = await header;
    return { ...page, geoOptions: geos, sourceOptions: sources };
  }

  /** Every matching zone row, in the table's order, under the Ad Report's or the Api Explorer's columns. */
  zoneExport(f: ReportFilters, request: TableRequest, screen: 'zones' | 'explorer'): TableExport<ZoneRow> {
    const query = { filters: f, order: orderOf(request, DEFAULT_ORDER.zones) };
    const { columns, fields, file } = TABLE_CSV[screen];
    const warehouse = this.warehouse;
    // The rows are asked for only when iterated: NDJSON (and ClickHouse's CSV) take `chunks`, DuckDB's CSV `csvLines`.
    const chunks = { [Symbol.asyncIterator]: () => mapChunks(warehouse.streamRows(query), zoneRow) };
    if (!warehouse.streamColumns) return { file: file(), fields, chunks };
    return { file: file(), fields, chunks, csvLines: (dialect) => zoneCsvLines(warehouse.streamColumns!(query), zoneCsvWriter(columns, dialect)) };
  }

  /** The Api Explorer's cards: yesterday, today and the month so far over all traffic; the search's range under its filters. */
  async revenueCards(f: ReportFilters): Promise<RevenueCards> {
    const today = todayIn(this.tz, this.now());
    const yesterday = addDays(today, -1);
    const monthStart = startOfMonth(today);
    const revenue = async (filters: Filters) => (await this.warehouse.totals(filters)).revenue;
    const [y, t, m, filter] = await Promise.all([
      revenue({ start_date: yesterday, end_date: yesterday }),
      revenue({ start_date: today, end_date: today }),
      revenue({ start_date: monthStart, end_date: today }),
      revenue(f),
    ]);
    return { yesterday: y, today: t, month: m, filter, dates: { yesterday, today, month_start: monthStart } };
  }

  private summaryQuery(f: ReportFilters, name: 'publisher' | 'advertiser', request: Pick<TableRequest, 'sort'>) {
    return { filters: f, by: ['date', name] as Dimension[], order: orderOf(request, DEFAULT_ORDER.summary) };
  }

  /** A page of groups (their count comes with them) mapped to rows, with the given totals. */
  private async groupPage<Row, Totals>(
    request: TableRequest,
    q: Omit<GroupQuery, 'limit' | 'offset'>,
    totals: Promise<Totals>,
    toRow: (g: GroupRow) => Row,
  ): Promise<TablePageOf<Row, Totals>> {
    // Started before the rows are read: when that read fails first, the totals' failure must not
    // go unhandled (an unhandled rejection ends the process); the page still fails with the read's error.
    totals.catch(() => undefined);
    const page = await countedPage<GroupRow, { rows: GroupRow[]; total: number }, Totals>(
      request,
      (offset) => this.warehouse.groups({ ...q, limit: request.page_size, offset }),
      () => totals,
    );
    return { ...page, rows: page.rows.map(toRow) };
  }

  /** 'Resumen publisher' / 'Resumen advertiser': a page of date × name rows with the totals of every matching row. */
  summaryTable(f: ReportFilters, name: 'publisher' | 'advertiser', request: TableRequest): Promise<TablePageOf<SummaryRow, ReportTotals>> {
    const totals = this.totalsOf(f).then((t) => t.totals);
    return this.groupPage(request, this.summaryQuery(f, name, request), totals, (g) => summaryRow(g, name));
  }

  summaryExport(f: ReportFilters, name: 'publisher' | 'advertiser', request: TableRequest): TableExport<SummaryRow> {
    const csv = name === 'publisher' ? TABLE_CSV.publisherSummary : TABLE_CSV.advertiserSummary;
    const groups = this.warehouse.streamGroups(this.summaryQuery(f, name, request));
    return { file: csv.file(), fields: csv.fields, chunks: mapChunks(groups, (g) => summaryRow(g, name)) };
  }

  /**
   * advertiser → a point per day of the range (zero-filled), advertisers by revenue desc (ties by
   * name), and each advertiser's totals over the range (core's demandTotals: the cards' figures).
   */
  async advertiserRevenue(f: ReportFilters): Promise<AdvertiserRevenue> {
    const { rows } = await this.warehouse.groups({ filters: f, by: ['advertiser', 'date'], order: [by('advertiser'), by('date')] });
    const byAdvertiser = new Map<string, Map<string, DemandPoint>>();
    for (const r of rows) {
      const points = byAdvertiser.get(r.advertiser!) ?? new Map<string, DemandPoint>();
      points.set(r.date!, { date: r.date!, revenue: r.revenue, margin: r.margin });
      byAdvertiser.set(r.advertiser!, points);
    }
    const range = days(f.start_date, f.end_date);
    const series = [...byAdvertiser.entries()].map(([name, points]) => {
      const filled = range.map((date) => points.get(date) ?? { date, revenue: 0, margin: 0 });
      return { name, points: filled, totals: demandTotals(filled) };
    });
    series.sort((a, b) => b.totals.revenue - a.totals.revenue || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const out: AdvertiserRevenue = { advertisers: {}, totals: {} };
    for (const { name, points, totals } of series) {
      out.advertisers[name] = points;
      out.totals[name] = totals;
    }
    return out;
  }

  /** Demand as a file: a row per advertiser and day of the range, in the charts' order. */
  async demandExport(f: ReportFilters): Promise<TableExport<DemandExportRow>> {
    const { advertisers } = await this.advertiserRevenue(f);
    const rows = Object.entries(advertisers).flatMap(([advertiser, points]) => points.map((p) => ({ advertiser, ...p })));
    return { file: TABLE_CSV.demand.file(f.start_date, f.end_date), fields: TABLE_CSV.demand.fields, chunks: [rows] };
  }

  /**
   * A Finance table: a row per advertiser / publisher with its exact revenue per month (zero-
   * filled) and its Total (the exact sum of its months); the TOTAL row holds each month's exact
   * revenue — the same in both tables — and the grand total. Nothing is rounded here: each
   * figure is rounded once where shown, so a cell shows what Demand, the Ad Report and the
   * Dashboard show for the same advertiser or publisher and month, and the rows may differ
   * from the TOTAL by rounding (the screen says so).
   */
  async financeRows(f: ReportFilters, name: 'advertiser' | 'publisher'): Promise<{ months: string[]; rows: FinanceRow[]; totals: FinanceTotals }> {
    const months = monthsBetween(f.start_date, f.end_date);
    const [cells, monthly] = await Promise.all([
      this.warehouse.groups({ filters: f, by: ['month', name], order: [by('month'), by(name)] }),
      this.warehouse.groups({ filters: f, by: ['month'], order: [by('month')] }),
    ]);
    const rows = new Map<string, FinanceRow>();
    const rowOf = (key: string) => {
      let row = rows.get(key);
      if (!row) {
        row = { [name]: key, total: 0 } as FinanceRow;
        for (const m of months) row[m] = 0;
        rows.set(key, row);
      }
      return row;
    };
    const totals = { total: 0 } as FinanceTotals;
    for (const m of months) totals[m] = 0;
    for (const c of cells.rows) rowOf(c[name]!)[c.month!] = c.revenue;
    for (const month of monthly.rows) totals[month.month!] = month.revenue;
    for (const row of rows.values()) row.total = months.reduce((sum, m) => sum + (row[m] as number), 0);
    totals.total = months.reduce((sum, m) => sum + totals[m], 0);
    return { months, rows: [...rows.values()], totals };
  }

  async financeTable(f: ReportFilters, name: 'advertiser' | 'publisher', request: TableRequest) {
    const { months, rows, totals } = await this.financeRows(f, name);
    return { ...memoryPage(rows, request, DEFAULT_ORDER.finance(name), totals), months };
  }

  async financeExport(f: ReportFilters, name: 'advertiser' | 'publisher', request: TableRequest): Promise<TableExport<FinanceRow>> {
    const { months, rows, totals } = await this.financeRows(f, name);
    const sorted = memoryPage(rows, { ...request, page: 1, page_size: Math.max(1, rows.length) }, DEFAULT_ORDER.finance(name), totals).rows;
    return {
      file: financeCsvFile(`${name}s`, f.start_date, f.end_date),
      fields: financeCsvFields(name, months),
      chunks: [sorted],
      csvFooter: rows.length ? [{ ...totals, [name]: 'TOTAL' } as FinanceRow] : [],
    };
  }

  /** Margin per month of the chosen domain ('Total' without one), each month exact and its total; always one element. */
  async financeMargin(f: ReportFilters): Promise<FinanceMarginRow[]> {
    const found = new Map((await this.warehouse.groups({ filters: f, by: ['month'], order: [by('month')] })).rows.map((r) => [r.month!, r.margin]));
    const by_month: Record<string, number> = {};
    let total = 0;
    for (const m of monthsBetween(f.start_date, f.end_date)) {
      by_month[m] = found.get(m) ?? 0;
      total += by_month[m];
    }
    return [{ segment: f.domain ?? 'Total', by_month, ...by_month, total } as FinanceMarginRow];
  }

  /** The margin row as a file: Producto (the domain or 'Total'), a column per month, Total. */
  async financeMarginExport(f: ReportFilters): Promise<TableExport<FinanceMarginRow>> {
    return {
      file: financeCsvFile('margin', f.start_date, f.end_date),
      fields: financeCsvFields('segment', monthsBetween(f.start_date, f.end_date)),
      chunks: [await this.financeMargin(f)],
    };
  }

  /** The stored spelling of a token's publisher (names match case-insensitively). */
  private async publisherName(name: string): Promise<string> {
    const known = (await this.dimensionValues()).publishers;
    return known.find((p) => p === name) ?? known.find((p) => p.toLowerCase() === name.toLowerCase()) ?? name;
  }

  private async publisherQuery(publisher: string, start: string, end: string, request: Pick<TableRequest, 'sort'>) {
    const filters: Filters = { start_date: start, end_date: end, publisher: await this.publisherName(publisher) };
    return { filters, by: ['date', 'zone_id', 'geo'] as Dimension[], order: orderOf(request, DEFAULT_ORDER.publisherData) };
  }

  /** A publisher's own rows by date × zone × geo: never advertiser revenue or margin. */
  async publisherData(
    publisher: string,
    start: string,
    end: string,
    request: TableRequest,
  ): Promise<TablePageOf<PublisherDataRow, PublisherDataTotals>> {
    const q = await this.publisherQuery(publisher, start, end, request);
    return this.groupPage(request, q, this.warehouse.totals(q.filters).then(publisherTotals), publisherRow);
  }

  async publisherExport(publisher: string, start: string, end: string, request: TableRequest): Promise<TableExport<PublisherDataRow>> {
    const q = await this.publisherQuery(publisher, start, end, request);
    return {
      file: TABLE_CSV.publisherData.file(start, end),
      fields: TABLE_CSV.publisherData.fields,
      chunks: mapChunks(this.warehouse.streamGroups(q), publisherRow),
    };
  }
}

function summaryRow(g: GroupRow, name: 'publisher' | 'advertiser'): SummaryRow {
  return { date: g.date!, [name]: g[name], ...groupMetrics(g) };
}

function publisherRow(g: GroupRow): PublisherDataRow {
  const d = deriveMetrics(g);
  return {
    date: g.date!,
    zone_id: g.zone_id!,
    geo: g.geo!,
    impressions: g.impressions,
    clicks: g.clicks,
    ctr: d.ctr,
    p_revenue: g.p_revenue,
    p_cpm: d.p_cpm,
  };
}

function publisherTotals(s: Sums): PublisherDataTotals {
  const d = deriveMetrics(s);
  return { impressions: s.impressions, clicks: s.clicks, ctr: d.ctr, p_revenue: s.p_revenue, p_cpm: d.p_cpm };
}

/** Maps every row of every chunk. */
async function* mapChunks<A, B>(chunks: AsyncIterable<readonly A[]>, fn: (a: A) => B): AsyncGenerator<B[]> {
  for await (const chunk of chunks) yield chunk.map(fn);
}

/** The zone CSV's lines, a chunk's at a time, written column by column (zoneCsvWriter). */
async function* zoneCsvLines(chunks: AsyncIterable<ZoneColumns>, write: (chunk: ZoneColumns) => Uint8Array): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) yield write(chunk);
}
