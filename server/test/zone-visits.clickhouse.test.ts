// The profit rule's zone visits on ClickHouse come from zone_visits_15m (human visits per zone and
// quarter hour, filled by a materialized view), and Rentabilidad's attributed visits from
// attributed_visits_1h (the same per hour and its quarters, campaign, ad set, ad and keyword), each from the instant it
// holds every event on, and from the raw events before it. A warehouse upgraded with events
// already stored backfills nothing: its visits before the view's start still count once, from the
// raw events, and those after once, from the quarter hours — a late arrival stamped before that
// start included. A read of whole days takes the quarter hours, not the raw events. Retention
// drops the quarter hours' months it has wholly rolled up, as it drops the raw events'. And on
// random traffic, zone values and the profit query answer what DuckDB (which counts raw events)
// answers, in zones whose days start off the hour, before and after a retention cutoff inside a
// quarter hour. Real engine (chdb).
import { expect, test } from 'vitest';
import { todayIn } from '@adops/core';
import { openClickHouseWarehouse } from '../src/warehouse/clickhouse/index.js';
import { ClickHouseDb } from '../src/warehouse/clickhouse/db.js';
import { MIGRATIONS, migrate } from '../src/warehouse/clickhouse/migrations.js';
import { openDuckDbWarehouse } from '../src/warehouse/duckdb/index.js';
import type { ProfitParts, ZoneDayValue } from '../src/warehouse/index.js';
import { chdbClient, zoneReportRow } from './helpers.js';
import { event, expectSame, importRows } from './warehouse-contract.js';

const { client } = await chdbClient('zone-visits');
let databases = 0;

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');

/** A whole-hour zone (Etc/GMT's signs are inverted) in which `ms` is around midday. */
function middayZone(ms: number): string {
  const offset = 12 - new Date(ms).getUTCHours();
  return offset >= 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
}

/** The instant a visit table's view started holding every event (its `since` table's latest). */
async function sinceOf(w: { db: ClickHouseDb }, table: string): Promise<number> {
  return Date.parse(`${String((await w.db.one<{ s: string }>(`SELECT toString(max(since)) AS s FROM ${w.db.t(table)}`))?.s)}Z`);
}

/** A zone where `ms` falls around midday, and the day it falls on there. */
function middayDay(ms: number): { tz: string; day: string } {
  const tz = middayZone(ms);
  return { tz, day: todayIn(tz, new Date(ms)) };
}

test('a warehouse upgraded with events stored: visits before the quarter hours start count from the raw events, after it from the quarter hours, each once', async () => {
  const db = new ClickHouseDb(client, `upgraded${++databases}`, true, false);
  await migrate(
    db,
    MIGRATIONS.filter((m) => m.version < 7),
  );
  const stored = Date.now() - HOUR;
  const ad = { campaign_id: 'C1', adset_id: 'S1', ad_id: 'A1', keyword: 'seguros' };
  await db.insert('referrer_event', [
    { id: 1, seen_at: iso(stored), zone_id: 'Z1', ...ad },
    { id: 2, seen_at: iso(stored + 1000), zone_id: 'Z1' },
    { id: 3, seen_at: iso(stored + 2000), zone_id: 'Z1', is_bot: true, ...ad },
  ]);

  const w = await openClickHouseWarehouse(client, { database: db.database });
  try {
    const since = await sinceOf(w, 'zone_visits_since');
    // On a quarter hour, at least 10 minutes past the latest event stored and past now.
    expect(since % (15 * 60_000)).toBe(0);
    expect(since - Date.now()).toBeGreaterThanOrEqual(9 * 60_000);
    expect(since - Date.now()).toBeLessThanOrEqual(25 * 60_000);
    // The attributed visits' start: on an hour, at least 10 minutes past the latest event stored and past now.
    const attributedSince = await sinceOf(w, 'attributed_visits_1h_since');
    expect(attributedSince % HOUR).toBe(0);
    expect(attributedSince - Date.now()).toBeGreaterThanOrEqual(9 * 60_000);
    expect(attributedSince - Date.now()).toBeLessThanOrEqual(70 * 60_000);

    // After the upgrade: a late arrival stamped before the start, and visits after it (ingest
    // would refuse these as future, the warehouse takes them as they come).
    await w.referrers.append([
      event(4, since - 60_000, { zone_id: 'Z1', ...ad }),
      event(5, attributedSince, { zone_id: 'Z1', ...ad }),
      event(6, attributedSince + HOUR, { zone_id: 'Z1' }),
      event(7, attributedSince + HOUR, { zone_id: 'Z1', is_bot: true, ...ad }),
      event(8, attributedSince + HOUR, { zone_id: 'Z1', ...ad, keyword: null }),
    ]);
    const { tz, day } = middayDay(since);
    await importRows(w, [zoneReportRow(day, 'Z1', { revenue: 60 })]);

    // 6 human visits: 2 stored before, the late one, 3 after the start.
    const values = await w.profit.zoneValues({ day, tz });
    expect(values.find((v) => v.zone_id === 'Z1')).toMatchObject({ rpv: 10, estimated: false });
    // 4 of them from the ad: 1 stored before, the late one, 2 after the start (one without a keyword, kept apart).
    const byKeyword = await w.profit.parts({ by: 'keyword', from: day, to: day, tz });
    const visits = Object.fromEntries(byKeyword.visits.map((v) => [String(v.key), v.visits]));
    expect(visits).toEqual({ seguros: 3, null: 1 });
    expect((await w.profit.parts({ by: 'ad', from: day, to: day, tz })).visits).toMatchObject([{ key: 'A1', visits: 4, revenue: 40 }]);
  } finally {
    await w.close();
  }
});

