// Bench data generated inside DuckDB (INSERT … SELECT from range(), nothing through the API), the
// same on every run: values come from hashes of the row's position. Zone reports (bench:reports,
// bench:scale), and for the profit query referrer events attributed to Meta ads and the ads' daily
// spend, on the zones and days of those reports; and the CSV the report bench imports.
import { addDays } from './format.mjs';

/** Ads → ad sets → campaigns: 5 ads an ad set, 4 ad sets a campaign. */
const ADS_PER_ADSET = 5;
const ADS_PER_CAMPAIGN = 20;

/**
 * One batch of days [d0, d1) of zone-report rows: `perDay` rows a day (two per zone, `perDay / 2`
 * zones '380000'…), 3 advertisers, 40 publishers, ten geos, six sources.
 */
export const zoneReportSql = ({ firstDay, perDay, d0, d1 }) => `
  INSERT INTO zone_report
  SELECT date, advertiser, publisher, zone_id, geo, source, domain, impressions,
         (impressions * (0.6 + 0.35 * u1))::BIGINT AS monetized_impressions,
         (impressions * 0.02 * u2)::BIGINT AS clicks,
         revenue, rate AS rate_applied, revenue * rate AS p_revenue, revenue - revenue * rate AS margin,
         CASE WHEN u4 < 0.05 THEN NULL WHEN z % 50 = 0 THEN 0.05 + 0.25 * u4 ELSE 0.5 + 0.5 * u4 END AS tq
    FROM (
      SELECT *, CASE WHEN u3 < 0.01 THEN 0 ELSE round(impressions / 1000.0 * (0.4 + 2.5 * u3), 4) END AS revenue
        FROM (
          SELECT *, CASE WHEN u3 < 0.01 THEN 0 ELSE (50 + 30000 * u1 * u1)::BIGINT END AS impressions
            FROM (
              SELECT (DATE '${firstDay}' + d::INTEGER) AS date, z,
                     (['AdNova','BidSphere','Clickora'])[((r // ${perDay / 2} + d) % 3)::INTEGER + 1] AS advertiser,
                     'Publisher ' || lpad(((z * 7919) % 40)::VARCHAR, 2, '0') AS publisher,
                     (380000 + z)::VARCHAR AS zone_id,
                     (['ES','MX','AR','CO','US','CL','PE','BR','FR','IT'])[(z % 10)::INTEGER + 1] AS geo,
                     (['search','social','direct','native','push','email'])[(z % 6)::INTEGER + 1] AS source,
                     'site' || ((z * 7919) % 40) || CASE WHEN z % 3 = 0 THEN '.es' ELSE '.com' END AS domain,
                     CASE WHEN (z * 7919) % 40 = 5 THEN 1.15 ELSE 0.55 + 0.05 * ((z * 7919) % 6) END AS rate,
                     (h % 1000003) / 1000003.0 AS u1,
                     ((h >> 20) % 1000003) / 1000003.0 AS u2,
                     ((h >> 40) % 1000003) / 1000003.0 AS u3,
                     (hash(h) % 1000003) / 1000003.0 AS u4
                FROM range(${d0}, ${d1}) t(d), range(${perDay}) u(r),
                     LATERAL (SELECT r % ${perDay / 2} AS z, hash(d * 1000000 + r) AS h)
            )
        )
    )
   ORDER BY date`;

/** Generates `days` days of zone reports ending `lastDay` into an open DuckDB connection (20 days per INSERT). */
export async function generateZoneReports(conn, { firstDay, days, perDay }) {
  for (let d0 = 0; d0 < days; d0 += 20) await conn.run(zoneReportSql({ firstDay, perDay, d0, d1: Math.min(days, d0 + 20) }));
}

/**
 * Referrer events ids [i0, i1) of `total`, spread evenly over `days` days from `firstDay` (in id
 * order, so ids and seen_at grow together as at ingest), on the reports' `zones` zones:
 * `attributedPct` % come from one of `ads` Meta ads (campaign 'c…', ad set 's…', ad 'ad…', the
 * campaign's keyword, a placement), 3 % are flagged as bots.
 */
