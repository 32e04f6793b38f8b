// Alert-evaluator benchmark (not a test): 1,000 rules of all five kinds over many subjects
// (zones, publishers, advertisers, referrer hosts, IPs, campaigns and ad sets; 3 % of them on
// every subject of their kind) on 10 million zone-report rows and 50 million referrer events
// (bench/generate.mjs's rows, straight into DuckDB; a few human bursts added in the minutes
// before the evaluation so the traffic rules find something). Evaluation rounds a minute apart
// — every rule's query, the alerts opened and resolved in the entity store (lowdb) — timed in
// server CPU (process.cpuUsage: this process's every thread, DuckDB's and chdb's workers
// included) against the target of 5 s of CPU per minute; the first round, which opens
// every alert at once, is shown apart. Then the same rules on ClickHouse (chdb, embedded in this
// process) over a smaller set (1 million rows, 5 million events), loaded through the warehouse.
// Run: npm run bench:alerts   (BENCH_ROWS, BENCH_EVENTS, BENCH_RULES, BENCH_EVENT_DAYS,
// BENCH_EVERY_SHARE, BENCH_ALONE_RULES, BENCH_CH_ROWS / BENCH_CH_EVENTS (0: no ClickHouse),
// BENCH_DATA_DIR=dir keeps the generated rows)
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { adSpendSql, generateReferrerEvents, generateZoneReports } from './generate.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => path.join(root, 'server/dist', p);
const { ZONE_REPORT_COLUMNS_SQL } = await import(dist('warehouse/duckdb/zone-report/schema.js'));
const { openDuckDbWarehouse } = await import(dist('warehouse/duckdb/index.js'));
const { openClickHouseWarehouse } = await import(dist('warehouse/clickhouse/index.js'));
const { findings, roundQueries } = await import(dist('services/alert-rules.js'));
const { loadConfig } = await import(dist('config.js'));
const { createServices } = await import(dist('services/index.js'));

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 50_000_000);
const RULES = Number(process.env.BENCH_RULES ?? 1000);
const DAYS = Number(process.env.BENCH_DAYS ?? 400);
/** Raw events span the default retention (ADOPS_EVENT_RETENTION_DAYS, 90 days). */
const EVENT_DAYS = Number(process.env.BENCH_EVENT_DAYS ?? 90);
const ADS = Number(process.env.BENCH_ADS ?? 5000);
const CH_ROWS = Number(process.env.BENCH_CH_ROWS ?? 1_000_000);
const CH_EVENTS = Number(process.env.BENCH_CH_EVENTS ?? 5_000_000);
/** Rules timed one by one, each with its own queries (the evaluator before it shared them), to compare. */
const ALONE = Number(process.env.BENCH_ALONE_RULES ?? 50);
/** Share of the rules on every subject of their kind instead of one (BENCH_EVERY_SHARE). */
const EVERY_SHARE = Number(process.env.BENCH_EVERY_SHARE ?? 0.03);
const TARGET_CPU_MS = 5_000;
const ATTRIBUTED_PCT = 35;

const log = (line = '') => console.log(line);
const fmtInt = (n) => Math.round(n).toLocaleString('en-US');
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const countBy = (xs, key) => {
  const m = new Map();
  for (const x of xs) m.set(key(x), (m.get(key(x)) ?? 0) + 1);
  return [...m].map(([k, n]) => `${k} ${fmtInt(n)}`).join(', ');
};
const ymd = (d) => d.toISOString().slice(0, 10);
const addDays = (s, n) => ymd(new Date(Date.parse(`${s}T00:00:00Z`) + n * 86_400_000));
const today = ymd(new Date());
const lastDay = addDays(today, -1);
/** The first evaluation's instant: ten minutes before the generated events end (yesterday, UTC), so three rounds a minute apart stay on one day. */
let NOW = Date.parse(`${today}T00:00:00Z`) - 10 * 60_000;

const work = mkdtempSync(path.join(tmpdir(), 'adops-bench-alerts-'));
const KEPT = process.env.BENCH_DATA_DIR ? path.resolve(process.env.BENCH_DATA_DIR) : null;
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

