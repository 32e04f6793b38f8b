// The profit query's visit counts per reporting-zone day, kept so a range of past days is not
// counted again from tens of millions of raw events at every call: for each time zone asked
// and each local day whose events are all in (it ended over an hour ago), the human visits per
// zone (profit_zone_visits) and the attributed ones per zone, campaign, ad set, ad and keyword
// (profit_attributed_visits) and per ad and keyword (profit_ad_keyword_visits: how an ad-day's
// spend is shared by keyword), and the day itself (profit_day: cached, even with no visits).
// The counts are exactly what the raw events give, kept so by every write that changes them:
// a batch appended with an event on or before a cached day drops those days first (live traffic,
// seen now, never does: one comparison per batch); retention drops the days up to its cutoff
// (a day later counted again sees what is left). Every change runs on the single writer
// connection in order: a fill counts the events as they are when it runs. Days not cached yet
// are counted on the query's first call (a week per writer job, so ingest waits little), today
// and anything not cached come from the raw events. Derived data: a new definition bumps
// CACHE_VERSION and the next start empties it (backups carry it consistently with the events).
// On top of the counts, for a kept day with its zone report, what its attributed visits earned
// per campaign, ad set, ad and keyword (profit_visit_values; profit_value_day: the days kept):
// each visit × its zone's RPV that day (revenue ÷ visits), and its TQ weights — a tenth of the
// rows of the counts (most visits are alone in their zone, ad and keyword), and no zone RPV to
// compute again. They are dropped with the counts, and by an import with the day's zone report
// (in its transaction); a query reads them only for days it takes as reported and final.
import { addDays, todayIn, zonedDayEnd } from '@adops/core';
import { listValue, type DuckDBConnection } from '@duckdb/node-api';
import { type Db, type Params, run } from '../db.js';

