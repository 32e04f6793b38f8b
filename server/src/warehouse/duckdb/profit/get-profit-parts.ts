// The profit query on DuckDB: Meta spend per group (in its currency and month) and what the
// group's human visits earned. For each day and zone, revenue per visit (RPV) = the zone's
// zone-report revenue ÷ its human visits that day; a day without any zone report yet takes the
// zone's trailing RPV (Σ revenue ÷ Σ visits over the 7 days before it that have a report) and is
// an estimate. A group's revenue = Σ over days and zones of RPV × its visits there; its TQ the
// zones' impression-weighted TQ, weighted by its visits the same way. Visits are the events with
// a campaign id (attributed to Meta); an event's day is its calendar day in the reporting zone.
// By keyword, each ad-day's spend is shared among the keywords of its visits (all of it to no
// keyword when it had none). $1 first day, $2 last day, $3 campaign id, $4 ad set id (NULL: any),
// $5 tz, $6/$7 the events' instants (from the 7 days before the range to its end), $8 the zone's
// UTC offset (ms) at $6 and $9–$20 up to six (instant ms, new offset) changes after it: an event's
// local day is its instant plus the offset, integer arithmetic (converting every event's zone
// costs ~10× the rest of the scan); with more changes than that, $8 is NULL and each converts.
import { addDays, zonedDayEnd, zonedDayStart } from '@adops/core';
import type { Db, Param } from '../db.js';
import type { ProfitDimension, ProfitParts, ProfitQuery, ZoneDayValue, ZoneValuesQuery } from '../../types.js';
import { profitParts } from '../../profit-rows.js';
import { sqlTimestamp } from '../referrers/filter.js';
import { MAX_OFFSET_CHANGES, offsetPieces } from '../../tz-offsets.js';

