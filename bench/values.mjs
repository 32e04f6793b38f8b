// The live 'Valor' re-read (prints figures; not a test): once a minute, each API instance reads
// today's zone values (the warehouse's zoneValues: each zone's RPV and TQ) while traffic comes
// in. On DuckDB and on ClickHouse (chdb, embedded in this process), side by side: BENCH_EVENTS
// referrer events (default 10 million, 10 % flagged) over the 7 days before today and today so
// far, across 2,000 zones with a zone report for each of those days; then the first read and three
// re-reads, each after a minute's worth of live traffic (BENCH_MINUTE_EVENTS, default 12,000:
// 200 hits/s) appended through the warehouse as ingest appends it. Wall time and this process's
// CPU (every thread: DuckDB's and chdb's workers are in it).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => path.join(root, 'server/dist', p);
const { openDuckDbWarehouse } = await import(dist('warehouse/duckdb/index.js'));
const { openClickHouseWarehouse } = await import(dist('warehouse/clickhouse/index.js'));

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000_000);
const MINUTE_EVENTS = Number(process.env.BENCH_MINUTE_EVENTS ?? 12_000);
const ZONES = 2000;
const CAMPAIGNS = 30; // a third of the events come from Meta ads, of 10 campaigns (C0, C3, …)
const DAYS = 8; // today and the 7 days before
const TZ = 'Europe/Madrid';
const DAY_MS = 86_400_000;
const ymd = (ms) => new Date(ms).toISOString().slice(0, 10);
const today = ymd(Date.now());
const fmt = (n, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const log = (s) => console.log(s);

const work = mkdtempSync(path.join(tmpdir(), 'adops-bench-values-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

/** Events spread evenly from DAYS - 1 days before now to now (so today holds its share up to this moment). */
const spanMs = (DAYS - 1) * DAY_MS + (Date.now() - Date.parse(`${today}T00:00:00Z`));
const startMs = Date.now() - spanMs;

/** Zone z's report row on a day (each zone its own revenue and TQ). */
const reportRow = (date, z) => ({
  date,
  advertiser: 'AdNova',
  publisher: `Pub ${z % 40}`,
  zone_id: `Z${z}`,
  geo: 'ES',
  source: 'search',
  domain: 'a.com',
  impressions: 5000 + z,
  monetized_impressions: 5000 + z,
  clicks: 50,
  revenue: 10 + (z % 90),
  rate_applied: 0.7,
  p_revenue: 7 + (z % 60),
  margin: 3,
  tq: 0.5 + (z % 50) / 100,
});

async function load(w) {
  // Every day reported, today too: a reported day's values count its own visits, not only the trailing days'.
  const imp = await w.zoneReports.beginImport();
  let seq = 0;
  for (let k = DAYS - 1; k >= 0; k--) for (let z = 0; z < ZONES; z++) imp.add(reportRow(ymd(Date.now() - k * DAY_MS), z), ++seq);
  await imp.commit();
  await imp.close();
  if (w.engine === 'duckdb')
    await w.db.serialWrite((c) =>
      c.run(`INSERT INTO referrer_event (id, seen_at, zone_id, is_bot, campaign_id)
        SELECT i + 1, make_timestamp((${startMs}::BIGINT + (i * ${spanMs}::BIGINT) // ${EVENTS}) * 1000), 'Z' || (i % ${ZONES})::VARCHAR, (i // ${ZONES}) % 10 = 0,
               CASE WHEN i % 3 = 0 THEN 'C' || (i % ${CAMPAIGNS})::VARCHAR END
        FROM range(${EVENTS}) t(i)`),
    );
  else
    await w.db.command(`INSERT INTO ${w.db.t('referrer_event')} (id, seen_at, zone_id, is_bot, campaign_id)
      SELECT number + 1, fromUnixTimestamp64Milli(toInt64(${startMs} + intDiv(number * ${spanMs}, ${EVENTS})), 'UTC'), concat('Z', toString(number % ${ZONES})), intDiv(number, ${ZONES}) % 10 = 0,
             if(number % 3 = 0, concat('C', toString(number % ${CAMPAIGNS})), NULL)
      FROM numbers(${EVENTS})`);
}

let nextId = EVENTS;
/** A minute of live traffic, appended as ingest appends it (ids in order, seen now). */
function minute() {
  const now = Date.now();
  return Array.from({ length: MINUTE_EVENTS }, (_, i) => {
    const ms = now - 60_000 + Math.floor((i * 60_000) / MINUTE_EVENTS);
    return {
      id: ++nextId,
      seen_ms: ms,
      seen_at: new Date(ms).toISOString(),
      zone_id: `Z${i % ZONES}`,
      parent_domain: 'r.example.com',
      referrer: 'https://r.example.com/',
      keyword: null,
      ip: `10.0.${(i >> 8) & 255}.${i & 255}`,
      country: 'ES',
      publisher: null,
      advertiser: null,
      is_bot: false,
      reason: null,
      campaign_id: null,
      adset_id: null,
      ad_id: null,
      placement: null,
    };
  });
}

async function timed(fn) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const out = await fn();
  const c = process.cpuUsage(c0);
  return { ms: performance.now() - t0, cpu: (c.user + c.system) / 1000, out };
}

async function measure(label, w) {
  const loaded = await timed(() => load(w));
  const first = await timed(() => w.profit.zoneValues({ day: today, tz: TZ }));
  const again = [];
  const appends = [];
  for (let r = 0; r < 3; r++) {
    const batch = minute();
    appends.push(await timed(() => w.referrers.append(batch)));
    again.push(await timed(() => w.profit.zoneValues({ day: today, tz: TZ })));
  }
  const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  // Rentabilidad over the last 7 days by campaign: the same zone visits, and the attributed ones.
  const week = { by: 'campaign', from: ymd(Date.now() - 6 * DAY_MS), to: today, tz: TZ };
  const profitFirst = await timed(() => w.profit.parts(week));
  const profitAgain = [];
  for (let r = 0; r < 3; r++) profitAgain.push(await timed(() => w.profit.parts(week)));
  return {
    label,
    loadedMs: loaded.ms,
    first,
    again,
    zones: first.out.length,
    reread: { ms: median(again.map((a) => a.ms)), cpu: median(again.map((a) => a.cpu)) },
    append: { ms: median(appends.map((a) => a.ms)), cpu: median(appends.map((a) => a.cpu)) },
    profitFirst,
    profit: { ms: median(profitAgain.map((a) => a.ms)), cpu: median(profitAgain.map((a) => a.cpu)) },
    campaigns: profitFirst.out.visits.length,
  };
}

log(
  `'Valor' re-read benchmark — ${cpus().length} CPUs, load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
log(
  `${fmt(EVENTS)} referrer events over today and the 7 days before (${TZ}), ${fmt(ZONES)} zones reported every day; ${fmt(MINUTE_EVENTS)} live events appended before each re-read`,
);
const results = [];
mkdirSync(path.join(work, 'duckdb'));
const duck = await openDuckDbWarehouse(path.join(work, 'duckdb'));
results.push(await measure('DuckDB', duck));
await duck.close();
const ch = await openClickHouseWarehouse({ url: `chdb://${path.join(work, 'chdb')}` }, { database: 'adops' });
results.push(await measure('ClickHouse (chdb)', ch));
await ch.close();
for (const r of results) {
  log(`  ${r.label.padEnd(18)} loaded in ${fmt(r.loadedMs / 1000, 1)} s; ${fmt(r.zones)} zone values`);
  log(`    first read                 ${fmt(r.first.ms).padStart(7)} ms wall, ${fmt(r.first.cpu).padStart(7)} ms CPU`);
  log(
    `    re-read after a minute     ${fmt(r.reread.ms).padStart(7)} ms wall, ${fmt(r.reread.cpu).padStart(7)} ms CPU (median of ${r.again.length}: ${r.again.map((a) => fmt(a.ms)).join(' / ')} ms) — ${fmt((r.reread.cpu / 60_000) * 100, 2)} % of a core, once a minute`,
  );
  log(
    `    appending that minute      ${fmt(r.append.ms).padStart(7)} ms wall, ${fmt(r.append.cpu).padStart(7)} ms CPU (median of ${r.again.length})`,
  );
  log(
    `    Rentabilidad, last 7 days  ${fmt(r.profit.ms).padStart(7)} ms wall, ${fmt(r.profit.cpu).padStart(7)} ms CPU (by campaign, median of 3; first ${fmt(r.profitFirst.ms)} ms; ${r.campaigns} campaigns)`,
  );
}
const [d, c] = results;
log(`  ClickHouse ÷ DuckDB, Rentabilidad: ${fmt(c.profit.ms / d.profit.ms, 1)}× wall, ${fmt(c.profit.cpu / d.profit.cpu, 1)}× CPU`);
log(
  `  ClickHouse ÷ DuckDB, re-read: ${fmt(c.reread.ms / d.reread.ms, 1)}× wall, ${fmt(c.reread.cpu / d.reread.cpu, 1)}× CPU (DuckDB counts only the events since its last read; ClickHouse sums the 8 days' visits per zone and hour)`,
);
