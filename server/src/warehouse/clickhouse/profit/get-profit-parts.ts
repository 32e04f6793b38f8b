// The profit query on ClickHouse, the twin of duckdb/profit/get-profit-parts.ts (the rule is
// written out there): RPV per day and zone from the final zone reports (FINAL; partial days count
// as not reported) and the human visits
// still counted (not rolled up by retention; a zone's from its quarter hours, zone_counts), the
// trailing 7 reported days' RPV for days without a report, Σ RPV × visits per group, and the
// group's spend per currency and month (ad_spend FINAL; by keyword shared among each ad-day's
// keywords by visits). join_use_nulls makes a missing match NULL, as in SQL everywhere else.
import { addDays, profitRatioSql, profitTqWeightSql, tqWeightSql, zonedDayEnd, zonedDayStart } from '@adops/core';
import type { ClickHouseDb, Row } from '../db.js';
import { Binder } from '../../sql/binder.js';
import { CLICKHOUSE } from '../../sql/dialect.js';
import type { ProfitDimension, ProfitParts, ProfitQuery, ZoneDayValue, ZoneValuesQuery } from '../../types.js';
import { profitParts } from '../../profit-rows.js';
import { hourFrom, liveEvent, quarterHourFrom, watermarkSql } from '../referrers/schema.js';
import { onHours, onQuarterHours } from '../../tz-offsets.js';

const VISIT_KEY: Record<ProfitDimension, string> = {
  campaign: 'campaign_id',
  adset: 'adset_id',
  ad: 'ad_id',
  keyword: 'keyword',
  day: 'toString(day)',
};
const SPEND_KEY: Record<Exclude<ProfitDimension, 'keyword'>, { key: string; name: string | null }> = {
  campaign: { key: 'campaign_id', name: 'campaign_name' },
  adset: { key: 'adset_id', name: 'adset_name' },
  ad: { key: 'ad_id', name: 'ad_name' },
  day: { key: 'toString(date)', name: null },
};
const parents = (by: ProfitDimension) => ({
  campaign: by === 'adset' || by === 'ad' ? 'any(campaign_id)' : 'NULL',
  adset: by === 'ad' ? 'any(adset_id)' : 'NULL',
});
const SETTINGS = 'SETTINGS join_use_nulls = 1';

interface Bound {
  from: string;
  to: string;
  campaign: string;
  adset: string;
  ctes: string;
  spendWhere: string;
  /** The query's apart days as an Array(Date32) expression. */
  apart: string;
}

/** A bound list of days as an Array(Date32) expression (an empty list binds as one). */
const dayList = (b: Binder, days: readonly string[] | undefined) => `arrayMap(d -> toDate32(d), ${b.bind([...(days ?? [])], 'Array(String)')})`;

/**
 * The CTEs every query here shares. `lastEventMs`: the last raw event instant read (default: the
 * end of the range's last day). zone_counts: human visits per local day and zone over the events
 * read — the hours of zone_visits_1h from zh_from on, the quarter hours of zone_visits_15m from
 * qh_from (quarterHourFrom) to zh_from (the 45 minutes after a retention cutoff, or the time
 * between the two views' starts on a warehouse upgraded with events), and raw events before
 * qh_from (none once the views are 8 days old and retention is further back), so a read scans
 * minutes of rows, not days of events. attributed: the visits from Meta ads in the range, the
 * hours of attributed_visits_1h from ah_from on and raw events before, n each.
 */
