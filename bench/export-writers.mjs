// The zone CSV's two writers in one process over the same rows (issue 29): the row path (the
// engine's rows, zoneRow, csvRow a line at a time — NDJSON's and ClickHouse's) and the column
// writer (DuckDB chunks as columns, zoneCsvWriter), alternately, CPU time of each (median of the
// rounds) and the files' SHA-1. No socket: the writers' own cost, steadier than the HTTP bench on
// a shared box. Run after a build, on a copy of bench data:
//   node bench/export-writers.mjs <data dir> [days=40] [rounds=5] [order=date|revenue]
import { createHash } from 'node:crypto';
import { csvHeader, csvRow, TABLE_CSV, zoneCsvWriter } from '@adops/core';
import { zoneRow } from '../server/dist/services/reports.js';
import { openDuckDbWarehouse } from '../server/dist/warehouse/duckdb/index.js';

const [dir, days = '40', rounds = '5', orderKey = 'date'] = process.argv.slice(2);
if (!dir) throw new Error('usage: node bench/export-writers.mjs <data dir> [days] [rounds] [date|revenue]');
const w = await openDuckDbWarehouse(dir);
const { end } = await w.db.one("SELECT strftime(max(date), '%Y-%m-%d') AS end FROM zone_report");
const start = new Date(Date.parse(`${end}T00:00:00Z`) - (Number(days) - 1) * 86_400_000).toISOString().slice(0, 10);
const query = { filters: { start_date: start, end_date: end }, order: [{ key: orderKey, dir: 'desc' }] };
const { fields, columns } = TABLE_CSV.zones;

async function rowPath() {
  const hash = createHash('sha1').update(csvHeader(fields));
  let rows = 0;
  for await (const chunk of w.zoneReports.streamRows(query)) {
    let text = '';
    for (const r of chunk) text += csvRow(fields, zoneRow(r));
    hash.update(text);
    rows += chunk.length;
  }
  return { rows, sha1: hash.digest('hex') };
}

async function columnPath() {
  const write = zoneCsvWriter(columns, 'standard');
  const hash = createHash('sha1').update(csvHeader(fields));
  let rows = 0;
  for await (const chunk of w.zoneReports.streamColumns(query)) {
    hash.update(write(chunk));
    rows += chunk.rows;
  }
  return { rows, sha1: hash.digest('hex') };
}

const cpu = { rows: [], columns: [] };
const last = {};
for (let round = 0; round < Number(rounds); round++)
  for (const [name, run] of round % 2
    ? [
        ['columns', columnPath],
        ['rows', rowPath],
      ]
    : [
        ['rows', rowPath],
        ['columns', columnPath],
      ]) {
    const t = process.cpuUsage();
    const r = await run();
    const used = process.cpuUsage(t);
    cpu[name].push((used.user + used.system) / 1e6);
    last[name] = r;
  }
await w.close();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const name of ['rows', 'columns'])
  console.log(
    `${name.padEnd(8)} ${last[name].rows} rows, CPU median ${median(cpu[name]).toFixed(2)} s (${cpu[name].map((s) => s.toFixed(2)).join(' ')}), ` +
      `${Math.round(last[name].rows / median(cpu[name]))} rows per CPU-second, sha1 ${last[name].sha1}`,
  );
console.log(
  `same file: ${last.rows.sha1 === last.columns.sha1}; load average ${(await import('node:os'))
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
