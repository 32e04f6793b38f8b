// The profit query on DuckDB: Meta spend per group (in its currency and month) and what the
// group's human visits earned. For each day and zone, revenue per visit (RPV) = the zone's
// zone-report revenue ÷ its human visits that day; a day without a final zone report (none yet,
// or a partial one: the query's partialDays) takes the zone's trailing RPV (Σ revenue ÷ Σ visits
// over the 7 days before it whose report is final) and is an estimate, so a partial day's
// estimate grows with its visits and never falls. A group's revenue = Σ over days and zones of RPV × its visits there; its TQ the
// zones' impression-weighted TQ, weighted by its visits the same way. Visits are the events with
// a campaign id (attributed to Meta); an event's day is its calendar day in the reporting zone.
// By keyword, each ad-day's spend is shared among the keywords of its visits (all of it to no
// keyword when it had none). Values are bound by name (profitParams): $from/$to the range,
// $campaign/$adset (NULL: any), $tz, $ev_from/$ev_to the raw events' instants (from the 7 days
// before the range, or from $raw, to its end), $off0 the zone's UTC offset (ms) at the window's
// start and $at1/$off1 … $at6/$off6 up to six changes after it (instant ms, new offset): an
// event's local day is its instant plus the offset, integer arithmetic (converting every event's
// zone costs ~10× the rest of the scan); with more changes than that, $off0 is NULL and each
// converts. $raw: the first day counted from the raw events, the days before it read from the
// visit cache (visit-cache.ts: the same counts, kept per past day); $zone_from: the first day
// whose zone visits and revenue are read. Then each query's own: the partial days ($partial), the
// apart days ($apart: their spend and visits answered apart) and the days whose visits' values the
// cache keeps ($valued: kept days reported and final, read per ad and keyword instead of per
// visit), each list bound as one text, and $live, the first day of the range without them.
import { addDays, profitRatioSql, profitTqWeightSql, tqWeightSql, zonedDayEnd, zonedDayStart } from '@adops/core';
import type { Db, Param, Params } from '../db.js';
import type { ProfitDimension, ProfitParts, ProfitQuery, ZoneDayValue, ZoneValuesQuery } from '../../types.js';
import { profitParts } from '../../profit-rows.js';
import { sqlTimestamp } from '../../sql/dialect.js';
import { MAX_OFFSET_CHANGES, offsetPieces } from '../../tz-offsets.js';
import { visitCacheOf } from './visit-cache.js';
import { countLists, dayVisitsOf } from './day-visits.js';

const VISIT_KEY: Record<ProfitDimension, string> = {
  campaign: 'a.campaign_id',
  adset: 'a.adset_id',
  ad: 'a.ad_id',
  keyword: 'a.keyword',
  day: "strftime(a.day, '%Y-%m-%d')",
};
const SPEND_KEY: Record<Exclude<ProfitDimension, 'keyword'>, { key: string; name: string }> = {
  campaign: { key: 'campaign_id', name: 'campaign_name' },
  adset: { key: 'adset_id', name: 'adset_name' },
  ad: { key: 'ad_id', name: 'ad_name' },
  day: { key: "strftime(date, '%Y-%m-%d')", name: 'NULL' },
};
/** The parents a row names (ad sets: their campaign; ads: their campaign and ad set). */
const parents = (by: ProfitDimension) => ({
  campaign: by === 'adset' || by === 'ad' ? 'any_value(campaign_id)' : 'NULL',
  adset: by === 'ad' ? 'any_value(adset_id)' : 'NULL',
});

/**
 * Each human event of the window with its local day, from the window's values (windowParams:
 * $tz, $ev_from, $ev_to, $off0, then $at1/$off1 … $at6/$off6); `where` narrows the raw events
 * further (SQL ANDed to the window's).
 */
export const evCte = (where = '') => `
ev AS (
  SELECT CASE WHEN $off0::BIGINT IS NULL THEN CAST(timezone($tz, seen_at AT TIME ZONE 'UTC') AS DATE)
              ELSE DATE '1970-01-01' + CAST((ms + CASE WHEN ms < $at1::BIGINT THEN $off0::BIGINT WHEN ms < $at2::BIGINT THEN $off1::BIGINT WHEN ms < $at3::BIGINT THEN $off2::BIGINT
                WHEN ms < $at4::BIGINT THEN $off3::BIGINT WHEN ms < $at5::BIGINT THEN $off4::BIGINT WHEN ms < $at6::BIGINT THEN $off5::BIGINT ELSE $off6::BIGINT END) // 86400000 AS INTEGER) END AS day,
         zone_id, campaign_id, adset_id, ad_id, keyword
  FROM (SELECT epoch_ms(seen_at) AS ms, * FROM referrer_event WHERE seen_at >= $ev_from::TIMESTAMP AND seen_at <= $ev_to::TIMESTAMP AND NOT is_bot${where ? ` AND ${where}` : ''})
)`;