function bind(db: ClickHouseDb, b: Binder, q: ProfitQuery, lastEventMs = zonedDayEnd(q.to, q.tz).getTime()): Bound {
  const from = `toDate32(${b.bind(q.from, 'String')})`;
  const to = `toDate32(${b.bind(q.to, 'String')})`;
  const campaign = b.bind(q.campaignId ?? null, 'Nullable(String)');
  const adset = b.bind(q.adsetId ?? null, 'Nullable(String)');
  const tz = b.bind(q.tz, 'String');
  const ev = { fromMs: zonedDayStart(addDays(q.from, -7), q.tz).getTime(), toMs: lastEventMs };
  const days = { fromMs: zonedDayStart(q.from, q.tz).getTime(), toMs: lastEventMs };
  const evFrom = b.instant(ev.fromMs);
  const evTo = b.instant(lastEventMs);
  const dayFrom = b.instant(days.fromMs);
  // Outside whole quarter hours (hourRows answers null), the rollups start after the last event read: all raw.
  const allRaw = `${evTo} + toIntervalMillisecond(1)`;
  const zoneHours = hourRows(db.t('zone_visits_1h'), 'zone_id', tz, { ...ev, from: evFrom, to: evTo }, 'zh_from', q.tz);
  const qhFrom = zoneHours ? quarterHourFrom(db) : allRaw;
  // The hours start on an hour at or after qh_from, so the three never overlap.
  const zhFrom = zoneHours ? `greatest(${hourFrom(db, 'zone_visits_1h')}, toStartOfHour(qh_from + toIntervalMillisecond(3599999)))` : 'qh_from';
  const adHours = hourRows(
    db.t('attributed_visits_1h'),
    'zone_id, campaign_id, adset_id, ad_id, keyword',
    tz,
    { ...days, from: dayFrom, to: evTo },
    'ah_from',
    q.tz,
  );
  const ahFrom = adHours ? hourFrom(db, 'attributed_visits_1h') : allRaw;
  const ctes = `${watermarkSql(db)} AS wm, ${qhFrom} AS qh_from, ${zhFrom} AS zh_from, ${ahFrom} AS ah_from,
ev AS (
  SELECT seen_at, toDate32(toTimeZone(seen_at, ${tz})) AS day, zone_id, campaign_id, adset_id, ad_id, keyword
  FROM ${db.t('referrer_event')}
  WHERE seen_at >= ${evFrom} AND seen_at <= ${evTo} AND ${liveEvent()} AND NOT is_bot
),
zone_counts AS (
  SELECT day, zone_id, sum(n) AS visits FROM (${
    zoneHours
      ? `
    SELECT day, zone_id, sum(n) AS n FROM (${zoneHours}) GROUP BY day, zone_id
    UNION ALL`
      : ''
  }
    SELECT toDate32(toTimeZone(bucket, ${tz})) AS day, zone_id, sum(visits) AS n FROM ${db.t('zone_visits_15m')}
    WHERE bucket >= ${evFrom} AND bucket <= ${evTo} AND bucket >= qh_from AND bucket < zh_from GROUP BY day, zone_id
    UNION ALL
    SELECT day, zone_id, count() AS n FROM ev WHERE seen_at < qh_from GROUP BY day, zone_id
  ) GROUP BY day, zone_id
),
attributed AS (
  SELECT * FROM (${
    adHours
      ? `${adHours}
    UNION ALL `
      : ''
  }
    SELECT day, zone_id, campaign_id, adset_id, ad_id, keyword, 1 AS n FROM ev WHERE seen_at >= ${dayFrom} AND seen_at < ah_from
  )
  WHERE day BETWEEN ${from} AND ${to} AND campaign_id IS NOT NULL
    AND (${campaign} IS NULL OR campaign_id = ${campaign}) AND (${adset} IS NULL OR adset_id = ${adset})
),
reported AS (
  SELECT DISTINCT date AS day FROM ${db.t('zone_report')} FINAL
  WHERE date BETWEEN ${from} - 7 AND ${to} AND NOT has(${dayList(b, q.partialDays)}, date)
)`;
  const spendWhere = `date BETWEEN ${from} AND ${to} AND (${campaign} IS NULL OR campaign_id = ${campaign}) AND (${adset} IS NULL OR adset_id = ${adset})`;
  return { from, to, campaign, adset, ctes, spendWhere, apart: dayList(b, q.apartDays) };
}

/**
 * The visits of an hourly table (hourlyVisitTables: q0…q3 per hour and `keys`) in [from, to] from
 * the instant `start` names on, as (day, keys…, n): where the zone's days start on the hour, a row
 * per hour, its quarters summed; where they start on a quarter hour, a row per quarter with visits,
 * on its own day; outside whole quarter hours, none (null: the caller reads raw events).
 */
function hourRows(
  hours: string,
  keys: string,
  tz: string,
  range: { from: string; to: string; fromMs: number; toMs: number },
  start: string,
  zone: string,
): string | null {
  if (onHours(range.fromMs, range.toMs, zone))
    return `
    SELECT toDate32(toTimeZone(hour, ${tz})) AS day, ${keys}, q0 + q1 + q2 + q3 AS n
    FROM ${hours} WHERE hour >= ${range.from} AND hour <= ${range.to} AND hour >= ${start}`;
  if (onQuarterHours(range.fromMs, range.toMs, zone))
    return `
    SELECT toDate32(toTimeZone(at, ${tz})) AS day, ${keys}, n FROM (
      SELECT hour + toIntervalMinute(m) AS at, ${keys}, n FROM ${hours}
      ARRAY JOIN [q0, q1, q2, q3] AS n, [0, 15, 30, 45] AS m
      WHERE hour >= toStartOfHour(${range.from}) AND hour <= ${range.to} AND hour >= ${start} AND n > 0
    ) WHERE at >= ${range.from} AND at <= ${range.to}`;
  return null;
}

const ZONE_VISITS = 'SELECT day, zone_id, visits FROM zone_counts';

