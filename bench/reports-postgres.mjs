// The report bench's side-by-side (bench/reports.mjs, section 6): the same aggregations as the
// warehouse queries the server runs, timed in DuckDB (the server's query code, no HTTP) and in
// PostgreSQL SQL on a throwaway cluster loaded with the same rows. BENCH_PG=0 skips PostgreSQL;
// BENCH_PG_BIN names its binaries.
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { startPgCluster } from './pg-cluster.mjs';
import { fmtInt, fmtMs, lpad, median, pad, seconds } from './format.mjs';
import { medianOfThree } from './timing.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { openDuckDbWarehouse } = await import(path.join(root, 'server/dist/warehouse/duckdb/index.js'));

/** Each warehouse query, in DuckDB (the server's own query code) and in PostgreSQL SQL. */
export function comparisons(days, rangeOf, publisher) {
  const { start_date: start, end_date: end } = rangeOf(days);
  const f = { start_date: start, end_date: end };
  const sums = `count(*) AS rows, coalesce(sum(impressions),0) AS impressions, coalesce(sum(monetized_impressions),0) AS monetized_impressions,
    coalesce(sum(CASE WHEN monetized_impressions > 0 THEN monetized_impressions ELSE impressions END),0) AS ctr_base,
    coalesce(sum(clicks),0) AS clicks, coalesce(sum(revenue),0) AS revenue, coalesce(sum(p_revenue),0) AS p_revenue, coalesce(sum(margin),0) AS margin,
    coalesce(sum(tq * impressions) FILTER (WHERE tq > 0 AND impressions > 0),0) AS tq_weighted,
    coalesce(sum(impressions) FILTER (WHERE tq > 0 AND impressions > 0),0) AS tq_weight`;
  const range = `date BETWEEN '${start}' AND '${end}'`;
  const zoneCols =
    'date, advertiser, publisher, zone_id, geo, source, domain, impressions, monetized_impressions, clicks, revenue, rate_applied, p_revenue, margin, tq';
  const by = (key, dir = 'asc') => ({ key, dir });
  return [
    { name: 'totals (Totales, cards)', duck: (w) => w.totals(f), pg: `SELECT ${sums} FROM zone_report WHERE ${range}` },
    {
      name: 'daily sums (overview, table)',
      duck: (w) => w.groups({ filters: f, by: ['date'], order: [by('date')] }),
      pg: `SELECT date, ${sums} FROM zone_report WHERE ${range} GROUP BY date ORDER BY date`,
    },
    {
      name: 'zone page: day, revenue (25)',
      duck: (w) => w.rows({ filters: f, order: [by('date', 'desc'), by('revenue', 'desc')], limit: 25, offset: 0 }),
      pg: `SELECT ${zoneCols} FROM zone_report WHERE ${range} ORDER BY date DESC, revenue DESC, date, advertiser, publisher, zone_id, geo, source LIMIT 25`,
    },
    {
      name: 'zone page: revenue desc (25)',
      duck: (w) => w.rows({ filters: f, order: [by('revenue', 'desc')], limit: 25, offset: 0 }),
      pg: `SELECT ${zoneCols} FROM zone_report WHERE ${range} ORDER BY revenue DESC, date, advertiser, publisher, zone_id, geo, source LIMIT 25`,
    },
    {
      name: 'zone page: CTR asc, page 40',
      duck: (w) => w.rows({ filters: f, order: [by('ctr')], limit: 25, offset: 975 }),
      pg: `SELECT ${zoneCols} FROM zone_report WHERE ${range}
            ORDER BY clicks::float8 / NULLIF(CASE WHEN monetized_impressions > 0 THEN monetized_impressions ELSE impressions END, 0) * 100 ASC NULLS LAST,
                     date, advertiser, publisher, zone_id, geo, source LIMIT 25 OFFSET 975`,
    },
    {
      name: 'geo/source options',
      duck: (w) => w.totalsAndOptions(f),
      pg: `SELECT array_agg(DISTINCT geo) FILTER (WHERE geo <> ''), array_agg(DISTINCT source) FILTER (WHERE source <> '') FROM zone_report WHERE ${range}`,
    },
    {
      name: 'date × publisher page (10)',
      duck: (w) => w.groups({ filters: f, by: ['date', 'publisher'], order: [by('date', 'desc'), by('revenue', 'desc')], limit: 10, offset: 0 }),
      pg: `SELECT *, count(*) OVER () FROM (SELECT date, publisher AS name, ${sums} FROM zone_report WHERE ${range} GROUP BY date, publisher) g ORDER BY date DESC, revenue DESC, name LIMIT 10`,
    },
    {
      name: 'month × publisher revenue',
      duck: (w) => w.groups({ filters: f, by: ['month', 'publisher'], order: [by('month'), by('publisher')] }),
      pg: `SELECT to_char(date, 'YYYY-MM') AS month, publisher AS name, sum(revenue) FROM zone_report WHERE ${range} GROUP BY 1, 2 ORDER BY 1, 2`,
    },
    {
      name: 'month margin, one domain',
      duck: (w) => w.groups({ filters: { ...f, domain: 'site7.com' }, by: ['month'], order: [by('month')] }),
      pg: `SELECT to_char(date, 'YYYY-MM') AS month, sum(margin) FROM zone_report WHERE ${range} AND domain = 'site7.com' GROUP BY 1 ORDER BY 1`,
    },
    {
      name: 'publisher data page (500)',
      duck: (w) =>
        w.groups({
          filters: { ...f, publisher: publisher },
          by: ['date', 'zone_id', 'geo'],
          order: [by('date', 'desc')],
          limit: 500,
          offset: 0,
        }),
      pg: `SELECT date, zone_id, geo, sum(impressions), sum(CASE WHEN monetized_impressions > 0 THEN monetized_impressions ELSE impressions END), sum(clicks), sum(p_revenue), count(*) OVER ()
             FROM zone_report WHERE ${range} AND publisher = '${publisher}' GROUP BY date, zone_id, geo ORDER BY date DESC, zone_id, geo LIMIT 500`,
    },
    {
      name: 'all filter values (raw-options)',
      duck: (w) => w.dimensionValues(),
      pg: `SELECT array_agg(DISTINCT advertiser), array_agg(DISTINCT publisher), array_agg(DISTINCT geo), array_agg(DISTINCT source), array_agg(DISTINCT domain) FROM zone_report`,
      once: true,
    },
  ];
}