/**
 * A list of days bound as one text ('YYYY-MM-DD,…'; empty: none — an empty list has no type to
 * bind), read back as dates: `name AS (SELECT day …)` from the value `$param`.
 */
const dayListCte = (name: string, param: string) =>
  `${name} AS (SELECT d AS day FROM (SELECT TRY_CAST(unnest(string_split($${param}::VARCHAR, ',')) AS DATE) AS d) WHERE d IS NOT NULL)`;
/** The bound value of a day list. */
export const dayListParam = (days: readonly string[] | undefined): string => (days ?? []).join(',');

// Days before $raw come from the visit cache (visit-cache.ts), the others from the raw events
// (ev starts at $raw's first instant): the same counts either way.
const CTES = `${evCte()}, ${dayListCte('value_candidates', 'valued')},
valued_days AS (SELECT day FROM profit_value_day WHERE tz = $tz AND day IN (SELECT day FROM value_candidates)),
attributed AS (
  SELECT day, zone_id, campaign_id, adset_id, ad_id, keyword, visits FROM profit_attributed_visits
  WHERE tz = $tz AND day BETWEEN $live::DATE AND $to::DATE AND day < $raw::DATE AND day NOT IN (SELECT day FROM valued_days)
    AND ($campaign::VARCHAR IS NULL OR campaign_id = $campaign) AND ($adset::VARCHAR IS NULL OR adset_id = $adset)
  UNION ALL
  SELECT day, zone_id, campaign_id, adset_id, ad_id, keyword, 1 AS visits FROM ev
  WHERE day BETWEEN $from::DATE AND $to::DATE AND day >= $raw::DATE AND campaign_id IS NOT NULL
    AND ($campaign::VARCHAR IS NULL OR campaign_id = $campaign) AND ($adset::VARCHAR IS NULL OR adset_id = $adset)
)`;

/** The days whose zone report has arrived and is final, from the 7 days before the range to its end: partial ones ($partial) are not. */
const REPORTED_CTE = `${dayListCte('partial_days', 'partial')},
reported AS (SELECT DISTINCT date AS day FROM zone_report WHERE date BETWEEN $from::DATE - 7 AND $to::DATE AND date NOT IN (SELECT day FROM partial_days))`;

/** Human visits per day and zone (the profit query's); zoneValues adds the zones seen in the 7 days before, with 0 visits on the day. */
const ZONE_VISITS = `SELECT day, zone_id, visits FROM profit_zone_visits WHERE tz = $tz AND day BETWEEN $zone_from::DATE AND $to::DATE AND day < $raw::DATE
  UNION ALL SELECT day, zone_id, count(*) AS visits FROM ev WHERE day >= $raw::DATE AND day >= $zone_from::DATE GROUP BY day, zone_id`;
/** A zone-day's RPV or TQ over the columns (named as core's profit sums) of `from` — the registry's formula. */
const zoneRatio = (key: 'rpv' | 'tq', from: string) => profitRatioSql('duckdb', key, (k) => `${from}${k}`);

/**
 * Each day and zone with visits (`visits`: rows of day, zone_id, visits), its visits beside its
 * zone-report rows (those passing `reportWhere`) summed in one pass (no join), and whether the
 * day counts as reported (`reported`, an expression of `day`).
 */
const zoneDaySql = (visits: string, reportWhere: string, reported: string) => `
  SELECT day, zone_id, sum(visits) AS visits, sum(revenue) AS revenue, sum(tq_weighted) AS tq_weighted, sum(tq_weight) AS tq_weight,
         ${reported} AS reported
  FROM (
    SELECT day, zone_id, visits, 0::DOUBLE AS revenue, 0::DOUBLE AS tq_weighted, 0::BIGINT AS tq_weight, true AS seen FROM (${visits})
    UNION ALL
    SELECT date, zone_id, 0, revenue, ${tqWeightSql('duckdb', 'tq_weighted')}, ${tqWeightSql('duckdb', 'tq_weight')}, NULL
    FROM zone_report WHERE ${reportWhere}
  )
  GROUP BY day, zone_id HAVING bool_or(seen)`;

