// Each zone's owner (the publisher and advertiser the beacon stamps its hits with) is read within
// a small engine memory limit. It was one pass taking the arg max of (day, impressions, advertiser,
// publisher) over every stored row: at scale it needed more than the engine's memory (DuckDB's
// default 128 MB with 10 M rows, ClickHouse's 256 MB with 100 M), so the zones were never known,
// the reload failing again and again, and every hit went without an owner. Here, millions of rows at
// a limit the old read could not run within (on ClickHouse, not within twice it either); the
// owners are checked against the rule applied otherwise: on DuckDB by a sort of every row, on
// ClickHouse in JavaScript from the rows' own formulas.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { openClickHouseWarehouse } from '../src/warehouse/clickhouse/index.js';
import { openDuckDbWarehouse } from '../src/warehouse/duckdb/index.js';
import type { ZoneOwner } from '../src/warehouse/index.js';
import { chdbClient } from './helpers.js';

const DAYS = 40;
const FIRST_DAY = Date.UTC(2026, 0, 1);
const day = (n: number) => new Date(FIRST_DAY + n * 86_400_000).toISOString().slice(0, 10);

// ClickHouse's row i of `perDay` a day, in integer arithmetic JavaScript computes alike: each day
// every zone twice, in zone order; geo (part of the key) makes every key unique.
const zoneOf = (i: number, perDay: number) => (i % perDay) % (perDay / 2);
const impressionsOf = (i: number) => (i * 104_729) % 30_000;
const advertiserOf = (i: number) => `Advertiser ${i % 3}`;
const publisherOf = (i: number) => `Publisher ${String(Math.floor(i / 3) % 40).padStart(2, '0')}`;

/** Byte order (the names are ASCII). */
const bytes = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Each zone's owner among `rows` rows (`rows / DAYS` a day) by the rule: its latest day's busiest
 * row, ties to the last advertiser, then publisher. From day `since` on: the zones with a row then.
 */
function expectedOwners(rows: number, since = 0): Record<string, ZoneOwner> {
  const perDay = rows / DAYS;
  const best = new Map<number, { day: number; impressions: number; advertiser: string; publisher: string }>();
  for (let i = 0; i < rows; i++) {
    const row = { day: Math.floor(i / perDay), impressions: impressionsOf(i), advertiser: advertiserOf(i), publisher: publisherOf(i) };
    if (row.day < since) continue;
    const zone = zoneOf(i, perDay);
    const b = best.get(zone);
    if (!b || (row.day - b.day || row.impressions - b.impressions || bytes(row.advertiser, b.advertiser) || bytes(row.publisher, b.publisher)) > 0)
      best.set(zone, row);
  }
  return Object.fromEntries([...best].map(([z, r]) => [String(380_000 + z), { publisher: r.publisher, advertiser: r.advertiser }]));
}

const SINCE = 30;
const { client } = await chdbClient('owners-memory');

describe('each zone’s owner, millions of rows at a small memory limit', () => {
  test('DuckDB: 2 million rows at 32 MB', async () => {
    // As bench:reports generates a network's daily reports: each day every zone twice, under two of
    // three advertisers, impressions from a hash of the row. The expected owners: every row sorted
    // by the rule, before the limit is set.
    const PER_DAY = 50_000;
    const dir = mkdtempSync(path.join(tmpdir(), 'adops-owners-'));
    try {
      const loading = await openDuckDbWarehouse(dir);
      let whole: Record<string, ZoneOwner>;
      let fromDay: Record<string, ZoneOwner>;
      try {
        await loading.db.exec(
          `INSERT INTO zone_report (date, advertiser, publisher, zone_id, geo, source, domain, impressions, monetized_impressions, clicks, revenue, rate_applied, p_revenue, margin, tq)
           SELECT DATE '${day(0)}' + d::INTEGER, (['AdNova', 'BidSphere', 'Clickora'])[((r // ${PER_DAY / 2} + d) % 3)::INTEGER + 1],
                  'Publisher ' || lpad(((z * 7919) % 40)::VARCHAR, 2, '0'), (380000 + z)::VARCHAR,
                  (['ES', 'MX', 'AR', 'CO', 'US'])[(z % 5)::INTEGER + 1], 'search', 'a.com', (50 + h % 30000)::BIGINT, NULL, 1, 1, NULL, 0.5, 0.5, NULL
             FROM range(${DAYS}) t(d), range(${PER_DAY}) u(r), LATERAL (SELECT r % ${PER_DAY / 2} AS z, hash(d * 1000000 + r) AS h)
            ORDER BY 1`,
        );
        const ranked = async (since: number) =>
          Object.fromEntries(
            (
              await loading.db.all<{ zone_id: string; publisher: string; advertiser: string }>(
                `SELECT zone_id, publisher, advertiser FROM zone_report WHERE date >= DATE '${day(since)}'
                  QUALIFY row_number() OVER (PARTITION BY zone_id ORDER BY date DESC, impressions DESC, advertiser DESC, publisher DESC) = 1`,
              )
            ).map((r) => [r.zone_id, { publisher: r.publisher, advertiser: r.advertiser }]),
          );
        whole = await ranked(0);
        fromDay = await ranked(SINCE);
      } finally {
        await loading.close();
      }
      expect(Object.keys(whole)).toHaveLength(PER_DAY / 2);
      const w = await openDuckDbWarehouse(dir, { memoryLimit: '32MB' });
      try {
        expect(Object.fromEntries(await w.zoneReports.zoneOwners())).toEqual(whole);
        expect(Object.fromEntries(await w.zoneReports.zoneOwners(day(SINCE)))).toEqual(fromDay);
      } finally {
        await w.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('ClickHouse: a million rows at 16 MB, in several parts, some replaced', async () => {
    const ROWS = 1_000_000;
    const PER_DAY = ROWS / DAYS;
    const loading = await openClickHouseWarehouse(client, { database: 'owners' });
    const t = loading.db.t('zone_report');
    const columns = `date, advertiser, publisher, zone_id, geo, source, domain, impressions, monetized_impressions, clicks, revenue, rate_applied, p_revenue, margin, tq, version`;
    const rows = (impressions: string, version: number, where = '') =>
      `INSERT INTO ${t} (${columns})
       SELECT toDate32('${day(0)}') + intDiv(number, ${PER_DAY}), concat('Advertiser ', toString(number % 3)),
              concat('Publisher ', leftPad(toString(intDiv(number, 3) % 40), 2, '0')), toString(380000 + (number % ${PER_DAY}) % ${PER_DAY / 2}),
              toString(number), 'search', 'a.com', ${impressions}, NULL, 1, 1, NULL, 0.5, 0.5, NULL, ${version}
       FROM numbers(${ROWS}) ${where}`;
    try {
      // A first version of half the rows with other impressions, then every row in four parts: the owner is the current row's.
      await loading.db.command(rows('29999 - (number * 104729) % 30000', 1, `WHERE number % 2 = 0`));
      for (let part = 0; part < 4; part++) await loading.db.command(rows('(number * 104729) % 30000', 2, `WHERE number % 4 = ${part}`));
    } finally {
      await loading.close();
    }
    const w = await openClickHouseWarehouse(client, { database: 'owners', memoryBytes: 16 * 1024 * 1024 });
    try {
      expect(Object.fromEntries(await w.zoneReports.zoneOwners())).toEqual(expectedOwners(ROWS));
      expect(Object.fromEntries(await w.zoneReports.zoneOwners(day(SINCE)))).toEqual(expectedOwners(ROWS, SINCE));
    } finally {
      await w.close();
    }
  }, 60_000);
});