/** Each comparison's DuckDB time (the server's own query code, median of 3 warm runs) by `${name}|${days}`. */
export async function duckTimes(dataDir, ranges, comparisonsOf) {
  const times = new Map();
  const warehouse = await openDuckDbWarehouse(dataDir);
  const w = warehouse.zoneReports;
  for (const d of ranges) {
    for (const c of comparisonsOf(d)) {
      if (c.once && d !== 365) continue;
      times.set(`${c.name}|${d}`, await medianOfThree(() => c.duck(w)));
    }
  }
  await warehouse.close();
  return times;
}

/**
 * The same rows loaded into a PostgreSQL 15 cluster of its own (in `work`), each comparison's SQL
 * timed by psql beside DuckDB's time (`duck`), printed as a table of ratios.
 */
export async function comparePostgres({ work, dataDir, firstDay, lastDay, rows, ranges, comparisonsOf, duck, withPg, pgBin, cleanups, log }) {
  if (!withPg) log('\nPostgreSQL comparison skipped (BENCH_PG=0).');
  else if (!existsSync(path.join(pgBin, 'initdb'))) log(`\nPostgreSQL comparison skipped: no initdb in ${pgBin} (set BENCH_PG_BIN).`);
  else {
    const pgSettings = [
      'shared_buffers=512MB',
      'work_mem=64MB',
      'max_parallel_workers_per_gather=2',
      'fsync=off',
      'synchronous_commit=off',
      'full_page_writes=off',
      'max_wal_size=4GB',
    ];
    const { port, psql, stop: stopPg } = await startPgCluster({ work, pgBin, settings: pgSettings });
    cleanups.push(async () => stopPg());
    log('');
    log(`PostgreSQL 15 on 127.0.0.1:${port} (temp cluster; shared_buffers 512MB, work_mem 64MB, 2 parallel workers, fsync off):`);
    try {
      // Same rows: DuckDB writes a CSV, psql's \copy loads it, then the natural-key index.
      const csvFile = path.join(work, 'zone_report.csv');
      let t = performance.now();
      {
        const instance = await DuckDBInstance.create(path.join(dataDir, 'warehouse.duckdb'), { threads: '2', memory_limit: '1GB' });
        const conn = await instance.connect();
        await conn.run(`COPY (SELECT * FROM zone_report WHERE date BETWEEN '${firstDay}' AND '${lastDay}') TO '${csvFile}' (HEADER false)`);
        conn.closeSync();
        instance.closeSync();
      }
      const exportMs = performance.now() - t;
      t = performance.now();
      psql(`CREATE TABLE zone_report (date date NOT NULL, advertiser text NOT NULL, publisher text NOT NULL, zone_id text NOT NULL, geo text NOT NULL,
              source text NOT NULL, domain text NOT NULL, impressions bigint NOT NULL, monetized_impressions bigint, clicks bigint NOT NULL,
              revenue double precision NOT NULL, rate_applied double precision, p_revenue double precision NOT NULL, margin double precision NOT NULL, tq double precision);
            \\copy zone_report FROM '${csvFile}' WITH (FORMAT csv)`);
      const copyMs = performance.now() - t;
      t = performance.now();
      psql(
        'CREATE UNIQUE INDEX zone_report_natural_key ON zone_report (date, advertiser, publisher, zone_id, geo, source); VACUUM ANALYZE zone_report;',
      );
      const indexMs = performance.now() - t;
      rmSync(csvFile, { force: true });
      log(
        `  loaded the same ${fmtInt(rows)} rows: CSV export ${seconds(exportMs)}, COPY ${seconds(copyMs)}, natural-key index + VACUUM ANALYZE ${seconds(indexMs)}`,
      );

      const pgTime = (sql) => {
        const out = psql(`\\timing on\n${sql};\n${sql};\n${sql};\n${sql};\n`);
        const times = [...out.matchAll(/Time: ([\d.]+) ms/g)].map((m) => Number(m[1]));
        return median(times.slice(1)); // the first run warms the cache
      };
      log('');
      log('Same aggregations, warehouse query only (no HTTP): median of 3 warm runs, ms — DuckDB (server code) vs PostgreSQL (psql \\timing)');
      log(`${pad('query', 34)}${ranges.map((d) => lpad(`${d}d DuckDB / PG = ratio`, 32)).join('')}`);
      const names = comparisonsOf(7).map((c) => c.name);
      for (const name of names) {
        const cells = ranges.map((d) => {
          const c = comparisonsOf(d).find((x) => x.name === name);
          if (c.once && d !== 365) return lpad('', 32);
          const sql = c.pg;
          const duckMs = duck.get(`${name}|${d}`);
          const pg = pgTime(sql);
          return lpad(`${fmtMs(duckMs)} / ${fmtMs(pg)} = ${(duckMs / pg).toFixed(2)}`, 32);
        });
        log(`${pad(name + (comparisonsOf(7).find((c) => c.name === name).once ? ' *' : ''), 34)}${cells.join('')}`);
      }
      log('  ratio < 1: DuckDB faster. * whole table, timed once (365 column). DuckDB times include converting rows to JS; psql times include');
      log(
        '  sending rows to psql. DuckDB reads its day rollup for aggregates without a zone; PostgreSQL scans the rows (plus its natural-key index).',
      );
    } finally {
      stopPg();
    }
  }
}