test('a warehouse upgraded to hours with visits in the quarter hours: those before the hours start count from the quarter hours, those after from the hours, each once', async () => {
  const db = new ClickHouseDb(client, `hours${++databases}`, true, false);
  await migrate(
    db,
    MIGRATIONS.filter((m) => m.version < 10),
  );
  const stored = Date.now() - HOUR;
  await db.insert('referrer_event', [
    { id: 1, seen_at: iso(stored), zone_id: 'Z1' },
    { id: 2, seen_at: iso(stored + 1000), zone_id: 'Z1' },
  ]);
  const w = await openClickHouseWarehouse(client, { database: db.database });
  try {
    const since = await sinceOf(w, 'zone_visits_1h_since');
    expect(since % HOUR).toBe(0);
    expect(since - Date.now()).toBeGreaterThanOrEqual(9 * 60_000);
    expect(since - Date.now()).toBeLessThanOrEqual(70 * 60_000);
    await w.referrers.append([
      event(3, since - 60_000, { zone_id: 'Z1' }),
      event(4, since, { zone_id: 'Z1' }),
      event(5, since + HOUR, { zone_id: 'Z1' }),
    ]);
    const { tz, day } = middayDay(since);
    await importRows(w, [zoneReportRow(day, 'Z1', { revenue: 50 })]);
    // 5 visits, and again with the raw events gone: the quarter hours hold the 3 before the hours start, the hours the rest.
    for (const raw of ['kept', 'gone']) {
      if (raw === 'gone') await w.db.command(`TRUNCATE TABLE ${w.db.t('referrer_event')}`);
      expect(
        (await w.profit.zoneValues({ day, tz })).find((v) => v.zone_id === 'Z1'),
        raw,
      ).toMatchObject({ rpv: 10, estimated: false });
    }
  } finally {
    await w.close();
  }
});

test('retention drops the months of quarter hours it rolled up wholly, and their TTL follows the events’', async () => {
  const database = `retained${++databases}`;
  const w = await openClickHouseWarehouse(client, { database });
  try {
    const partitions = async (table: string) =>
      (
        await w.db.all<{ p: string }>(
          `SELECT DISTINCT partition AS p FROM system.parts WHERE database = {db:String} AND table = {table:String} AND active ORDER BY p`,
          { db: w.db.database, table },
        )
      ).map((r) => r.p);
    const ad = { campaign_id: 'C1', adset_id: 'S1', ad_id: 'A1' };
    await w.referrers.append([
      event(1, Date.parse('2026-01-20T10:00:00Z'), { zone_id: 'Z1', ...ad }),
      event(2, Date.parse('2026-02-20T10:00:00Z'), { zone_id: 'Z1', ...ad }),
      event(3, Date.parse('2026-03-05T10:00:00Z'), { zone_id: 'Z1', ...ad }),
    ]);
    const tables = ['zone_visits_15m', 'zone_visits_1h', 'attributed_visits_1h'];
    for (const table of tables) expect(await partitions(table)).toEqual(['202601', '202602', '202603']);
    expect(await w.referrers.rollUpBefore(Date.parse('2026-03-02T00:00:00Z'))).toEqual({ deleted: 2, rolledUp: 2 });
    for (const table of tables) expect(await partitions(table)).toEqual(['202603']);
  } finally {
    await w.close();
  }
  // (Set only now: a TTL of 120 days would have dropped these events of 2026 at once.)
  const kept = await openClickHouseWarehouse(client, { database, eventTtlDays: 120 });
  try {
    for (const [name, time] of [
      ['zone_visits_15m', 'bucket'],
      ['zone_visits_1h', 'hour'],
      ['attributed_visits_1h', 'hour'],
    ]) {
      const table = await kept.db.one<{ e: string }>(
        'SELECT engine_full AS e FROM system.tables WHERE database = {db:String} AND name = {name:String}',
        {
          db: database,
          name,
        },
      );
      expect(table?.e, name).toContain(`TTL ${time} + toIntervalDay(120)`);
    }
  } finally {
    await kept.close();
  }
});