const zoneRpvSql = (zoneVisits: string) => `
zone_visits AS (${zoneVisits}),
zone_day AS (${zoneDaySql('SELECT * FROM zone_visits', 'date BETWEEN $zone_from::DATE AND $to::DATE', 'day IN (SELECT day FROM reported)')}),
zone_trailing AS (
  SELECT d.day, d.zone_id, sum(t.revenue) AS revenue, sum(t.visits) AS visits, sum(t.tq_weighted) AS tq_weighted, sum(t.tq_weight) AS tq_weight
  FROM zone_day d CROSS JOIN range(1, 8) AS k(k)
  JOIN zone_day t ON t.zone_id = d.zone_id AND t.day = d.day - CAST(k.k AS INTEGER) AND t.reported
  WHERE NOT d.reported AND d.day >= $from::DATE
  GROUP BY d.day, d.zone_id
),
zone_rpv AS (
  SELECT d.day, d.zone_id, NOT d.reported AS estimated,
         CASE WHEN d.reported THEN ${zoneRatio('rpv', 'd.')} ELSE coalesce(${zoneRatio('rpv', 't.')}, 0) END AS rpv,
         CASE WHEN d.reported THEN ${zoneRatio('tq', 'd.')} ELSE ${zoneRatio('tq', 't.')} END AS tq
  FROM zone_day d LEFT JOIN zone_trailing t ON t.day = d.day AND t.zone_id = d.zone_id
  WHERE d.day >= $from::DATE
)`;
const ZONE_RPV = zoneRpvSql(ZONE_VISITS);

/** The attributed visits and their zone-day's TQ, as the visits query names them (the registry's visit-weighted TQ). */
const VISIT_TQ = { tq: 'r.tq', visits: 'a.visits' };

/**
 * The visit cache's values of the kept days `$days` ($first … $last) of `$tz`, reported
 * (visit-cache.ts): per campaign, ad set, ad and keyword, each kept visit × its zone's RPV that day,
 * and its TQ weights — what the visits query's reported days sum, summed ahead.
 */
const VALUES_FILL_SQL = `WITH zone_day AS (${zoneDaySql(
  'SELECT day, zone_id, visits FROM profit_zone_visits WHERE tz = $tz AND day BETWEEN $first::DATE AND $last::DATE AND day IN (SELECT unnest($days::DATE[]))',
  'date BETWEEN $first::DATE AND $last::DATE AND date IN (SELECT unnest($days::DATE[]))',
  'true',
)}),
zone_rpv AS (SELECT day, zone_id, ${zoneRatio('rpv', '')} AS rpv, ${zoneRatio('tq', '')} AS tq FROM zone_day)
SELECT $tz AS tz, a.day, a.campaign_id, a.adset_id, a.ad_id, a.keyword, sum(a.visits) AS visits, sum(a.visits * r.rpv) AS revenue,
       sum(${profitTqWeightSql('duckdb', 'tq_weighted', VISIT_TQ)}) AS tq_weighted, sum(${profitTqWeightSql('duckdb', 'tq_weight', VISIT_TQ)}) AS tq_weight
FROM profit_attributed_visits a JOIN zone_rpv r ON r.day = a.day AND r.zone_id = a.zone_id
WHERE a.tz = $tz AND a.day BETWEEN $first::DATE AND $last::DATE AND a.day IN (SELECT unnest($days::DATE[]))
GROUP BY a.day, a.campaign_id, a.adset_id, a.ad_id, a.keyword`;