/**
 * The RPV rule (see duckdb/profit); zoneValues adds the zones seen in the 7 days before, with 0
 * visits on the day. Each CTE is referenced once, and ClickHouse inlines a CTE at every
 * reference: the trailing 7 reported days are a window over each zone's days, not a second
 * reading of zone_day joined to the first, so what lies under zone_visits is read once (the
 * self-join read it three times). `trailing`: some of those 7 days is reported.
 */
/** A zone-day's RPV or TQ over the columns (core's profit sums, `prefix`ed) of zone_week — the registry's formula. */
const zoneRatio = (key: 'rpv' | 'tq', prefix: string) => profitRatioSql('clickhouse', key, (k) => `${prefix}${k}`);

function zoneRpv(db: ClickHouseDb, x: Bound, zoneVisits = ZONE_VISITS): string {
  return `
zone_visits AS (${zoneVisits}),
zone_rev AS (
  SELECT date AS day, zone_id, sum(revenue) AS revenue,
         sum(${tqWeightSql('clickhouse', 'tq_weighted')}) AS tq_weighted,
         sum(${tqWeightSql('clickhouse', 'tq_weight')}) AS tq_weight
  FROM ${db.t('zone_report')} FINAL WHERE date BETWEEN ${x.from} - 7 AND ${x.to} GROUP BY date, zone_id
),
zone_day AS (
  SELECT v.day AS day, v.zone_id AS zone_id, v.visits AS visits, coalesce(r.revenue, 0) AS revenue,
         coalesce(r.tq_weighted, 0) AS tq_weighted, coalesce(r.tq_weight, 0) AS tq_weight, v.day IN (SELECT day FROM reported) AS reported
  FROM zone_visits v LEFT JOIN zone_rev r ON r.day = v.day AND r.zone_id = v.zone_id
),
zone_week AS (
  SELECT day, zone_id, reported, revenue, visits, tq_weighted, tq_weight,
         sum(if(reported, revenue, 0)) OVER w AS t_revenue, sum(if(reported, visits, 0)) OVER w AS t_visits,
         sum(if(reported, tq_weighted, 0)) OVER w AS t_tq_weighted, sum(if(reported, tq_weight, 0)) OVER w AS t_tq_weight,
         countIf(reported) OVER w AS t_days
  FROM zone_day
  WINDOW w AS (PARTITION BY zone_id ORDER BY day RANGE BETWEEN 7 PRECEDING AND 1 PRECEDING)
),
zone_rpv AS (
  SELECT day, zone_id, NOT reported AS estimated, t_days > 0 AS trailing,
         if(reported, ${zoneRatio('rpv', '')}, coalesce(${zoneRatio('rpv', 't_')}, 0)) AS rpv,
         if(reported, ${zoneRatio('tq', '')}, ${zoneRatio('tq', 't_')}) AS tq
  FROM zone_week
  WHERE day >= ${x.from}
)`;
}

/** The attributed visits and their zone-day's TQ, as the visits query names them (the registry's visit-weighted TQ). */
const VISIT_TQ = { tq: 'r.tq', visits: 'vz.visits' };

function visitsSql(db: ClickHouseDb, x: Bound, by: ProfitDimension, perDay: boolean): string {
  const p = parents(by);
  return `WITH ${x.ctes}, ${zoneRpv(db, x)},
vz AS (
  SELECT day, zone_id, ${VISIT_KEY[by]} AS key, ${p.campaign} AS campaign_id, ${p.adset} AS adset_id, sum(n) AS visits,
         has(${x.apart}, day) AS apart
  FROM attributed GROUP BY day, zone_id, key
)
SELECT vz.key AS key, any(vz.campaign_id) AS campaign_id, any(vz.adset_id) AS adset_id, sum(vz.visits) AS visits,
       sum(vz.visits * r.rpv) AS revenue,
       sum(if(r.estimated, vz.visits, 0)) AS estimated_visits,
       sum(${profitTqWeightSql('clickhouse', 'tq_weighted', VISIT_TQ)}) AS tq_weighted,
       sum(${profitTqWeightSql('clickhouse', 'tq_weight', VISIT_TQ)}) AS tq_weight,
       groupUniqArrayIf(toString(vz.day), r.estimated) AS estimated_days,
       vz.apart AS apart, ${perDay ? 'toString(vz.day)' : 'NULL'} AS part_day
FROM vz JOIN zone_rpv r ON r.day = vz.day AND r.zone_id = vz.zone_id
GROUP BY vz.key, vz.apart${perDay ? ', vz.day' : ''}
${SETTINGS}`;
}