export const referrerEventsSql = ({ firstDay, days, total, zones, ads, attributedPct, i0, i1 }) => `
  INSERT INTO referrer_event (id, seen_at, zone_id, parent_domain, referrer, keyword, ip, country, publisher, advertiser,
                              is_bot, reason, campaign_id, adset_id, ad_id, placement)
  SELECT i + 1, seen_at, (380000 + z)::VARCHAR, domain, 'https://' || domain || '/p/' || (h % 5000)::VARCHAR,
         CASE WHEN attributed THEN 'kw ' || (ad // ${ADS_PER_CAMPAIGN})::VARCHAR WHEN (h >> 30) % 10 < 6 THEN 'kw ' || ((h >> 34) % 300)::VARCHAR END,
         '10.' || ((h >> 12) % 256)::VARCHAR || '.' || ((h >> 20) % 256)::VARCHAR || '.' || ((h >> 28) % 256)::VARCHAR,
         (['ES','MX','AR','CO','US','CL','PE','BR','FR','IT'])[(z % 10)::INTEGER + 1],
         'Publisher ' || lpad(((z * 7919) % 40)::VARCHAR, 2, '0'), (['AdNova','BidSphere','Clickora'])[(z % 3)::INTEGER + 1],
         bot, CASE WHEN bot THEN 'user_agent' END,
         CASE WHEN attributed THEN 'c' || (ad // ${ADS_PER_CAMPAIGN})::VARCHAR END,
         CASE WHEN attributed THEN 's' || (ad // ${ADS_PER_ADSET})::VARCHAR END,
         CASE WHEN attributed THEN 'ad' || ad::VARCHAR END,
         CASE WHEN attributed THEN (['Facebook_Mobile_Feed','Instagram_Stories','Instagram_Feed','Audience_Network'])[(h % 4)::INTEGER + 1] END
    FROM (
      SELECT i, h, z, 'site' || ((z * 7919) % 40) || CASE WHEN z % 3 = 0 THEN '.es' ELSE '.com' END AS domain,
             TIMESTAMP '${firstDay} 00:00:00' + to_microseconds((i * (${days * 86_400_000_000} / ${total}))::BIGINT) AS seen_at,
             (h >> 40) % 100 < ${attributedPct} AS attributed, (h >> 48) % ${ads} AS ad, (h >> 52) % 100 < 3 AS bot
        FROM (SELECT i, hash(i * 7 + 1) AS h FROM range(${i0}, ${i1}) t(i)), LATERAL (SELECT h % ${zones} AS z)
    )
   ORDER BY i`;

/** Generates `total` events in inserts of 5 million (bounded memory). */
export async function generateReferrerEvents(conn, options) {
  for (let i0 = 0; i0 < options.total; i0 += 5_000_000)
    await conn.run(referrerEventsSql({ ...options, i0, i1: Math.min(options.total, i0 + 5_000_000) }));
}

/** Every ad's spend on every one of `days` days from `firstDay` (USD, the network's currency). */
export const adSpendSql = ({ firstDay, days, ads }) => `
  INSERT INTO ad_spend (date, account_id, campaign_id, campaign_name, adset_id, adset_name, ad_id, ad_name, spend, impressions, clicks, currency, synced_at)
  SELECT DATE '${firstDay}' + d::INTEGER, 'act_bench',
         'c' || (a // ${ADS_PER_CAMPAIGN})::VARCHAR, 'Campaña ' || (a // ${ADS_PER_CAMPAIGN})::VARCHAR,
         's' || (a // ${ADS_PER_ADSET})::VARCHAR, 'Conjunto ' || (a // ${ADS_PER_ADSET})::VARCHAR,
         'ad' || a::VARCHAR, 'Anuncio ' || a::VARCHAR,
         round(2 + 40 * u, 2), (400 + 8000 * u)::BIGINT, (8 + 160 * u)::BIGINT, 'USD', TIMESTAMP '${firstDay} 00:00:00'
    FROM range(${days}) t(d), range(${ads}) s(a), LATERAL (SELECT (hash(d * 100000 + a) % 1000003) / 1000003.0 AS u)
   ORDER BY 1, 7`;

/**
 * A CSV of `rows` zone-report lines to import, `perDay` a day from `firstDay` on (days the bench's
 * rows do not hold: new keys), its values from a seeded generator, so every run posts the same file.
 */
export function ingestCsv({ rows, perDay, firstDay }) {
  const lines = ['date,advertiser,publisher,zone_id,geo,source,domain,impressions,monetized_impressions,clicks,revenue,tq'];
  let seed = 12345;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  for (let i = 0; i < rows; i++) {
    const day = Math.floor(i / perDay);
    const r = i % perDay;
    const z = r % (perDay / 2);
    const impressions = Math.floor(50 + 30000 * rand() * rand());
    lines.push(
      `${addDays(firstDay, day)},${['AdNova', 'BidSphere', 'Clickora'][(Math.floor(r / (perDay / 2)) + day) % 3]},` +
        `Publisher ${String((z * 7919) % 40).padStart(2, '0')},${380000 + z},ES,search,site${(z * 7919) % 40}.com,` +
        `${impressions},${Math.floor(impressions * 0.8)},${Math.floor(impressions * 0.01)},${((impressions / 1000) * (0.4 + 2.5 * rand())).toFixed(4)},${(0.5 + rand() / 2).toFixed(3)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