/** The visits query: the query's values, its partial days and apart days. */
function visitsSql(by: ProfitDimension, perDay: boolean): string {
  const p = parents(by);
  // Each attributed row meets its zone's RPV as it is (no group per day, zone and key first:
  // nearly every visit of a year of ads is alone in its group).
  // The days with kept values (visit-cache.ts) are read from them, summed ahead per ad and keyword.
  return `WITH ${CTES}, ${REPORTED_CTE}, ${dayListCte('apart_days', 'apart')}, ${ZONE_RPV},
worth AS (
  SELECT a.day, a.campaign_id, a.adset_id, a.ad_id, a.keyword, a.visits, a.visits * r.rpv AS revenue,
         CASE WHEN r.estimated THEN a.visits ELSE 0 END AS estimated_visits,
         ${profitTqWeightSql('duckdb', 'tq_weighted', VISIT_TQ)} AS tq_weighted, ${profitTqWeightSql('duckdb', 'tq_weight', VISIT_TQ)} AS tq_weight
  FROM attributed a JOIN zone_rpv r ON r.day = a.day AND r.zone_id = a.zone_id
  UNION ALL
  SELECT day, campaign_id, adset_id, ad_id, keyword, visits, revenue, 0, tq_weighted, tq_weight FROM profit_visit_values
  WHERE tz = $tz AND day BETWEEN $from::DATE AND $to::DATE AND day IN (SELECT day FROM valued_days)
    AND ($campaign::VARCHAR IS NULL OR campaign_id = $campaign) AND ($adset::VARCHAR IS NULL OR adset_id = $adset)
)
SELECT ${VISIT_KEY[by]} AS key, ${p.campaign} AS campaign_id, ${p.adset} AS adset_id, sum(a.visits) AS visits,
       sum(a.revenue) AS revenue, sum(a.estimated_visits) AS estimated_visits, sum(a.tq_weighted) AS tq_weighted, sum(a.tq_weight) AS tq_weight,
       a.day IN (SELECT day FROM apart_days) AS apart, ${perDay ? "strftime(a.day, '%Y-%m-%d')" : 'NULL'} AS part_day,
       list(DISTINCT strftime(a.day, '%Y-%m-%d')) FILTER (WHERE a.estimated_visits > 0) AS estimated_days
FROM worth a
GROUP BY 1, apart${perDay ? ', a.day' : ''}`;
}

const SPEND_WHERE = `date BETWEEN $from::DATE AND $to::DATE AND ($campaign::VARCHAR IS NULL OR campaign_id = $campaign) AND ($adset::VARCHAR IS NULL OR adset_id = $adset)`;

/** Spend by keyword reads the visits (the query's values, then its apart days); otherwise only the range, the parents and the apart days. */
function spendSql(by: ProfitDimension, perDay: boolean): string {
  if (by === 'keyword')
    return `WITH ${CTES}, ${dayListCte('apart_days', 'apart')},
kv AS (
  SELECT day, ad_id, keyword, sum(visits) AS visits FROM (
    SELECT day, ad_id, keyword, visits FROM profit_ad_keyword_visits
    WHERE tz = $tz AND day BETWEEN $from::DATE AND $to::DATE AND day < $raw::DATE
      AND ($campaign::VARCHAR IS NULL OR campaign_id = $campaign) AND ($adset::VARCHAR IS NULL OR adset_id = $adset)
    UNION ALL
    SELECT day, ad_id, keyword, visits FROM attributed WHERE day >= $raw::DATE AND ad_id IS NOT NULL
  ) GROUP BY day, ad_id, keyword
),
kt AS (SELECT day, ad_id, sum(visits) AS total FROM kv GROUP BY day, ad_id),
shared AS (
  SELECT s.date, s.currency, kv.keyword, coalesce(kv.visits / kt.total, 1) AS share, s.spend, s.impressions, s.clicks
  FROM (SELECT * FROM ad_spend WHERE ${SPEND_WHERE}) s
  LEFT JOIN kv ON kv.day = s.date AND kv.ad_id = s.ad_id
  LEFT JOIN kt ON kt.day = s.date AND kt.ad_id = s.ad_id
)
SELECT keyword AS key, NULL AS name, NULL AS campaign_id, NULL AS adset_id, strftime(date, '%Y-%m') AS month, currency,
       sum(spend * share) AS spend, sum(impressions * share) AS impressions, sum(clicks * share) AS clicks,
       date IN (SELECT day FROM apart_days) AS apart, NULL AS part_day
FROM shared GROUP BY key, month, currency, apart`;
  const k = SPEND_KEY[by];
  const p = parents(by);
  return `WITH ${dayListCte('apart_days', 'apart')}
SELECT ${k.key} AS key, ${k.name === 'NULL' ? 'NULL' : `arg_max(${k.name}, date)`} AS name, ${p.campaign} AS campaign_id, ${p.adset} AS adset_id,
       strftime(date, '%Y-%m') AS month, currency, sum(spend) AS spend, sum(impressions) AS impressions, sum(clicks) AS clicks,
       date IN (SELECT day FROM apart_days) AS apart, ${perDay ? "strftime(date, '%Y-%m-%d')" : 'NULL'} AS part_day
FROM ad_spend WHERE ${SPEND_WHERE}
GROUP BY key, month, currency, apart${perDay ? ', date' : ''}`;
}