/** Human bursts in the last minutes before NOW: five IPs, a never-seen host, a spike on a known one. */
const burstSql = (firstId) => `
  INSERT INTO referrer_event (id, seen_at, zone_id, parent_domain, referrer, ip, country, publisher, advertiser, is_bot)
  SELECT ${firstId} + i, TIMESTAMP '${new Date(NOW).toISOString().slice(0, 19).replace('T', ' ')}' - to_microseconds(((i * 997 % 480) * 1000000)::BIGINT),
         '380007', host, 'https://' || host || '/p', ip, 'ES', 'Publisher 07', 'AdNova', false
    FROM range(2750) t(i),
         LATERAL (SELECT CASE WHEN i < 750 THEN '203.0.113.' || (i % 5)::VARCHAR ELSE '10.9.' || (i % 250)::VARCHAR || '.' || (i // 250)::VARCHAR END AS ip,
                         CASE WHEN i < 750 THEN 'site7.com' WHEN i < 870 THEN 'oferta-flash.example' ELSE 'site7.com' END AS host)`;

/** Generates `rows` zone-report rows over DAYS days and `events` referrer events over EVENT_DAYS days (+ spend, bursts) into dir. */
async function generate(dir, rows, events) {
  const perDay = Math.max(2, 2 * Math.round(rows / DAYS / 2));
  const file = path.join(dir, 'warehouse.duckdb');
  // Kept rows are evaluated at the instant they were generated for.
  const nowFile = path.join(dir, 'bench-now.json');
  if (existsSync(file) && existsSync(nowFile)) {
    NOW = JSON.parse(readFileSync(nowFile, 'utf8')).now;
    return { perDay, reused: true };
  }
  rmSync(dir, { recursive: true, force: true });
  const t = performance.now();
  mkdirSync(dir, { recursive: true });
  let instance = await DuckDBInstance.create(file, { threads: '2', memory_limit: '1GB' });
  let conn = await instance.connect();
  await conn.run(`CREATE TABLE zone_report (${ZONE_REPORT_COLUMNS_SQL})`);
  await generateZoneReports(conn, { firstDay: addDays(lastDay, -(DAYS - 1)), days: DAYS, perDay });
  await conn.run('CHECKPOINT');
  conn.closeSync();
  instance.closeSync();
  // The server's schema (and the rollup), then events, spend and the bursts straight into it.
  await (await openDuckDbWarehouse(dir)).close();
  instance = await DuckDBInstance.create(file, { threads: '2', memory_limit: '1GB' });
  conn = await instance.connect();
  const eventFirstDay = addDays(lastDay, -(EVENT_DAYS - 1));
  await generateReferrerEvents(conn, {
    firstDay: eventFirstDay,
    days: EVENT_DAYS,
    total: events,
    zones: perDay / 2,
    ads: ADS,
    attributedPct: ATTRIBUTED_PCT,
  });
  await conn.run(burstSql(events + 1));
  await conn.run(adSpendSql({ firstDay: eventFirstDay, days: EVENT_DAYS, ads: ADS }));
  await conn.run('CHECKPOINT');
  conn.closeSync();
  instance.closeSync();
  writeFileSync(nowFile, JSON.stringify({ now: NOW }));
  log(
    `Generated ${fmtInt(DAYS * perDay)} zone-report rows, ${fmtInt(events)} referrer events and their spend into ${dir} in ${seconds(performance.now() - t)}`,
  );
  return { perDay, reused: false };
}