test('Rentabilidad over whole days reads the hours of its attributed visits, not the raw events, in zones whose days start on the hour or on a quarter hour', async () => {
  const w = await openClickHouseWarehouse(client, { database: `whole${++databases}` });
  try {
    const day = '2026-06-10';
    const noon = Date.parse(`${day}T12:00:00Z`);
    const ad = { campaign_id: 'C1', adset_id: 'S1', ad_id: 'A1', keyword: 'vuelos' };
    await importRows(w, [zoneReportRow(day, 'Z1', { revenue: 30 })]);
    // Kathmandu's next day starts at 18:15 UTC: of the hour 18:00, 18:10 is still the 10th there, 18:20 the 11th.
    await w.referrers.append([
      event(1, noon, { zone_id: 'Z1', ...ad }),
      event(2, noon + 60_000, { zone_id: 'Z1', ...ad }),
      event(3, noon + HOUR, { zone_id: 'Z1' }),
      event(4, Date.parse(`${day}T18:10:00Z`), { zone_id: 'Z1', ...ad }),
      event(5, Date.parse(`${day}T18:20:00Z`), { zone_id: 'Z1', ...ad }),
    ]);
    const q = (tz: string) => ({ by: 'keyword', from: day, to: day, tz }) as const;
    const madrid = await w.profit.parts(q('Europe/Madrid'));
    const kathmandu = await w.profit.parts(q('Asia/Kathmandu'));
    // Madrid: 5 visits to the zone that day (RPV 6), 4 from the ad; Kathmandu: 4 (RPV 7.5), 3 from the ad.
    expect(madrid.visits).toMatchObject([{ key: 'vuelos', visits: 4, revenue: 24 }]);
    expect(kathmandu.visits).toMatchObject([{ key: 'vuelos', visits: 3, revenue: 22.5 }]);
    // With the raw events gone, the hours alone answer the same.
    await w.db.command(`TRUNCATE TABLE ${w.db.t('referrer_event')}`);
    expect(await w.profit.parts(q('Europe/Madrid'))).toEqual(madrid);
    expect(await w.profit.parts(q('Asia/Kathmandu'))).toEqual(kathmandu);
  } finally {
    await w.close();
  }
});

test('across a change of summer time the hours fall on the days DuckDB counts them on', async () => {
  // Madrid leaves summer time at 01:00 UTC on 25 October 2026 (an hour), Santiago de Chile enters
  // it on 6 September 2026 at 04:00 UTC: both days have 25 or 23 hours.
  const cases = [
    { tz: 'Europe/Madrid', days: ['2026-10-24', '2026-10-25', '2026-10-26'] },
    { tz: 'America/Santiago', days: ['2026-09-05', '2026-09-06', '2026-09-07'] },
  ];
  const duck = await openDuckDbWarehouse(':memory:');
  const ch = await openClickHouseWarehouse(client, { database: `summer${++databases}` });
  try {
    let id = 0;
    for (const { days } of cases) {
      const first = Date.parse(`${days[0]}T00:00:00Z`) - 12 * HOUR;
      // A visit every 7 minutes for 4 days, from two ads, in two zones; each of the days reported.
      const events = Array.from({ length: (4 * 24 * 60) / 7 }, (_, i) =>
        event(++id, first + i * 7 * 60_000, {
          zone_id: `Z${i % 2}`,
          campaign_id: 'C1',
          adset_id: 'S1',
          ad_id: `A${i % 3}`,
          keyword: i % 5 ? 'vuelos' : null,
        }),
      );
      const reports = days.flatMap((d) => ['Z0', 'Z1'].map((z) => zoneReportRow(d, z, { revenue: 40 })));
      for (const w of [duck, ch]) {
        await importRows(w, reports);
        await w.referrers.append(events);
      }
    }
    for (const { tz, days } of cases) {
      const [from, day, to] = days as [string, string, string];
      const byZone = (vs: ZoneDayValue[]) => [...vs].sort((a, b) => a.zone_id.localeCompare(b.zone_id));
      expectSame(byZone(await ch.profit.zoneValues({ day, tz })), byZone(await duck.profit.zoneValues({ day, tz })), `${tz} values`);
      for (const by of ['day', 'ad', 'keyword'] as const) {
        const q = { by, from, to, tz };
        const sorted = (p: ProfitParts) => [...p.visits].sort((a, b) => String(a.key).localeCompare(String(b.key)));
        expectSame(sorted(await ch.profit.parts(q)), sorted(await duck.profit.parts(q)), `${tz} by ${by}`);
      }
    }
  } finally {
    await duck.close();
    await ch.close();
  }
});