/** An event window's values (evCte's): tz, first and last instant, the offset then six (instant, offset) changes. */
function windowParams(fromMs: number, toMs: number, tz: string): Record<string, Param> {
  const pieces = offsetPieces(fromMs, toMs, tz);
  const fits = pieces.changes.length <= MAX_OFFSET_CHANGES;
  const params: Record<string, Param> = { tz, ev_from: sqlTimestamp(fromMs), ev_to: sqlTimestamp(toMs), off0: fits ? BigInt(pieces.first) : null };
  for (let i = 0; i < MAX_OFFSET_CHANGES; i++) {
    const c = fits ? pieces.changes[i] : undefined;
    // An unused slot's change never comes (its offset repeats the last one).
    params[`at${i + 1}`] = BigInt(c?.at ?? Number.MAX_SAFE_INTEGER);
    params[`off${i + 1}`] = BigInt(c?.offset ?? pieces.changes.at(-1)?.offset ?? pieces.first);
  }
  return params;
}

/**
 * The query's bound values by name; `raw` is the first day counted from the raw events (the days
 * before it from the visit cache; by default none), `zoneFrom` the first day whose zone visits
 * and revenue are read (the 7 days before the range when a day in it has no zone report yet: its
 * trailing RPV), `lastEventMs` the last raw event instant read (by default the end of the range's
 * last day).
 */
export function profitParams(
  q: ProfitQuery,
  raw = addDays(q.from, -7),
  zoneFrom = addDays(q.from, -7),
  lastEventMs = zonedDayEnd(q.to, q.tz).getTime(),
): Record<string, Param> {
  const from = zonedDayStart(addDays(q.from, -7), q.tz).getTime();
  const w = windowParams(from, lastEventMs, q.tz);
  // The raw events start with day `raw` (the offsets stay those of the whole window).
  w.ev_from = sqlTimestamp(Math.max(from, zonedDayStart([raw, zoneFrom].sort()[1], q.tz).getTime()));
  return {
    from: q.from,
    to: q.to,
    campaign: q.campaignId ?? null,
    adset: q.adsetId ?? null,
    ...w,
    raw,
    zone_from: zoneFrom,
    valued: '',
    live: q.from,
  };
}

/** The events of days [from, to] of tz, as the visit cache counts them. */
const cacheWindow = (tz: string) => (from: string, to: string) => ({
  cte: evCte(),
  params: windowParams(zonedDayStart(from, tz).getTime(), zonedDayEnd(to, tz).getTime(), tz),
});

export async function getProfitParts(db: Db, q: ProfitQuery): Promise<ProfitParts> {
  // The days of the range without a final zone report: with none, neither the week before nor estimated days are read.
  const partial = new Set(q.partialDays ?? []);
  const reported = new Set(
    (
      await db.all<{ day: string }>('SELECT DISTINCT date AS day FROM zone_report WHERE date BETWEEN $from::DATE AND $to::DATE', {
        from: q.from,
        to: q.to,
      })
    )
      .map((r) => String(r.day))
      .filter((d) => !partial.has(d)),
  );
  let unreported: string | undefined;
  for (let d = q.from; d <= q.to && unreported === undefined; d = addDays(d, 1)) if (!reported.has(d)) unreported = d;
  const zoneFrom = unreported === undefined ? q.from : [addDays(unreported, -7), q.from].sort()[0];
  // Filling the cache counts every missing day into four tables first; a caller that reads the
  // range once (a backtest) counts them in its own query instead — one pass, nothing written.
  const cache = visitCacheOf(db);
  const raw = q.fillCache === false ? await cache.cachedUntil(q.tz, zoneFrom, q.to) : await cache.ensure(q.tz, zoneFrom, q.to, cacheWindow(q.tz));
  // Kept days of the range reported and final read their visits' values, kept too (filled now
  // unless a backtest's one query); the zone RPVs are then computed only from the first day
  // without them (its trailing week before it), usually today's.
  const candidates: string[] = [];
  for (let d = q.from; d <= q.to && d < raw; d = addDays(d, 1)) if (reported.has(d)) candidates.push(d);
  const valued = await cache.valued(q.tz, candidates, q.fillCache === false ? null : VALUES_FILL_SQL);
  let live = q.from;
  while (live <= q.to && valued.has(live)) live = addDays(live, 1);
  const params = profitParams(q, raw, live > q.to ? addDays(q.to, 1) : [zoneFrom, addDays(live, -7)].sort()[1]);
  const values: Params = {
    ...params,
    valued: dayListParam([...valued].sort()),
    // Every day before it has kept values: its visits are not read one by one.
    live,
    partial: dayListParam(q.partialDays),
    apart: dayListParam(q.apartDays),
  };
  // Per day only by campaign, ad set or ad (the rules' levels).
  const perDay = q.perDay === true && q.by !== 'keyword' && q.by !== 'day';
  // Each statement takes the values it names (spend by campaign, ad set, ad or day reads no event: only the range and the parents).
  // The estimated days are those of the visits with estimated ones (every attributed visit meets
  // its zone's day), listed by each group: no second pass over the events to list them.
  const [visits, spend] = await Promise.all([db.all(visitsSql(q.by, perDay), values), db.all(spendSql(q.by, perDay), values)]);
  const estimated = [...new Set(visits.flatMap((v) => (v.estimated_days as string[] | null) ?? []))].sort();
  return profitParts(visits, spend, estimated);
}

