// The Dashboard's 'Top Zones' and 'Top Advertisers': each list summed, ranked and cut in the
// engine, so only `limit` rows per list leave the store whatever the range's size. A zone's margin
// counts its rows with revenue (a row of 0 revenue adds to neither figure). Advertisers are summed
// from the rollup unless a zone filter needs the stored rows. Ties in the text order.
// DuckDB runs both lists in one statement, sharing the report filters' bound values (a named
// value may be read twice). Its zones are summed from the zone months (zone_report_zone_month,
// kept by imports) for the range's whole months, from the zone weeks (zone_report_zone_week) for
// the whole weeks left at its ends and from the stored rows for the days left after them, when
// no filter but the publisher or the zone needs the rows (a year: 12 months and a few weeks of
// zones and at most 12 days of rows instead of 365 days of rows; 30 days: three or four weeks
// and at most nine days); otherwise by zone id first. ClickHouse sums its zone months and weeks
// the same way, and runs a statement per list — its zones in parts after a refusal for memory
// (TOP_ZONE_PARTS).
import { Binder } from '../sql/binder.js';
import type { SqlDb } from '../sql/db.js';
import { filterConditions, usesRollup, whereFilters } from '../sql/filters.js';
import type { Filters, TopAdvertiserSums, TopEarners, TopZoneSums } from '../types.js';
import { addDays, compareText, daysBetween, endOfMonth, startOfMonth, weekdayIndex } from '@adops/core';
import { zonePartSql } from '../clickhouse/zone-report/zone-periods.js';
import { isWarehouseMemoryRefusal } from '../memory-refusal.js';
import { fromWhere } from './source.js';

export function getTopEarners(db: SqlDb, filters: Filters, limit: number): Promise<TopEarners> {
  return db.dialect.engine === 'duckdb' ? duckdbTopEarners(db, filters, limit) : clickHouseTopEarners(db, filters, limit);
}

interface TopRow {
  list: 'zone' | 'advertiser';
  publisher: string | null;
  zone_id: string | null;
  advertiser: string | null;
  revenue: number;
  margin: number;
}

/** The whole months of a range (first days, inclusive) and the days before and after them; undefined when it holds none. */
export function wholeMonths(start: string, end: string) {
  const first = start === startOfMonth(start) ? start : addDays(endOfMonth(start), 1);
  const lastEnd = end === endOfMonth(end) ? end : addDays(startOfMonth(end), -1);
  if (first > lastEnd) return undefined;
  return {
    months: { start: first, end: startOfMonth(lastEnd) },
    before: { start, end: addDays(first, -1) },
    after: { start: addDays(lastEnd, 1), end },
  };
}

type DayRange = { start: string; end: string };

/** The whole ISO weeks (Monday to Sunday) of a range (their Mondays, inclusive) and the days before and after them; undefined when it holds none. */
function wholeWeeks(start: string, end: string) {
  const first = addDays(start, (7 - weekdayIndex(start)) % 7);
  const lastEnd = addDays(end, -((weekdayIndex(end) + 1) % 7));
  if (first > lastEnd) return undefined;
  return {
    weeks: { start: first, end: addDays(lastEnd, -6) },
    before: { start, end: addDays(first, -1) },
    after: { start: addDays(lastEnd, 1), end },
  };
}

/**
 * A range cut into what each table answers: its whole months, the whole weeks of what is left at
 * each end, and the days left after those; undefined when it holds neither a month nor a week.
 */
export function zoneSpans(start: string, end: string): { months?: DayRange; weeks: DayRange[]; days: DayRange[] } | undefined {
  const split = wholeMonths(start, end);
  const ends = split ? [split.before, split.after].filter((r) => r.start <= r.end) : [{ start, end }];
  const weeks: DayRange[] = [];
  const days: DayRange[] = [];
  for (const r of ends) {
    const w = wholeWeeks(r.start, r.end);
    if (!w) {
      days.push(r);
      continue;
    }
    weeks.push(w.weeks);
    for (const d of [w.before, w.after]) if (d.start <= d.end) days.push(d);
  }
  if (!split && weeks.length === 0) return undefined;
  return { months: split?.months, weeks, days };
}

type Spans = NonNullable<ReturnType<typeof zoneSpans>>;

/**
 * The SELECTs of a range's spans, in order: its whole months and weeks (`period`: a zone period,
 * zone_report_zone_month or _week, over its first days in `r`) and its days left (`days`).
 */
const spanSelects = (spans: Spans, period: (p: 'month' | 'week', r: DayRange) => string, days: (r: DayRange) => string): string[] => [
  ...(spans.months ? [period('month', spans.months)] : []),
  ...spans.weeks.map((r) => period('week', r)),
  ...spans.days.map(days),
];

/** Filters the zone months and weeks can answer: none but the range, the publisher and the zone. */
const onZoneMonths = (db: SqlDb, f: Filters) =>
  db.rollup && f.advertiser === undefined && f.geo === undefined && f.source === undefined && f.domain === undefined;

