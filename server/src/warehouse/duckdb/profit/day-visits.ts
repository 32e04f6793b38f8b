// The human visits per zone of a day still filling (not in the visit cache yet), for the live
// 'Valor' re-reads of a day that has its zone report: its RPV is the day's revenue ÷ those
// visits, read again every minute. Counting them from the raw events each time costs a scan of
// the whole day (50–70 ms on both cores after 7 million events); here a day is counted once, and
// each later read counts only the events appended since (id above the last one counted: the
// events' ids are zone-mapped, so DuckDB skips every older row group) and adds them.
//
// That holds while events are committed in id order, as the live writer commits them (one batch
// at a time, ids reserved in order). An append with an id at or below one already seen (a
// late batch through adops migrate, a test) makes every count start again from the raw events,
// as does retention; so does a read that overlapped such an append (the epoch is bumped when it
// starts and again when it ends). The counts are those of the day's ev rows, the profit query's
// own definition of a visit: counted by SQL, only summed here.
import { listValue } from '@duckdb/node-api';
import type { Db, Params } from '../db.js';

/** A day's counts, as of the last id counted and the epoch they were counted in. */
interface DayCount {
  epoch: number;
  upTo: bigint;
  zones: Map<string, number>;
  reading?: Promise<Map<string, number>>;
}

/** How a day's events are counted: its ev CTE (from evCte, of the events after the id `$after`) and bound values. */
export interface DayWindow {
  cte: string;
  params: Params;
}

/** Days kept (today and the day before, per time zone, with room to spare). */
const MAX_DAYS = 8;
const BEFORE_ANY = BigInt(Number.MIN_SAFE_INTEGER);

export class DayVisits {
  private epoch = 0;
  /** The highest id appended or counted: an append at or below it is out of order. */
  private seen = BEFORE_ANY;
  private days = new Map<string, DayCount>();

  constructor(private readonly db: Db) {}

  /**
   * Before a batch is appended (call it right before the append): answers a callback for when
   * the append ends when the batch is out of id order (undefined otherwise, one pass over its ids).
   */
  beforeAppend(events: readonly { id: number }[]): (() => void) | undefined {
    if (events.length === 0) return undefined;
    let min = events[0].id;
    let max = min;
    for (let i = 1; i < events.length; i++) {
      const id = events[i].id;
      if (id < min) min = id;
      else if (id > max) max = id;
    }
    const inOrder = BigInt(min) > this.seen;
    if (BigInt(max) > this.seen) this.seen = BigInt(max);
    if (inOrder) return undefined;
    this.invalidate();
    return () => this.invalidate();
  }

  /** Every count starts again from the raw events (retention deleted some, or ids came out of order). */
  invalidate(): void {
    this.epoch++;
  }

  /** The day's human visits per zone: counted once, then brought up to date by the events appended since. */
  counts(tz: string, day: string, window: DayWindow): Promise<Map<string, number>> {
    const key = `${tz}|${day}`;
    let entry = this.days.get(key);
    if (entry?.reading) return entry.reading;
    if (!entry || entry.epoch !== this.epoch) {
      entry = { epoch: this.epoch, upTo: BEFORE_ANY, zones: new Map() };
      this.days.delete(key);
      if (this.days.size >= MAX_DAYS) this.days.delete(this.days.keys().next().value!);
      this.days.set(key, entry);
    }
    const target = entry;
    target.reading = this.read(target, window).finally(() => {
      target.reading = undefined;
    });
    return target.reading;
  }

  private async read(entry: DayCount, window: DayWindow): Promise<Map<string, number>> {
    // One statement, one snapshot: the new events' counts per zone, and the highest id among them (zone NULL).
    const rows = await this.db.all<{ zone_id: string | null; visits: number | string }>(
      `WITH ${window.cte}
SELECT zone_id, count(*) AS visits FROM ev GROUP BY zone_id
UNION ALL SELECT NULL, CAST(max(id) AS VARCHAR) FROM referrer_event WHERE id > $after::BIGINT`,
      { ...window.params, after: entry.upTo },
    );
    // (Had the epoch moved on meanwhile, the next call counts the day afresh: these counts may miss an out-of-order batch.)
    let top = entry.upTo;
    for (const r of rows) {
      if (r.zone_id === null) {
        if (r.visits !== null) top = BigInt(r.visits);
      } else entry.zones.set(r.zone_id, (entry.zones.get(r.zone_id) ?? 0) + Number(r.visits));
    }
    entry.upTo = top;
    if (top > this.seen) this.seen = top;
    return entry.zones;
  }
}

/** The counts as two lists for a query's `unnest($zones::VARCHAR[]), unnest($visits::BIGINT[])`. */
export function countLists(zones: ReadonlyMap<string, number>): Params {
  return { zones: listValue([...zones.keys()]), visits: listValue([...zones.values()].map(BigInt)) };
}

const counters = new WeakMap<Db, DayVisits>();

/** The day-visit counts of `db` (one per open warehouse). */
export function dayVisitsOf(db: Db): DayVisits {
  let counter = counters.get(db);
  if (!counter) {
    counter = new DayVisits(db);
    counters.set(db, counter);
  }
  return counter;
}