/**
 * Each zone's RPV and TQ on one day by the same rule (zone_rpv above): what one of its visits is
 * worth. The raw events read end before the day: past days' visits come from the visit cache (or
 * the raw events of days not cached yet), and the day's own as the day stands:
 * - a day with its zone report, not cached yet (today): its RPV is its revenue ÷ its visits, kept
 *   counted by day-visits.ts — each live re-read of a busy day counts only the events since the last;
 * - a day without one: a value is the zone's trailing RPV, which the day's own visits do not
 *   change, so they are not counted (a zone first seen that day has no value either way, and is
 *   left out).
 */
export async function getZoneValues(db: Db, q: ZoneValuesQuery): Promise<ZoneDayValue[]> {
  const zoneFrom = addDays(q.day, -7);
  const partial = q.partialDays?.includes(q.day) ?? false;
  const [reported, raw] = await Promise.all([
    partial ? false : db.all('SELECT 1 FROM zone_report WHERE date = $day::DATE LIMIT 1', { day: q.day }).then((r) => r.length > 0),
    visitCacheOf(db).ensure(q.tz, zoneFrom, q.day, cacheWindow(q.tz)),
  ]);
  const dayStart = zonedDayStart(q.day, q.tz).getTime();
  const counted =
    reported && raw <= q.day
      ? await dayVisitsOf(db).counts(q.tz, q.day, {
          cte: evCte('id > $after::BIGINT'),
          params: windowParams(dayStart, zonedDayEnd(q.day, q.tz).getTime(), q.tz),
        })
      : new Map<string, number>();
  const params: Params = {
    ...profitParams({ by: 'campaign', from: q.day, to: q.day, tz: q.tz }, raw, zoneFrom, dayStart - 1),
    partial: dayListParam(q.partialDays),
    // The day's counts, when it has any: two lists (an empty list has no type to bind).
    ...(counted.size > 0 ? countLists(counted) : {}),
  };
  // A zone seen in the days before has a value on the day from its first visit (its trailing RPV while the day is unreported);
  // without a reported day to go by, its value is unknown (null; the profit query counts it at 0).
  const seenBefore = `SELECT zone_id FROM profit_zone_visits WHERE tz = $tz AND day BETWEEN $zone_from::DATE AND $from::DATE - 1 AND day < $raw::DATE
    UNION ALL SELECT zone_id FROM ev WHERE day < $from::DATE AND day >= $raw::DATE AND day >= $zone_from::DATE`;
  const dayCounts =
    counted.size > 0 ? 'UNION ALL SELECT $from::DATE AS day, unnest($zones::VARCHAR[]) AS zone_id, unnest($visits::BIGINT[]) AS visits' : '';
  const visits = `SELECT day, zone_id, sum(visits) AS visits FROM (${ZONE_VISITS} ${dayCounts}
    UNION ALL SELECT $from::DATE AS day, zone_id, 0 AS visits FROM (${seenBefore}) GROUP BY zone_id) GROUP BY day, zone_id`;
  const rows = await db.all(
    `WITH ${CTES}, ${REPORTED_CTE}, ${zoneRpvSql(visits)}
SELECT r.zone_id, CASE WHEN r.estimated AND t.zone_id IS NULL THEN NULL ELSE r.rpv END AS rpv, r.tq, r.estimated
FROM zone_rpv r LEFT JOIN zone_trailing t ON t.day = r.day AND t.zone_id = r.zone_id`,
    params,
  );
  return rows.map((r) => ({
    zone_id: String(r.zone_id),
    rpv: r.rpv === null ? null : Number(r.rpv),
    tq: r.tq === null || r.tq === undefined ? null : Number(r.tq),
    estimated: Boolean(r.estimated),
  }));
}
