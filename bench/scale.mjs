// Scale-out benchmark (not a test): (1) `adops migrate` of a generated zone-report warehouse
// (10 million rows by default) from DuckDB into PostgreSQL + ClickHouse (chdb, embedded in
// this process); (2) the report bench's warehouse queries on DuckDB and on ClickHouse side by
// side, with ratios; (3) beacon hits into instance A and ingest → SSE latency on streams of
// instance B: two built API processes on Redis + PostgreSQL + one ClickHouse (the test-only
// chdb HTTP server, server/test/chdb-http-server.mjs, standing in for clickhouse-server).
// Run: npm run bench:scale   (BENCH_ROWS=200000 for a small run; BENCH_DAYS, BENCH_SECONDS,
// BENCH_STREAMS, BENCH_HIT_RATE (hits/s offered, default 2,000; 0: closed loop of 16),
// BENCH_DATA_DIR=dir keeps the generated rows; BENCH_PG_BIN, REDIS_SERVER_BIN)
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { generateZoneReports } from './generate.mjs';
import { medianOfThree } from './timing.mjs';
import { addDays, fmtMs, seconds, ymd } from './format.mjs';
import { freePort, startPgCluster } from './pg-cluster.mjs';
import { processCpuSeconds } from './process-stats.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => path.join(root, 'server/dist', p);
const { ZONE_REPORT_COLUMNS_SQL } = await import(dist('warehouse/duckdb/zone-report/schema.js'));
const { openDuckDbWarehouse } = await import(dist('warehouse/duckdb/index.js'));
const { openClickHouseWarehouse } = await import(dist('warehouse/clickhouse/index.js'));
const { migrateDataDir } = await import(dist('migrate.js'));

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const DAYS = Number(process.env.BENCH_DAYS ?? 400);
const PER_DAY = Math.max(2, 2 * Math.round(ROWS / DAYS / 2));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const STREAMS = Number(process.env.BENCH_STREAMS ?? 100);
/** Beacon hits a second offered to instance A, open loop (0: closed loop, 16 at a time). */
const HIT_RATE = Number(process.env.BENCH_HIT_RATE ?? 2000);
const RANGES = [7, 30, 365].filter((d) => d <= DAYS);
const BENCH_PUBLISHER = 'Publisher 07';
const INGEST_KEY = 'bench-ingest-key-0123456789';
const ADMIN = { email: 'bench@adops.local', password: 'bench-pass-123' };

const log = (line = '') => console.log(line);
const fmtInt = (n) => Math.round(n).toLocaleString('en-US');
const pct = (sorted, p) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const lastDay = addDays(ymd(new Date()), -1);
const firstDay = addDays(lastDay, -(DAYS - 1));

const work = mkdtempSync(path.join(tmpdir(), 'adops-bench-scale-'));
const KEPT = process.env.BENCH_DATA_DIR ? path.resolve(process.env.BENCH_DATA_DIR) : null;
const dataDir = KEPT ?? path.join(work, 'data');
const children = [];
process.on('exit', () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

/** Spawns a child and resolves with it once `ready` matches its output. */
function startChild(cmd, args, ready, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    children.push(child);
    let out = '';
    const on = (c) => {
      out += c;
      const m = ready.exec(out);
      if (m) resolve({ child, match: m });
    };
    child.stdout.on('data', on);
    child.stderr.on('data', on);
    child.once('exit', (code) => reject(new Error(`${path.basename(cmd)} exited (${code}) before ready:\n${out}`)));
  });
}
const stop = (child) =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });

log(
  `AdOps scale-out benchmark — ${cpus().length} CPUs, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}, Node ${process.version}`,
);
log(`${fmtInt(DAYS * PER_DAY)} zone-report rows: ${DAYS} days × ${fmtInt(PER_DAY)} a day (the generator of bench/reports.mjs)`);
log('');

// ---------------------------------------------------------------- 1. generate into DuckDB (bench/reports.mjs's rows)

if (KEPT && existsSync(path.join(dataDir, 'warehouse.duckdb'))) log(`Reusing the rows in ${dataDir} (BENCH_DATA_DIR)`);
else {
  const t = performance.now();
  mkdirSync(dataDir, { recursive: true });
  const instance = await DuckDBInstance.create(path.join(dataDir, 'warehouse.duckdb'), { threads: '2', memory_limit: '1GB' });
  const conn = await instance.connect();
  await conn.run(`CREATE TABLE zone_report (${ZONE_REPORT_COLUMNS_SQL})`);
  await generateZoneReports(conn, { firstDay, days: DAYS, perDay: PER_DAY });
  await conn.run('CHECKPOINT');
  conn.closeSync();
  instance.closeSync();
  // The first open builds the rollup; timed apart from the migration.
  const w = await openDuckDbWarehouse(dataDir);
  await w.close();
  log(`Generated ${fmtInt(DAYS * PER_DAY)} rows into DuckDB (and its rollup) in ${seconds(performance.now() - t)}`);
}