const VISIT_KEY: Record<ProfitDimension, string> = {
  campaign: 'campaign_id',
  adset: 'adset_id',
  ad: 'ad_id',
  keyword: 'keyword',
  day: "strftime(day, '%Y-%m-%d')",
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

const CTES = `
ev AS (
  SELECT CASE WHEN $8::BIGINT IS NULL THEN CAST(timezone($5, seen_at AT TIME ZONE 'UTC') AS DATE)
              ELSE DATE '1970-01-01' + CAST((ms + CASE WHEN ms < $9::BIGINT THEN $8::BIGINT WHEN ms < $11::BIGINT THEN $10::BIGINT WHEN ms < $13::BIGINT THEN $12::BIGINT
                WHEN ms < $15::BIGINT THEN $14::BIGINT WHEN ms < $17::BIGINT THEN $16::BIGINT WHEN ms < $19::BIGINT THEN $18::BIGINT ELSE $20::BIGINT END) // 86400000 AS INTEGER) END AS day,
         zone_id, campaign_id, adset_id, ad_id, keyword
  FROM (SELECT epoch_ms(seen_at) AS ms, * FROM referrer_event WHERE seen_at >= $6::TIMESTAMP AND seen_at <= $7::TIMESTAMP AND NOT is_bot)
),
attributed AS (
  SELECT * FROM ev
  WHERE day BETWEEN $1::DATE AND $2::DATE AND campaign_id IS NOT NULL
    AND ($3::VARCHAR IS NULL OR campaign_id = $3) AND ($4::VARCHAR IS NULL OR adset_id = $4)
),
reported AS (SELECT DISTINCT date AS day FROM zone_report WHERE date BETWEEN $1::DATE - 7 AND $2::DATE)`;

/** Human visits per day and zone (the profit query's); zoneValues adds the zones seen in the 7 days before, with 0 visits on the day. */
const ZONE_VISITS = 'SELECT day, zone_id, count(*) AS visits FROM ev GROUP BY day, zone_id';
const zoneRpvSql = (zoneVisits: string) => `
zone_visits AS (${zoneVisits}),
zone_rev AS (
  SELECT date AS day, zone_id, sum(revenue) AS revenue,
         sum(CASE WHEN tq > 0 AND impressions > 0 THEN tq * impressions ELSE 0 END) AS tq_weighted,
         sum(CASE WHEN tq > 0 AND impressions > 0 THEN impressions ELSE 0 END) AS tq_weight
  FROM zone_report WHERE date BETWEEN $1::DATE - 7 AND $2::DATE GROUP BY date, zone_id
),
zone_day AS (
  SELECT v.day, v.zone_id, v.visits, coalesce(r.revenue, 0) AS revenue, coalesce(r.tq_weighted, 0) AS tq_weighted,
         coalesce(r.tq_weight, 0) AS tq_weight, v.day IN (SELECT day FROM reported) AS reported
  FROM zone_visits v LEFT JOIN zone_rev r ON r.day = v.day AND r.zone_id = v.zone_id
),
zone_trailing AS (
  SELECT d.day, d.zone_id, sum(t.revenue) AS revenue, sum(t.visits) AS visits, sum(t.tq_weighted) AS tq_weighted, sum(t.tq_weight) AS tq_weight
  FROM zone_day d CROSS JOIN range(1, 8) AS k(k)
  JOIN zone_day t ON t.zone_id = d.zone_id AND t.day = d.day - CAST(k.k AS INTEGER) AND t.reported
  WHERE NOT d.reported AND d.day >= $1::DATE
  GROUP BY d.day, d.zone_id
),
zone_rpv AS (
  SELECT d.day, d.zone_id, NOT d.reported AS estimated,
         CASE WHEN d.reported THEN d.revenue / nullif(d.visits, 0) ELSE coalesce(t.revenue / nullif(t.visits, 0), 0) END AS rpv,
         CASE WHEN d.reported THEN d.tq_weighted / nullif(d.tq_weight, 0) ELSE t.tq_weighted / nullif(t.tq_weight, 0) END AS tq
  FROM zone_day d LEFT JOIN zone_trailing t ON t.day = d.day AND t.zone_id = d.zone_id
  WHERE d.day >= $1::DATE
)`;
const ZONE_RPV = zoneRpvSql(ZONE_VISITS);

function visitsSql(by: ProfitDimension): string {
  const p = parents(by);
  return `WITH ${CTES}, ${ZONE_RPV},
vz AS (
  SELECT day, zone_id, ${VISIT_KEY[by]} AS key, ${p.campaign} AS campaign_id, ${p.adset} AS adset_id, count(*) AS visits
  FROM attributed GROUP BY day, zone_id, key
)
SELECT key, any_value(vz.campaign_id) AS campaign_id, any_value(vz.adset_id) AS adset_id, sum(visits) AS visits,
       sum(visits * r.rpv) AS revenue,
       sum(CASE WHEN r.estimated THEN visits ELSE 0 END) AS estimated_visits,
       sum(CASE WHEN r.tq IS NOT NULL THEN visits * r.tq ELSE 0 END) AS tq_weighted,
       sum(CASE WHEN r.tq IS NOT NULL THEN visits ELSE 0 END) AS tq_weight
FROM vz JOIN zone_rpv r ON r.day = vz.day AND r.zone_id = vz.zone_id
GROUP BY key`;
}

const SPEND_WHERE = `date BETWEEN $1::DATE AND $2::DATE AND ($3::VARCHAR IS NULL OR campaign_id = $3) AND ($4::VARCHAR IS NULL OR adset_id = $4)`;

function spendSql(by: ProfitDimension): string {
  if (by === 'keyword')
    return `WITH ${CTES},
kv AS (SELECT day, ad_id, keyword, count(*) AS visits FROM attributed WHERE ad_id IS NOT NULL GROUP BY day, ad_id, keyword),
kt AS (SELECT day, ad_id, sum(visits) AS total FROM kv GROUP BY day, ad_id),
shared AS (
  SELECT s.date, s.currency, kv.keyword, coalesce(kv.visits / kt.total, 1) AS share, s.spend, s.impressions, s.clicks
  FROM (SELECT * FROM ad_spend WHERE ${SPEND_WHERE}) s
  LEFT JOIN kv ON kv.day = s.date AND kv.ad_id = s.ad_id
  LEFT JOIN kt ON kt.day = s.date AND kt.ad_id = s.ad_id
)
SELECT keyword AS key, NULL AS name, NULL AS campaign_id, NULL AS adset_id, strftime(date, '%Y-%m') AS month, currency,
       sum(spend * share) AS spend, sum(impressions * share) AS impressions, sum(clicks * share) AS clicks
FROM shared GROUP BY key, month, currency`;
  const k = SPEND_KEY[by];
  const p = parents(by);
  return `SELECT ${k.key} AS key, ${k.name === 'NULL' ? 'NULL' : `arg_max(${k.name}, date)`} AS name, ${p.campaign} AS campaign_id, ${p.adset} AS adset_id,
       strftime(date, '%Y-%m') AS month, currency, sum(spend) AS spend, sum(impressions) AS impressions, sum(clicks) AS clicks
FROM ad_spend WHERE ${SPEND_WHERE}
GROUP BY key, month, currency`;
}

const ESTIMATED_DAYS_SQL = `WITH ${CTES}
SELECT DISTINCT strftime(day, '%Y-%m-%d') AS day FROM attributed WHERE day NOT IN (SELECT day FROM reported) ORDER BY day`;

/** The query's bound values, in $-number order. */
export function profitParams(q: ProfitQuery): Param[] {
  const from = zonedDayStart(addDays(q.from, -7), q.tz).getTime();
  const to = zonedDayEnd(q.to, q.tz).getTime();
  const pieces = offsetPieces(from, to, q.tz);
  const fits = pieces.changes.length <= MAX_OFFSET_CHANGES;
  const changes: Param[] = [];
  for (let i = 0; i < MAX_OFFSET_CHANGES; i++) {
    const c = fits ? pieces.changes[i] : undefined;
    // An unused slot's change never comes (its offset repeats the last one).
    changes.push(BigInt(c?.at ?? Number.MAX_SAFE_INTEGER), BigInt(c?.offset ?? pieces.changes.at(-1)?.offset ?? pieces.first));
  }
  return [
    q.from,
    q.to,
    q.campaignId ?? null,
    q.adsetId ?? null,
    q.tz,
    sqlTimestamp(from),
    sqlTimestamp(to),
    fits ? BigInt(pieces.first) : null,
    ...changes,
  ];
}

export async function getProfitParts(db: Db, q: ProfitQuery): Promise<ProfitParts> {
  const params = profitParams(q);
  const [visits, spend, days] = await Promise.all([
    db.all(visitsSql(q.by), params),
    // Spend by campaign, ad set, ad or day reads no event: only the range and the parents ($1–$4).
    db.all(spendSql(q.by), q.by === 'keyword' ? params : params.slice(0, 4)),
    db.all<{ day: string }>(ESTIMATED_DAYS_SQL, params),
  ]);
  return profitParts(
    visits,
    spend,
    days.map((d) => d.day),
  );
}

/** Each zone's RPV and TQ on one day by the same rule (zone_rpv above): what one of its visits is worth. */
export async function getZoneValues(db: Db, q: ZoneValuesQuery): Promise<ZoneDayValue[]> {
  const params = profitParams({ by: 'campaign', from: q.day, to: q.day, tz: q.tz });
  // A zone seen in the days before has a value on the day from its first visit (its trailing RPV while the day is unreported);
  // without a reported day to go by, its value is unknown (null; the profit query counts it at 0).
  const visits = `SELECT day, zone_id, sum(visits) AS visits FROM (${ZONE_VISITS} UNION ALL SELECT $1::DATE AS day, zone_id, 0 AS visits FROM ev WHERE day < $1::DATE GROUP BY zone_id) GROUP BY day, zone_id`;
  const rows = await db.all(
    `WITH ${CTES}, ${zoneRpvSql(visits)}
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