/** DuckDB: the zones (publisher, zone id, revenue, margin) of the range, summed from the zone months and weeks and the rows at the range's ends. */
function zonesFromSpans(b: Binder, filters: Filters, spans: Spans): string {
  const parts = spanSelects(
    spans,
    (p, r) =>
      `SELECT publisher, zone_id, revenue, margin FROM zone_report_zone_${p} ${whereFilters(b, filters, {
        and: [`${p} BETWEEN ${b.bind(r.start, 'Date32')} AND ${b.bind(r.end, 'Date32')}`],
      })}`,
    (range) =>
      `SELECT publisher, zone_id, revenue, CASE WHEN revenue <> 0 THEN margin ELSE 0 END AS margin FROM zone_report ${whereFilters(b, filters, { range })}`,
  );
  return `zones AS (
       SELECT publisher, zone_id, sum(revenue) AS revenue, sum(margin) AS margin FROM (
         ${parts.join('\n         UNION ALL ')})
        GROUP BY publisher, zone_id)`;
}

/** DuckDB: both lists in one statement. */
async function duckdbTopEarners(db: SqlDb, filters: Filters, limit: number): Promise<TopEarners> {
  const b = new Binder(db.dialect);
  const where = whereFilters(b, filters, { range: { start: filters.start_date, end: filters.end_date } });
  const limitParam = b.bind(limit, 'UInt64');
  // The range always adds a WHERE; each list appends its own fixed conditions to it.
  const scoped = (condition: string, table = 'zone_report') => `FROM ${table} ${where} AND ${condition}`;
  const advertisers = usesRollup(db, filters) ? 'zone_report_rollup' : 'zone_report';
  const spans = onZoneMonths(db, filters) ? zoneSpans(filters.start_date, filters.end_date) : undefined;
  // Zones: from the zone months and weeks, or summed by zone id first (one string key hashes far faster
  // than two), keeping the publisher when the zone has one; only ids under several publishers
  // are summed again by both.
  const zones = spans
    ? zonesFromSpans(b, filters, spans)
    : `by_id AS (
       SELECT zone_id, min(publisher) AS first_publisher, max(publisher) AS last_publisher,
              sum(revenue) AS revenue, coalesce(sum(margin) FILTER (WHERE revenue <> 0), 0) AS margin
         FROM zone_report ${where}
        GROUP BY zone_id),
     shared AS (
       SELECT publisher, zone_id, sum(revenue) AS revenue, coalesce(sum(margin) FILTER (WHERE revenue <> 0), 0) AS margin
         ${scoped('zone_id IN (SELECT zone_id FROM by_id WHERE first_publisher <> last_publisher)')}
        GROUP BY publisher, zone_id),
     zones AS (
       SELECT first_publisher AS publisher, zone_id, revenue, margin FROM by_id WHERE first_publisher = last_publisher
       UNION ALL
       SELECT publisher, zone_id, revenue, margin FROM shared)`;
  const rows = await db.all<TopRow>(
    `WITH ${zones}
     SELECT * FROM (
       SELECT 'zone' AS list, publisher, zone_id, NULL::VARCHAR AS advertiser, revenue, margin
         FROM zones
        WHERE revenue <> 0 AND trim(zone_id) <> ''
        ORDER BY revenue DESC, publisher COLLATE es, publisher, zone_id COLLATE es, zone_id
        LIMIT ${limitParam})
     UNION ALL
     SELECT * FROM (
       SELECT 'advertiser' AS list, NULL::VARCHAR, NULL::VARCHAR, advertiser,
              sum(revenue) AS revenue, sum(margin) AS margin
         ${scoped(`trim(advertiser) <> ''`, advertisers)}
        GROUP BY advertiser
       HAVING sum(revenue) <> 0
        ORDER BY revenue DESC, advertiser COLLATE es, advertiser
        LIMIT ${limitParam})
     ORDER BY list, revenue DESC, publisher COLLATE es, publisher, zone_id COLLATE es, zone_id, advertiser COLLATE es, advertiser`,
    b.params,
  );
  const out: TopEarners = { zones: [], advertisers: [] };
  for (const r of rows) {
    if (r.list === 'zone') out.zones.push({ publisher: r.publisher!, zone_id: r.zone_id!, revenue: r.revenue, margin: r.margin });
    else out.advertisers.push({ advertiser: r.advertiser!, revenue: r.revenue, margin: r.margin });
  }
  return out;
}

/** ClickHouse: the zones of the range from the current zone months and weeks (clickhouse/zone-report/zone-periods.ts) and the rows at its ends, `onKey` tested on each. */
function clickHouseZonesFromSpans(db: SqlDb, b: Binder, filters: Filters, spans: Spans, onKey: readonly string[]): string {
  return spanSelects(
    spans,
    (p, r) => {
      const first = b.bind(r.start, 'Date32');
      const last = b.bind(r.end, 'Date32');
      return `SELECT publisher, zone_id, revenue, margin FROM ${db.t(`zone_report_zone_${p}`)}
     WHERE (${p}, version) IN (SELECT ${p}, max(version) FROM ${db.t(`zone_report_${p}`)} WHERE ${p} BETWEEN ${first} AND ${last} GROUP BY ${p})
       AND ${p} BETWEEN ${first} AND ${last} AND ${filterConditions(b, filters, { and: onKey })}`;
    },
    (range) =>
      `SELECT publisher, zone_id, revenue, if(revenue != 0, margin, 0) AS margin ${fromWhere(db, b, false, filters, { range, andOnKey: onKey })}`,
  ).join('\n     UNION ALL ');
}