// ---------------------------------------------------------------- a throwaway PostgreSQL and Redis
function pgBin() {
  if (process.env.BENCH_PG_BIN) return process.env.BENCH_PG_BIN;
  const base = '/usr/lib/postgresql';
  const v = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a))[0] : undefined;
  if (!v) throw new Error('no PostgreSQL in /usr/lib/postgresql (apt-get install -y postgresql, or BENCH_PG_BIN)');
  return path.join(base, v, 'bin');
}
const pg = await startPgCluster({
  work,
  pgBin: pgBin(),
  settings: ['fsync=off', 'synchronous_commit=off', 'max_connections=200'],
  initdb: ['--locale=C'],
});
/** A new database of the throwaway cluster, as a URL. */
function createDb(name) {
  pg.psql(`CREATE DATABASE ${name}`);
  return pg.url(name);
}
const redisPort = await freePort();
const redis = await startChild(
  process.env.REDIS_SERVER_BIN || 'redis-server',
  ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', work],
  /Ready to accept connections/,
);

// ---------------------------------------------------------------- 2. adops migrate of the whole warehouse
const chdbDir = path.join(work, 'chdb');
{
  const t = performance.now();
  const result = await migrateDataDir({
    dataDir,
    databaseUrl: createDb('migrated'),
    clickhouse: { url: `chdb://${chdbDir}`, database: 'adops' },
    log: () => {},
  });
  const ms = performance.now() - t;
  log(
    `adops migrate (DuckDB → ClickHouse/chdb, lowdb → PostgreSQL): ${seconds(ms)} for ${fmtInt(result.copied.zone_report)} rows — ${fmtInt(result.copied.zone_report / (ms / 1000))} rows/s, verification ${result.ok ? 'ok' : 'FAILED'}`,
  );
  for (const c of result.checks.filter((x) => x.name.startsWith('zone_report')))
    log(`  ${c.name.padEnd(24)} ${String(c.source).padStart(22)} ${String(c.target).padStart(22)} ${c.ok ? 'ok' : 'DIFFERS'}`);
  const again = performance.now();
  const second = await migrateDataDir({
    dataDir,
    databaseUrl: pg.url('migrated'),
    clickhouse: { url: `chdb://${chdbDir}`, database: 'adops' },
  });
  log(`  run again (copies nothing, verifies): ${seconds(performance.now() - again)}, ${second.ok ? 'ok' : 'FAILED'}`);
  // Disk: the DuckDB file copied from, and ClickHouse's directory once its merges have settled.
  const du = (p) => Number(execFileSync('du', ['-sb', p], { encoding: 'utf8' }).split('\t')[0]);
  const gb = (bytes) => `${(bytes / 1e9).toFixed(2)} GB`;
  log(`  disk: DuckDB ${gb(du(path.join(dataDir, 'warehouse.duckdb')))}, ClickHouse (chdb) ${gb(du(chdbDir))}`);
}