/** A deterministic mix of `n` rules over the generated subjects (mulberry32). */
function ruleMix(n, zones) {
  let seed = 20240514;
  const rnd = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  const int = (a, b) => a + Math.floor(rnd() * (b - a + 1));
  const zone = () => String(380000 + int(0, zones - 1));
  const publisher = () => `Publisher ${String(int(0, 39)).padStart(2, '0')}`;
  const host = () => `site${int(0, 39)}${rnd() < 0.33 ? '.es' : '.com'}`;
  const campaigns = Math.ceil(ADS / 20);
  /** Most rules watch one subject; a few watch every one (each of those may open up to 200 alerts). */
  const every = () => rnd() < EVERY_SHARE;
  const kinds = [
    // share of the rules, and one rule of the kind
    [
      0.3,
      () => ({
        kind: 'tq_low',
        params: rnd() < 0.8 ? { scope: 'zone', target: every() ? null : zone() } : { scope: 'publisher', target: every() ? null : publisher() },
      }),
      (p) => Object.assign(p, { threshold: pick([0.2, 0.3, 0.4, 0.5]), hours: pick([6, 12, 24, 48, 72]), min_impressions: pick([500, 1000, 5000]) }),
    ],
    [
      0.25,
      () => ({
        kind: 'revenue_drop',
        params: pick([
          { scope: 'zone', target: every() ? null : zone() },
          { scope: 'zone', target: zone() },
          { scope: 'publisher', target: every() ? null : publisher() },
          { scope: 'advertiser', target: every() ? null : pick(['AdNova', 'BidSphere', 'Clickora']) },
        ]),
      }),
      (p) => Object.assign(p, { drop_percent: pick([20, 30, 50, 70]), hours: pick([24, 48, 72, 168]), min_revenue: pick([1, 10, 50]) }),
    ],
    [
      0.15,
      () => ({
        kind: 'referrer_burst',
        params: rnd() < 0.2 ? { new_only: true, target: null } : { new_only: false, target: every() ? null : host() },
      }),
      (p) => Object.assign(p, { visits: pick([20, 50, 100, 500, 1000]), minutes: pick([5, 10, 15, 30, 60]) }),
    ],
    [
      0.1,
      () => ({ kind: 'ip_burst', params: {} }),
      (p) => Object.assign(p, { visits: pick([10, 20, 50, 100, 300]), minutes: pick([1, 5, 10, 15, 60]) }),
    ],
    [
      0.2,
      () => ({
        kind: 'campaign_roi',
        params:
          rnd() < 0.6
            ? { level: 'campaign', target: every() ? null : `c${int(0, campaigns - 1)}` }
            : { level: 'adset', target: every() ? null : `s${int(0, campaigns * 4 - 1)}` },
      }),
      (p) =>
        Object.assign(p, {
          metric: pick(['roi', 'roi', 'cpc']),
          threshold: pick([-20, 0, 10]),
          hours: pick([24, 48, 72, 168]),
          min_spend: pick([1, 10, 50]),
        }),
    ],
  ];
  const rules = [];
  for (const [share, make, fill] of kinds)
    for (let i = 0; i < Math.round(n * share); i++) {
      const spec = make();
      fill(spec.params);
      rules.push({ name: `${spec.kind} ${i + 1}`, ...spec, enabled: true, cooldown_minutes: 60 });
    }
  return rules.slice(0, n);
}

const BENCH_ENV = {
  ADOPS_DEMO: '0',
  ADOPS_LOG: 'silent',
  ADOPS_TZ: 'UTC',
  ADOPS_ALERTS_EVERY_SECONDS: '0',
  ADOPS_SPEND_SYNC_MINUTES: '0',
  ADOPS_EVENT_RETENTION_DAYS: '3650',
  ADOPS_ADMIN_PASSWORD: 'bench-pass-123',
};

/** The rules in a fresh entity store on `warehouse`, then one evaluation round timed twice (the first also opens the alerts). */
async function measure(label, warehouse, zones) {
  const dataDir = mkdtempSync(path.join(work, 'store-'));
  const s = await createServices(loadConfig({ ...BENCH_ENV, ADOPS_DATA_DIR: dataDir }), () => {}, { warehouse });
  const admin = { id: 'bench', email: 'bench@adops.local', is_admin: true };
  const rules = ruleMix(RULES, zones);
  for (const r of rules) await s.alerts.createRule(admin, r);
  log(`${label}: ${fmtInt(rules.length)} rules (${countBy(rules, (r) => r.kind)})`);
  const rounds = [];
  // The first round opens every alert at once (and fills the caches); the next ones, a minute apart, are what runs every minute.
  const ROUNDS = [
    ['first round (opens alerts)', NOW],
    ['a minute later', NOW + 60_000],
    ['two minutes later', NOW + 120_000],
  ];
  for (const [round, at] of ROUNDS) {
    const cpu0 = process.cpuUsage();
    const t = performance.now();
    const result = await s.alerts.evaluate(at);
    const wall = performance.now() - t;
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    rounds.push(cpuMs);
    log(
      `  ${round.padEnd(28)} CPU ${seconds(cpuMs).padStart(8)} (user ${seconds(cpu.user / 1000)}, system ${seconds(cpu.system / 1000)}), wall ${seconds(wall)}; ` +
        `${result.rules} rules, ${result.fired} fired, ${result.resolved} resolved, ${result.errors.length} errors`,
    );
    if (result.errors.length) log(`    first error: ${result.errors[0].detail}`);
  }
  const open = (await s.store.alerts.list({ state: 'open' }, 0, 100_000)).rows;
  const kindOf = new Map((await s.store.alerts.rules.list()).map((r) => [r.id, r.kind]));
  log(`  open alerts by kind: ${countBy(open, (a) => kindOf.get(a.rule_id)) || 'none'}`);
  const worst = Math.max(...rounds.slice(1));
  {
    // Where the time goes: the same rules' queries and findings in one shared round, no alert stored.
    const all = await s.store.alerts.rules.list();
    const ctx = { warehouse, profit: s.profit, tz: 'UTC', now: NOW + 120_000, round: roundQueries(all) };
    const cpu0 = process.cpuUsage();
    for (const r of all) await findings(r.kind, r.params, ctx);
    const cpu = process.cpuUsage(cpu0);
    log(
      `  of which the warehouse queries and findings (no store): ${seconds((cpu.user + cpu.system) / 1000)} of CPU, ${ctx.round.answers.size} queries`,
    );
  }
  if (ALONE > 0) {
    // The same rules' findings without the round's shared queries: a sample, every kind in its share.
    const sample = (await s.store.alerts.rules.list()).filter((_, i) => i % Math.max(1, Math.round(rules.length / ALONE)) === 0);
    const ctx = { warehouse, profit: s.profit, tz: 'UTC', now: NOW };
    const cpu0 = process.cpuUsage();
    for (const r of sample) await findings(r.kind, r.params, ctx);
    const cpu = process.cpuUsage(cpu0);
    const ms = (cpu.user + cpu.system) / 1000;
    log(
      `  each rule with its own queries (no sharing): ${seconds(ms)} of CPU for ${sample.length} rules — ~${seconds((ms * rules.length) / sample.length)} for ${fmtInt(rules.length)} (extrapolated)`,
    );
  }
  log(
    `  ${worst < TARGET_CPU_MS ? 'PASS' : 'FAIL'} ${label}: one round every minute takes ${seconds(worst)} of server CPU (the worse of the rounds after the first) — target < ${seconds(TARGET_CPU_MS)} — ${(worst / TARGET_CPU_MS).toFixed(2)}× the target`,
  );
  for (const close of s.onClose.reverse()) await close();
  return worst;
}