test('zone values and the profit query answer what DuckDB answers on random traffic, in zones of time off the hour, before and after retention', async () => {
  let seed = 11;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)] as T;
  const DAY = 86_400_000;
  const first = Date.parse('2026-05-01T00:00:00Z');
  const days = Array.from({ length: 12 }, (_, k) => new Date(first + k * DAY).toISOString().slice(0, 10));
  const zones = Array.from({ length: 12 }, (_, z) => `Z${z}`);
  // The last two days have no zone report yet: their values are the trailing days', estimated.
  const reports = days
    .slice(0, 10)
    .flatMap((d) => zones.filter(() => rand() < 0.6).map((z) => zoneReportRow(d, z, { revenue: Math.round(rand() * 9000) / 100, tq: rand() })));
  const events = (from: number, n: number, at: () => number) =>
    Array.from({ length: n }, (_, i) => {
      const attributed = rand() < 0.4;
      return event(from + i, at(), {
        zone_id: pick(zones),
        is_bot: rand() < 0.1,
        ...(attributed
          ? // An ad set of one campaign, an ad of one ad set (a group's parents are one).
            (() => {
              const campaign_id = pick(['C1', 'C2']);
              const adset_id = `${campaign_id}-${pick(['S1', 'S2'])}`;
              return { campaign_id, adset_id, ad_id: `${adset_id}-${pick(['A1', 'A2', 'A3'])}`, keyword: pick(['seguros', 'vuelos', null]) };
            })()
          : {}),
      });
    });
  const anywhere = () => first + Math.floor(rand() * days.length * DAY);
  // Retention's cutoff falls inside a quarter hour of the 5th day, with visits on both sides of it.
  const cutoff = first + 4 * DAY + 7 * 3_600_000 + 7 * 60_000;
  const stored = [...events(1, 3000, anywhere), ...events(4001, 60, () => cutoff - 600_000 + Math.floor(rand() * 1_200_000))];
  const late = events(5001, 200, () => first + Math.floor(rand() * 5 * DAY));

  const duck = await openDuckDbWarehouse(':memory:');
  const ch = await openClickHouseWarehouse(client, { database: `random${++databases}` });
  try {
    for (const w of [duck, ch]) {
      await importRows(w, reports);
      await w.referrers.append(stored);
    }
    const compare = async () => {
      for (const tz of ['UTC', 'Europe/Madrid', 'Asia/Kathmandu', 'America/St_Johns']) {
        for (const day of [days[4], days[9], days[11]] as string[]) {
          const byZone = (vs: ZoneDayValue[]) => [...vs].sort((a, b) => a.zone_id.localeCompare(b.zone_id));
          expectSame(byZone(await ch.profit.zoneValues({ day, tz })), byZone(await duck.profit.zoneValues({ day, tz })), `${tz} ${day}`);
        }
        for (const by of ['day', 'campaign', 'adset', 'ad', 'keyword'] as const) {
          const q = { by, from: days[3] as string, to: days[11] as string, tz };
          const sorted = (p: ProfitParts) => ({ ...p, visits: [...p.visits].sort((a, b) => String(a.key).localeCompare(String(b.key))) });
          const [c, d] = [sorted(await ch.profit.parts(q)), sorted(await duck.profit.parts(q))];
          expectSame(c.visits, d.visits, `${tz} by ${by}`);
          expect(c.estimatedDays, `${tz} by ${by}: days estimated`).toEqual(d.estimatedDays);
        }
      }
    };
    await compare();
    // Retention, then late arrivals stamped before its cutoff.
    for (const w of [duck, ch]) {
      await w.referrers.rollUpBefore(cutoff);
      await w.referrers.append(late);
    }
    await compare();
  } finally {
    await duck.close();
    await ch.close();
  }
});