// ---------------------------------------------------------------- 3. the report queries: DuckDB vs ClickHouse
function queries(days) {
  const f = { start_date: addDays(lastDay, -(days - 1)), end_date: lastDay };
  const by = (key, dir = 'asc') => ({ key, dir });
  return [
    ['totals (Totales, cards)', (w) => w.totals(f)],
    ['daily sums (overview, table)', (w) => w.groups({ filters: f, by: ['date'], order: [by('date')] })],
    ['zone page: day, revenue (25)', (w) => w.rows({ filters: f, order: [by('date', 'desc'), by('revenue', 'desc')], limit: 25, offset: 0 })],
    ['zone page: revenue desc (25)', (w) => w.rows({ filters: f, order: [by('revenue', 'desc')], limit: 25, offset: 0 })],
    ['zone page: CTR asc, page 40', (w) => w.rows({ filters: f, order: [by('ctr')], limit: 25, offset: 975 })],
    ['zone page: day, page 200', (w) => w.rows({ filters: f, order: [by('date', 'desc'), by('revenue', 'desc')], limit: 25, offset: 4975 })],
    [
      'zone page: advertiser + geo',
      (w) =>
        w.rows({ filters: { ...f, advertiser: 'BidSphere', geo: 'ES' }, order: [by('date', 'desc'), by('revenue', 'desc')], limit: 25, offset: 0 }),
    ],
    [
      'zone page: zone id substring',
      (w) => w.rows({ filters: { ...f, zone_id: '3812' }, order: [by('date', 'desc'), by('revenue', 'desc')], limit: 25, offset: 0 }),
    ],
    ['top zones and advertisers (10)', (w) => w.topEarners(f, 10)],
    ['totals + geo/source options', (w) => w.totalsAndOptions(f)],
    ['zone search: totals + options', (w) => w.totalsAndOptions({ ...f, zone_id: '3812' })],
    [
      'date × publisher page (10)',
      (w) => w.groups({ filters: f, by: ['date', 'publisher'], order: [by('date', 'desc'), by('revenue', 'desc')], limit: 10, offset: 0 }),
    ],
    ['month × publisher revenue', (w) => w.groups({ filters: f, by: ['month', 'publisher'], order: [by('month'), by('publisher')] })],
    ['month margin, one domain', (w) => w.groups({ filters: { ...f, domain: 'site7.com' }, by: ['month'], order: [by('month')] })],
    [
      'publisher data page (500)',
      (w) =>
        w.groups({
          filters: { ...f, publisher: BENCH_PUBLISHER },
          by: ['date', 'zone_id', 'geo'],
          order: [by('date', 'desc')],
          limit: 500,
          offset: 0,
        }),
    ],
  ];
}
{
  const duck = await openDuckDbWarehouse(dataDir);
  const ch = await openClickHouseWarehouse({ url: `chdb://${chdbDir}` }, { database: 'adops' });
  log('');
  log('Warehouse queries, median of 3 after a warm-up (ms): DuckDB | ClickHouse (chdb) | ClickHouse ÷ DuckDB');
  log(`${''.padEnd(30)}${RANGES.map((d) => `${`${d} days`.padStart(24)}`).join('')}`);
  const ratios = [];
  for (const [name] of queries(7)) {
    let line = name.padEnd(30);
    for (const d of RANGES) {
      const fn = queries(d).find(([n]) => n === name)[1];
      const a = await medianOfThree(() => fn(duck.zoneReports));
      const b = await medianOfThree(() => fn(ch.zoneReports));
      ratios.push(b / a);
      line += `${fmtMs(a).padStart(8)} ${fmtMs(b).padStart(7)} ${`${(b / a).toFixed(2)}×`.padStart(7)}`;
    }
    log(line);
  }
  const geo = Math.exp(ratios.reduce((s, r) => s + Math.log(r), 0) / ratios.length);
  log(`geometric mean ClickHouse ÷ DuckDB: ${geo.toFixed(2)}× (below 1: ClickHouse faster)`);
  await duck.close();
  await ch.close();
}