log(
  `AdOps alert-evaluator benchmark — ${cpus().length} CPUs, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}, Node ${process.version}`,
);
const duckDir = KEPT ? path.join(KEPT, 'duckdb') : path.join(work, 'duckdb');
const { perDay, reused } = await generate(duckDir, ROWS, EVENTS);
if (reused) log(`Reusing the rows in ${duckDir} (BENCH_DATA_DIR)`);
log(
  `DuckDB: ${fmtInt(DAYS * perDay)} zone-report rows (${DAYS} days × ${fmtInt(perDay / 2)} zones), ${fmtInt(EVENTS)} referrer events over ${EVENT_DAYS} days (${ATTRIBUTED_PCT} % from ${fmtInt(ADS)} Meta ads, 3 % bots), evaluated at ${new Date(NOW).toISOString()}`,
);
{
  const duck = await openDuckDbWarehouse(duckDir);
  await measure('DuckDB', duck, perDay / 2);
  await duck.close();
}

if (CH_ROWS > 0 && CH_EVENTS > 0) {
  // ClickHouse (chdb in this process) on a smaller set: generated into DuckDB, then loaded through the warehouse interface.
  const small = KEPT ? path.join(KEPT, 'small') : path.join(work, 'small');
  const chdbDir = KEPT ? path.join(KEPT, 'chdb') : path.join(work, 'chdb');
  const { perDay: chPerDay } = await generate(small, CH_ROWS, CH_EVENTS);
  const ch = await openClickHouseWarehouse({ url: `chdb://${chdbDir}` }, { database: 'adops' });
  if ((await ch.referrers.countEvents()) === 0) {
    const t = performance.now();
    const duck = await openDuckDbWarehouse(small);
    const imp = await ch.zoneReports.beginImport();
    let seq = 0;
    for await (const rows of duck.zoneReports.streamRows({ filters: { start_date: '1900-01-01', end_date: '2299-12-31' }, order: [] }))
      for (const r of rows) imp.add(r, ++seq);
    await imp.commit();
    await imp.close();
    await ch.spend.upsert(await duck.spend.rows({ from: '1900-01-01', to: '2299-12-31' }));
    const max = await duck.referrers.maxEventId();
    for (let after = 0; after < max; after += 200_000) await ch.referrers.append(await duck.referrers.eventsAfter(after, after + 200_001, 200_000));
    await duck.close();
    log(
      `Loaded ${fmtInt(seq)} zone-report rows and ${fmtInt(await ch.referrers.countEvents())} referrer events into ClickHouse (chdb) in ${seconds(performance.now() - t)}`,
    );
  }
  log('');
  log(
    `ClickHouse (chdb), a smaller set: ${fmtInt(DAYS * chPerDay)} zone-report rows (${fmtInt(chPerDay / 2)} zones), ${fmtInt(CH_EVENTS)} referrer events over ${EVENT_DAYS} days`,
  );
  await measure('ClickHouse', ch, chPerDay / 2);
  await ch.close();
}
process.exit(0);