const CACHE_VERSION = '3';
/** A day is cached once it ended this long ago (late beacons and batches rarely arrive later). */
export const SEALED_AFTER_MS = 3_600_000;
/** Days counted per writer job. */
const FILL_DAYS = 7;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS profit_day (tz VARCHAR NOT NULL, day DATE NOT NULL);
CREATE TABLE IF NOT EXISTS profit_zone_visits (tz VARCHAR NOT NULL, day DATE NOT NULL, zone_id VARCHAR NOT NULL, visits BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS profit_attributed_visits (
  tz VARCHAR NOT NULL, day DATE NOT NULL, zone_id VARCHAR NOT NULL, campaign_id VARCHAR NOT NULL,
  adset_id VARCHAR, ad_id VARCHAR, keyword VARCHAR, visits BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS profit_ad_keyword_visits (
  tz VARCHAR NOT NULL, day DATE NOT NULL, campaign_id VARCHAR NOT NULL, adset_id VARCHAR, ad_id VARCHAR NOT NULL, keyword VARCHAR,
  visits BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS profit_value_day (tz VARCHAR NOT NULL, day DATE NOT NULL);
CREATE TABLE IF NOT EXISTS profit_visit_values (
  tz VARCHAR NOT NULL, day DATE NOT NULL, campaign_id VARCHAR NOT NULL, adset_id VARCHAR, ad_id VARCHAR, keyword VARCHAR,
  visits BIGINT NOT NULL, revenue DOUBLE NOT NULL, tq_weighted DOUBLE NOT NULL, tq_weight BIGINT NOT NULL
);`;
const VALUE_TABLES = ['profit_value_day', 'profit_visit_values'] as const;
const TABLES = ['profit_day', 'profit_zone_visits', 'profit_attributed_visits', 'profit_ad_keyword_visits', ...VALUE_TABLES] as const;

/** The statements an import runs in its transaction: the kept values of the days its rows fall on (`dates`: a query of them) go. */
export const dropValuesSql = (dates: string): string[] => VALUE_TABLES.map((t) => `DELETE FROM ${t} WHERE day IN (${dates})`);
/** Days of the values fill per writer job (a week, as the counts: ingest waits little behind one). */
const VALUE_DAYS = FILL_DAYS;

/** How the cache counts a window's events: its ev CTE (day, zone and attribution of each human event) and bound values. */
export interface EventWindow {
  /** `ev AS (…)` over the events of [first, last] in tz ($tz among its values). */
  cte: string;
  params: Params;
}

export class VisitCache {
  /** Per time zone, the last cached day (its end bounds the events that can change the cache). */
  private last = new Map<string, string>();
  /** Events seen before this instant may fall on a cached day (raised when a fill is queued). */
  private horizon = Number.NEGATIVE_INFINITY;
  /** Set when dropping days failed: every day is counted from the raw events. */
  private disabled = false;

  constructor(private readonly db: Db) {}

  /** Creates the tables (emptied when their definition changed) and learns the cached days. */
  async open(): Promise<void> {
    await this.db.serialWrite(async (c) => {
      await c.run(SCHEMA);
      const meta = await c.runAndReadAll(`SELECT value FROM warehouse_meta WHERE name = 'profit_cache'`);
      if (meta.getRows()[0]?.[0] !== CACHE_VERSION) {
        for (const t of TABLES) await c.run(`DELETE FROM ${t}`);
        await c.run(`INSERT OR REPLACE INTO warehouse_meta VALUES ('profit_cache', '${CACHE_VERSION}')`);
      }
    });
    const rows = await this.db.all<{ tz: string; day: string }>('SELECT tz, max(day) AS day FROM profit_day GROUP BY tz');
    for (const r of rows) this.raise(r.tz, String(r.day));
  }

  private raise(tz: string, day: string): void {
    if ((this.last.get(tz) ?? '') < day) this.last.set(tz, day);
    this.horizon = Math.max(this.horizon, zonedDayEnd(day, tz).getTime() + 1);
  }

  /**
   * Before a batch is appended (call it right before the append, so its job runs first): when an
   * event falls on a cached day, those days and every later one are dropped.
   */
  beforeAppend(events: readonly { seen_ms: number }[]): Promise<void> | undefined {
    let min = Number.POSITIVE_INFINITY;
    for (let i = 0; i < events.length; i++) if (events[i].seen_ms < min) min = events[i].seen_ms;
    if (!(min < this.horizon)) return undefined;
    const drops = [...this.last.keys()].map((tz) => [tz, todayIn(tz, new Date(min))] as const);
    return this.drop(async (c) => {
      for (const [tz, day] of drops) for (const t of TABLES) await run(c, `DELETE FROM ${t} WHERE tz = $tz AND day >= $day::DATE`, { tz, day });
    });
  }

  /** Before retention deletes the events seen before `cutoffMs` (call it right before): drops every day they may fall on. */
  beforeRetention(cutoffMs: number): Promise<void> | undefined {
    if (this.last.size === 0) return undefined;
    // The cutoff's UTC day plus one covers its local day in any zone (offsets within ±1 day).
    const day = addDays(new Date(cutoffMs).toISOString().slice(0, 10), 1);
    return this.drop(async (c) => {
      for (const t of TABLES) await run(c, `DELETE FROM ${t} WHERE day <= $day::DATE`, { day });
    });
  }

  /** Drops cached days in a writer job; if that fails, the cache is no longer read (until a start empties it). */
  private drop(work: (c: DuckDBConnection) => Promise<void>): Promise<void> {
    return this.db.serialWrite(work).catch((e) => {
      this.disabled = true;
      void this.db.exec(`DELETE FROM warehouse_meta WHERE name = 'profit_cache'`).catch(() => undefined);
      throw e;
    });
  }

  /**
   * Makes sure the days [first, last] of tz that are over are cached (counting the missing ones
   * with `window`), and answers the first day not cached: from it on, a query counts raw events.
   */
  async ensure(tz: string, first: string, last: string, window: (from: string, to: string) => EventWindow, now = Date.now()): Promise<string> {
    if (this.disabled) return first;
    let sealed = last;
    while (sealed >= first && zonedDayEnd(sealed, tz).getTime() >= now - SEALED_AFTER_MS) sealed = addDays(sealed, -1);
    if (sealed < first) return first;
    const have = new Set(
      (
        await this.db.all<{ day: string }>('SELECT DISTINCT day FROM profit_day WHERE tz = $tz AND day BETWEEN $first::DATE AND $last::DATE', {
          tz,
          first,
          last: sealed,
        })
      ).map((r) => String(r.day)),
    );
    const missing: string[] = [];
    for (let d = first; d <= sealed; d = addDays(d, 1)) if (!have.has(d)) missing.push(d);
    const jobs: Promise<void>[] = [];
    for (let i = 0; i < missing.length; i += FILL_DAYS) jobs.push(this.fill(tz, missing.slice(i, i + FILL_DAYS), window));
    await Promise.all(jobs);
    return addDays(sealed, 1);
  }

  /**
   * The first day of [first, last] of tz not cached (every day before it is), filling nothing:
   * a query counts the raw events from it on.
   */
  async cachedUntil(tz: string, first: string, last: string): Promise<string> {
    if (this.disabled) return first;
    const have = new Set(
      (
        await this.db.all<{ day: string }>('SELECT DISTINCT day FROM profit_day WHERE tz = $tz AND day BETWEEN $first::DATE AND $last::DATE', {
          tz,
          first,
          last,
        })
      ).map((r) => String(r.day)),
    );
    let day = first;
    while (day <= last && have.has(day)) day = addDays(day, 1);
    return day;
  }

  /**
   * The days of `days` (kept, with a final zone report, as the caller found them) whose visits'
   * values are kept, computing the missing ones first with `fillSql` (an INSERT's SELECT of
   * profit_visit_values' columns over the days `$days` of `$tz`); null: only those kept already.
   */
  async valued(tz: string, days: readonly string[], fillSql: string | null): Promise<Set<string>> {
    if (this.disabled || days.length === 0) return new Set();
    const kept = async () =>
      new Set(
        (
          await this.db.all<{ day: string }>(
            'SELECT day FROM profit_value_day WHERE tz = $tz AND day BETWEEN $first::DATE AND $last::DATE AND day IN (SELECT unnest($days::DATE[]))',
            { tz, days: listValue([...days]), first: days[0], last: days[days.length - 1] },
          )
        ).map((r) => String(r.day)),
      );
    const have = await kept();
    const missing = days.filter((d) => !have.has(d));
    if (fillSql === null || missing.length === 0) return have;
    const jobs: Promise<void>[] = [];
    for (let i = 0; i < missing.length; i += VALUE_DAYS) jobs.push(this.fillValues(tz, missing.slice(i, i + VALUE_DAYS), fillSql));
    await Promise.all(jobs);
    return kept();
  }

  /**
   * Computes the values of `days` of tz in one writer job: only days still kept (a batch appended
   * meanwhile may have dropped them) and with zone-report rows, so values never outlive their counts.
   */
  private fillValues(tz: string, days: string[], fillSql: string): Promise<void> {
    const list = { tz, days: listValue(days), first: days[0], last: days[days.length - 1] };
    const keep = `day IN (SELECT unnest($days::DATE[])) AND day IN (SELECT day FROM profit_day WHERE tz = $tz)
      AND day IN (SELECT DISTINCT date FROM zone_report_rollup WHERE date IN (SELECT unnest($days::DATE[])))`;
    return this.db.serialWrite(async (c) => {
      await c.run('BEGIN TRANSACTION');
      try {
        for (const t of VALUE_TABLES) await run(c, `DELETE FROM ${t} WHERE tz = $tz AND day IN (SELECT unnest($days::DATE[]))`, list);
        await run(c, `INSERT INTO profit_value_day SELECT $tz, day FROM (SELECT unnest($days::DATE[]) AS day) WHERE ${keep}`, list);
        await run(
          c,
          `INSERT INTO profit_visit_values SELECT * FROM (${fillSql}) WHERE day IN (SELECT day FROM profit_value_day WHERE tz = $tz)`,
          list,
        );
        await c.run('COMMIT');
      } catch (e) {
        await c.run('ROLLBACK').catch(() => undefined);
        throw e;
      }
    });
  }

  /** Counts `days` (ascending) of tz from the raw events, in one writer job. */
  private fill(tz: string, days: string[], window: (from: string, to: string) => EventWindow): Promise<void> {
    const w = window(days[0], days[days.length - 1]);
    const list = { tz, days: listValue(days) };
    const params = { ...w.params, ...list };
    const keep = 'day IN (SELECT unnest($days::DATE[]))';
    // Queued now: a batch appended after this call sees the raised horizon and drops what this counts.
    this.raise(tz, days[days.length - 1]);
    return this.db.serialWrite(async (c) => {
      await c.run('BEGIN TRANSACTION');
      try {
        for (const t of TABLES) await run(c, `DELETE FROM ${t} WHERE tz = $tz AND ${keep}`, list);
        await run(
          c,
          `INSERT INTO profit_zone_visits WITH ${w.cte} SELECT $tz, day, zone_id, count(*) FROM ev WHERE ${keep} GROUP BY day, zone_id`,
          params,
        );
        await run(
          c,
          `INSERT INTO profit_attributed_visits WITH ${w.cte}
           SELECT $tz, day, zone_id, campaign_id, adset_id, ad_id, keyword, count(*) FROM ev
           WHERE ${keep} AND campaign_id IS NOT NULL GROUP BY ALL`,
          params,
        );
        await run(
          c,
          `INSERT INTO profit_ad_keyword_visits SELECT tz, day, campaign_id, adset_id, ad_id, keyword, sum(visits) FROM profit_attributed_visits
           WHERE tz = $tz AND ${keep} AND ad_id IS NOT NULL GROUP BY ALL`,
          list,
        );
        await run(c, 'INSERT INTO profit_day SELECT $tz, unnest($days::DATE[])', list);
        await c.run('COMMIT');
      } catch (e) {
        await c.run('ROLLBACK').catch(() => undefined);
        throw e;
      }
    });
  }
}

const caches = new WeakMap<Db, VisitCache>();

/** The visit cache of `db` (one per open warehouse). */
export function visitCacheOf(db: Db): VisitCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new VisitCache(db);
    caches.set(db, cache);
  }
  return cache;
}