// ---------------------------------------------------------------- 4. two instances on Redis: beacon → SSE across them
const chHttp = await startChild(
  process.execPath,
  [path.join(root, 'server/test/chdb-http-server.mjs'), path.join(work, 'chdb-http'), '0'],
  /chdb-http listening on (\d+)/,
);
const chUrl = `http://127.0.0.1:${chHttp.match[1]}`;
const clusterDb = createDb('cluster');
async function instance() {
  const dir = mkdtempSync(path.join(work, 'instance-'));
  const { child, match } = await startChild(process.execPath, [dist('main.js')], /listening on http:\/\/localhost:(\d+)/, {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      ADOPS_DATA_DIR: dir,
      ADOPS_DEMO: '0',
      ADOPS_LOG: 'silent',
      ADOPS_ADMIN_EMAIL: ADMIN.email,
      ADOPS_ADMIN_PASSWORD: ADMIN.password,
      ADOPS_INGEST_KEY: INGEST_KEY,
      ADOPS_TRUST_PROXY: '1',
      // One token opens every stream measured here: past the per-user quota (20 by default).
      ADOPS_MAX_STREAMS: '100000',
      ADOPS_STORE: 'postgres',
      ADOPS_DATABASE_URL: clusterDb,
      ADOPS_LIVE: 'redis',
      ADOPS_REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      ADOPS_WAREHOUSE: 'clickhouse',
      ADOPS_CLICKHOUSE_URL: chUrl,
    },
  });
  return { child, url: `http://127.0.0.1:${match[1]}` };
}
const a = await instance();
const b = await instance();
const token = (
  await (await fetch(`${b.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) })).json()
).access_token;
const cpuSeconds = processCpuSeconds;

const sentAt = new Map();
const latencies = [];
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
const streams = [];
for (let s = 0; s < STREAMS; s++) {
  streams.push(
    await new Promise((resolve, reject) => {
      const q = new URLSearchParams({ access_token: token, zoneId: 'scale-live' });
      const req = http.get(`${b.url}/api/referrers_logs/stream?${q}`, { agent }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream ${res.statusCode}`));
        res.setEncoding('utf8');
        let buf = '';
        res.on('data', (chunk) => {
          const now = performance.now();
          buf += chunk;
          let sep = buf.indexOf('\n\n');
          while (sep !== -1) {
            const m = /bench\.example\/(\d+)/.exec(buf.slice(0, sep));
            if (m && sentAt.has(Number(m[1]))) latencies.push(now - sentAt.get(Number(m[1])));
            buf = buf.slice(sep + 2);
            sep = buf.indexOf('\n\n');
          }
        });
        resolve(req);
      });
      req.on('error', () => {});
    }),
  );
}
await sleep(300);
const hitAgent = new http.Agent({ keepAlive: true, maxSockets: HIT_RATE > 0 ? 1024 : 16 });
const hit = (n, due = performance.now()) =>
  new Promise((resolve) => {
    sentAt.set(n, due);
    const ref = encodeURIComponent(`https://bench.example/${n}`);
    const req = http.get(
      `${a.url}/api/hit?zone_id=scale-live&ref=${ref}`,
      {
        agent: hitAgent,
        headers: {
          'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
          'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36',
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      },
    );
    req.on('error', () => resolve(0));
  });
const cpuA0 = cpuSeconds(a.child.pid);
const cpuB0 = cpuSeconds(b.child.pid);
const t0 = performance.now();
let next = 0;
let ok = 0;
const statuses = new Map();
const count = (status) => {
  statuses.set(status, (statuses.get(status) ?? 0) + 1);
  if (status === 204) ok++;
};
if (HIT_RATE > 0) {
  // Open loop, as browsers send: each hit when it is due whatever the latency, its delivery
  // latency taken from then.
  const inflight = [];
  const total = Math.round(HIT_RATE * SECONDS);
  const dueAt = (n) => t0 + (n * 1000) / HIT_RATE;
  while (next < total) {
    const now = performance.now();
    for (; next < total && dueAt(next) <= now; next++) inflight.push(hit(next, dueAt(next)).then(count));
    await sleep(1);
  }
  await Promise.all(inflight);
} else {
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (performance.now() - t0 < SECONDS * 1000) count(await hit(next++));
    }),
  );
}
const elapsed = (performance.now() - t0) / 1000;
const cpuA = cpuSeconds(a.child.pid) - cpuA0;
await sleep(1500);
const cpuB = cpuSeconds(b.child.pid) - cpuB0;
for (const r of streams) r.destroy();
latencies.sort((x, y) => x - y);
log('');
log(
  `Two API processes on Redis + PostgreSQL + ClickHouse (chdb over HTTP), ${STREAMS} streams on B, beacon hits into A for ${SECONDS} s (${HIT_RATE > 0 ? `${fmtInt(HIT_RATE)}/s offered, open loop` : '16 at a time'}):`,
);
log(
  `  beacon: ${fmtInt(ok / elapsed)} hits/s accepted (${[...statuses].map(([s, n]) => `${s}: ${fmtInt(n)}`).join(', ')}); A used ${cpuA.toFixed(1)} CPU-s → ${fmtInt(ok / Math.max(cpuA, 0.01))} hits per server CPU-second`,
);
log(
  `  ingest on A → SSE on B: ${fmtInt(latencies.length)} deliveries of ${fmtInt(ok * STREAMS)} expected; p50 ${fmtMs(pct(latencies, 50) ?? NaN)} ms, p99 ${fmtMs(pct(latencies, 99) ?? NaN)} ms, max ${fmtMs(latencies[latencies.length - 1] ?? NaN)} ms (B used ${cpuB.toFixed(1)} CPU-s)`,
);
log("  (the load generator, both instances, Redis, PostgreSQL and ClickHouse share this machine's CPUs)");

await Promise.all([stop(a.child), stop(b.child)]);
await Promise.all([stop(chHttp.child), stop(redis.child)]);
pg.stop();
agent.destroy();
hitAgent.destroy();
process.exit(0);