/**
 * Parts ClickHouse's Top Zones is summed in after its engine refused the whole for memory — each
 * the zones of one value of a hash of the zone id, its own top `limit`; the top of those is the
 * whole's (a zone is in one part) — then in more. At 100 M rows a month's zones (125,000, from
 * its weeks and the rows of its edge days) were past the embedded engine's 128 MB: 503.
 */
const TOP_ZONE_PARTS = [4, 16];

/** ClickHouse: the top zones, summed whole or (`part`) the zones of one part. */
function clickHouseTopZones(db: SqlDb, filters: Filters, limit: number, part?: { parts: number; part: number }): Promise<TopZoneSums[]> {
  const range = { start: filters.start_date, end: filters.end_date };
  const z = new Binder(db.dialect);
  const onKey = part ? [zonePartSql(z.bind(part.parts, 'UInt64'), z.bind(part.part, 'UInt64'))] : [];
  const spans = onZoneMonths(db, filters) ? zoneSpans(filters.start_date, filters.end_date) : undefined;
  const sums = spans
    ? `SELECT publisher, zone_id, sum(revenue) AS revenue, sum(margin) AS margin FROM (${clickHouseZonesFromSpans(db, z, filters, spans, onKey)})`
    : `SELECT publisher, zone_id, sum(revenue) AS revenue, sumIf(margin, revenue != 0) AS margin ${fromWhere(db, z, false, filters, { range, andOnKey: onKey })}`;
  return db.all<TopZoneSums>(
    `SELECT * FROM (
       ${sums}
       GROUP BY publisher, zone_id
       HAVING sum(revenue) != 0 AND trimBoth(zone_id) != '')
     ORDER BY revenue DESC, publisher ASC COLLATE 'es', publisher, zone_id ASC COLLATE 'es', zone_id
     LIMIT ${z.bind(limit, 'UInt64')}`,
    z.params,
  );
}

/** Top Zones' order: revenue descending, then publisher and zone id as the engine's 'es' collation, then byte order. */
const topZoneOrder = (a: TopZoneSums, b: TopZoneSums) =>
  b.revenue - a.revenue || compareText(a.publisher, b.publisher) || compareText(a.zone_id, b.zone_id);

/**
 * Per warehouse, the shortest range (in days) whose Top Zones was refused whole and the most parts
 * one was answered in: a range as long or longer starts in those parts instead of being refused
 * whole again (the Dashboard asks the same range again and again; each refusal cost seconds).
 */
const partsNeeded = new WeakMap<SqlDb, { days: number; parts: number }>();

/** ClickHouse's top zones, whole, or in parts after a refusal for memory (TOP_ZONE_PARTS). */
async function clickHouseZonesWithin(db: SqlDb, filters: Filters, limit: number): Promise<TopZoneSums[]> {
  const days = daysBetween(filters.start_date, filters.end_date);
  const known = partsNeeded.get(db);
  const tries = known && days >= known.days ? TOP_ZONE_PARTS.filter((p) => p >= known.parts) : [1, ...TOP_ZONE_PARTS];
  for (const parts of tries) {
    try {
      if (parts === 1) return await clickHouseTopZones(db, filters, limit);
      const tops: TopZoneSums[] = [];
      for (let part = 0; part < parts; part++) tops.push(...(await clickHouseTopZones(db, filters, limit, { parts, part })));
      partsNeeded.set(db, { days: Math.min(days, known?.days ?? days), parts: Math.max(parts, known?.parts ?? parts) });
      return tops.sort(topZoneOrder).slice(0, limit);
    } catch (e) {
      if (!isWarehouseMemoryRefusal(e) || parts === tries[tries.length - 1]) throw e;
    }
  }
  throw new Error('unreachable: every try answers or throws');
}

/** ClickHouse: each list a statement of its own, run together. */
async function clickHouseTopEarners(db: SqlDb, filters: Filters, limit: number): Promise<TopEarners> {
  const range = { start: filters.start_date, end: filters.end_date };
  const zones = clickHouseZonesWithin(db, filters, limit);
  const a = new Binder(db.dialect);
  const advertisers = db.all<TopAdvertiserSums>(
    `SELECT * FROM (
       SELECT advertiser, sum(revenue) AS revenue, sum(margin) AS margin
       ${fromWhere(db, a, usesRollup(db, filters), filters, { range, and: ["trimBoth(advertiser) != ''"] })}
       GROUP BY advertiser
       HAVING sum(revenue) != 0)
     ORDER BY revenue DESC, advertiser ASC COLLATE 'es', advertiser
     LIMIT ${a.bind(limit, 'UInt64')}`,
    a.params,
  );
  // Started together; when the zones fail first, the advertisers' failure must not go unhandled.
  advertisers.catch(() => undefined);
  return { zones: await zones, advertisers: await advertisers };
}