/** By keyword, each ad-day's keyword visits carry the ad-day's total beside them (a window, not kv read twice: one scan). */
function spendSql(db: ClickHouseDb, x: Bound, by: ProfitDimension, perDay: boolean): string {
  if (by === 'keyword')
    return `WITH ${x.ctes},
kv AS (
  SELECT day, ad_id, keyword, visits, sum(visits) OVER (PARTITION BY day, ad_id) AS total
  FROM (SELECT day, ad_id, keyword, sum(n) AS visits FROM attributed WHERE ad_id IS NOT NULL GROUP BY day, ad_id, keyword)
),
shared AS (
  SELECT s.date AS date, s.currency AS currency, kv.keyword AS keyword, coalesce(kv.visits / nullIf(kv.total, 0), 1) AS share,
         s.spend AS spend, s.impressions AS impressions, s.clicks AS clicks
  FROM (SELECT * FROM ${db.t('ad_spend')} FINAL WHERE ${x.spendWhere}) s
  LEFT JOIN kv ON kv.day = s.date AND kv.ad_id = s.ad_id
)
SELECT keyword AS key, NULL AS name, NULL AS campaign_id, NULL AS adset_id, substring(toString(date), 1, 7) AS month, currency,
       sum(spend * share) AS spend, sum(impressions * share) AS impressions, sum(clicks * share) AS clicks, has(${x.apart}, date) AS apart,
       NULL AS part_day
FROM shared GROUP BY key, month, currency, apart
${SETTINGS}`;
  const k = SPEND_KEY[by];
  const p = parents(by);
  return `SELECT ${k.key} AS key, ${k.name ? `argMax(${k.name}, date)` : 'NULL'} AS name, ${p.campaign} AS campaign_id, ${p.adset} AS adset_id,
       substring(toString(date), 1, 7) AS month, currency, sum(spend) AS spend, sum(impressions) AS impressions, sum(clicks) AS clicks,
       has(${x.apart}, date) AS apart, ${perDay ? 'toString(date)' : 'NULL'} AS part_day
FROM ${db.t('ad_spend')} FINAL WHERE ${x.spendWhere}
GROUP BY key, month, currency, apart${perDay ? ', date' : ''}`;
}

export async function getProfitParts(db: ClickHouseDb, q: ProfitQuery): Promise<ProfitParts> {
  const run = (build: (x: Bound) => string) => {
    const b = new Binder(CLICKHOUSE);
    const x = bind(db, b, q);
    return db.all<Row>(build(x), b.params);
  };
  // Per day only by campaign, ad set or ad (the rules' levels).
  const perDay = q.perDay === true && q.by !== 'keyword' && q.by !== 'day';
  const [visits, spend] = await Promise.all([run((x) => visitsSql(db, x, q.by, perDay)), run((x) => spendSql(db, x, q.by, perDay))]);
  // The days estimated come with the visits (each group's), not from a second scan of the events.
  const days = new Set(visits.flatMap((r) => (r.estimated_days as string[]).map(String)));
  return profitParts(visits, spend, [...days].sort());
}

/**
 * Each zone's RPV and TQ on one day by the same rule (zoneRpv above): what one of its visits is
 * worth. On a day without a zone report the day's own visits are not read (duckdb/profit says why).
 */
export async function getZoneValues(db: ClickHouseDb, q: ZoneValuesQuery): Promise<ZoneDayValue[]> {
  const reported =
    !q.partialDays?.includes(q.day) &&
    (await db.one(`SELECT 1 FROM ${db.t('zone_report')} FINAL WHERE date = toDate32({day:String}) LIMIT 1`, { day: q.day })) !== undefined;
  const b = new Binder(CLICKHOUSE);
  const x = bind(
    db,
    b,
    { by: 'campaign', from: q.day, to: q.day, tz: q.tz, partialDays: q.partialDays },
    reported ? undefined : zonedDayStart(q.day, q.tz).getTime() - 1,
  );
  // One pass over the events: each (day, zone) count, and a zone seen on a day before also on the day itself, with 0 visits.
  const visits = `SELECT day, zone_id, sum(if(day = seen_day, n, 0)) AS visits
FROM (SELECT day AS seen_day, zone_id, visits AS n FROM zone_counts)
ARRAY JOIN if(seen_day < ${x.from}, [seen_day, ${x.from}], [seen_day]) AS day
GROUP BY day, zone_id`;
  const rows = await db.all<Row>(
    `WITH ${x.ctes}, ${zoneRpv(db, x, visits)}
SELECT zone_id, if(estimated AND NOT trailing, NULL, rpv) AS rpv, tq, estimated FROM zone_rpv
${SETTINGS}`,
    b.params,
  );
  return rows.map((r) => ({
    zone_id: String(r.zone_id),
    rpv: r.rpv === null ? null : Number(r.rpv),
    tq: r.tq === null || r.tq === undefined ? null : Number(r.tq),
    estimated: Boolean(Number(r.estimated)),
  }));
}
