// What one visit is worth as it shows in Logs and `adops tail` ('Valor'): its zone's revenue per
// human visit that day and the zone's TQ, by the profit query's rule (warehouse zoneValues: the
// day's RPV, or the trailing 7 final days' while the day's report has not arrived or is partial —
// so today's value, while its report is partial, does not fall as its visits come in). Kept per
// day and zone in memory — one query per day loads every zone — so the live stream only looks
// values up; a day's values are read again after `ttlMs`, and a zone not yet known is asked for
// at most every `missRetryMs` — in the background once the day has been read (only a day's first
// read is waited for) — unless the day has no zone report yet: its values are the days before's,
// which that zone is not among. Flagged (bot) traffic is worth 0: the rule counts it nowhere.
import { addDays, todayIn, zonedDayEnd, zonedDayStart } from '@adops/core';
import type { ProfitWarehouse, ZoneDayValue } from '../warehouse/index.js';

export interface VisitValue {
  /** The zone's revenue per visit that day (network currency); null when the zone has no value that day. */
  value: number | null;
  /** The zone's TQ that day (or its trailing TQ); null when unknown. */
  tq: number | null;
}

interface DayValues {
  zones: Map<string, ZoneDayValue>;
  loadedAt: number;
  /** Read with zones and none reported: every value is an estimate from the days before, which a zone missing from them has none of. */
  unreported?: boolean;
  loading?: Promise<void>;
}

const UNKNOWN: VisitValue = { value: null, tq: null };

export class ZoneValues {
  private readonly days = new Map<string, DayValues>();
  /** The last day an instant fell in, with its bounds (most events are today's: no time-zone maths for them). */
  private lastDay = { day: '', start: 0, end: -1 };

  constructor(
    private readonly warehouse: Pick<ProfitWarehouse, 'zoneValues'>,
    private readonly tz: string,
    private readonly log: (line: string) => void = () => {},
    private readonly options: { ttlMs: number; missRetryMs: number; maxDays: number } = { ttlMs: 60_000, missRetryMs: 5_000, maxDays: 64 },
    private readonly now: () => number = Date.now,
    /** Days of [from, to] whose zone report is partial (counted as not arrived); without it, none is. */
    private readonly partialDays?: (from: string, to: string) => Promise<string[]>,
  ) {}

  /** The reporting day of an instant (epoch ms). */
  dayOf(ms: number): string {
    const d = this.lastDay;
    if (ms >= d.start && ms <= d.end) return d.day;
    const day = todayIn(this.tz, new Date(ms));
    this.lastDay = { day, start: zonedDayStart(day, this.tz).getTime(), end: zonedDayEnd(day, this.tz).getTime() };
    return day;
  }

  /**
   * A visit's value from what is loaded (never waits): stale values while they are read again,
   * unknown for a day not loaded yet. Asks for a reload when due.
   */
  peek(zoneId: string, ms: number, isBot = false): VisitValue {
    const day = this.dayOf(ms);
    const entry = this.days.get(day);
    const zone = entry?.zones.get(zoneId);
    if (this.due(entry, zone === undefined)) void this.load(day);
    if (!zone) return isBot && entry ? { value: 0, tq: null } : UNKNOWN;
    return { value: isBot ? 0 : zone.rpv, tq: zone.tq };
  }

  /**
   * Resolves once the days of these instants are loaded (undefined when they are, so a caller on
   * the hot path awaits nothing). Only a day's first read is waited for: once it is loaded, its
   * values are at hand — when they are due, or a zone is not among them (at most every
   * missRetryMs), the day is read again in the background and what is loaded serves meanwhile (a
   * zone not among them: unknown until that read), so the live stream never waits on a read of
   * a busy day.
   */
  ready(items: Iterable<{ zone_id: string; ms: number }>): Promise<void> | undefined {
    const waits: Promise<void>[] = [];
    let waited: string | undefined;
    for (const { zone_id, ms } of items) {
      const day = this.dayOf(ms);
      const entry = this.days.get(day);
      if (entry !== undefined && entry.loadedAt > 0) {
        if (this.due(entry, !entry.zones.has(zone_id))) void this.load(day);
        continue;
      }
      if (waited === day) continue;
      waits.push(entry?.loading ?? this.load(day));
      waited = day;
    }
    return waits.length ? Promise.all(waits).then(() => undefined) : undefined;
  }

  /** Values of many rows: loads their days first. */
  async valuesOf<R extends { zone_id: string; seen_at: string; is_bot?: boolean }>(rows: readonly R[]): Promise<Array<R & VisitValue>> {
    const items = rows.map((r) => ({ zone_id: r.zone_id, ms: Date.parse(r.seen_at) }));
    await this.ready(items);
    return rows.map((r, i) => ({ ...r, ...this.peek(r.zone_id, items[i].ms, r.is_bot === true) }));
  }

  /** Forget every loaded day (a zone report was imported). */
  clear(): void {
    this.days.clear();
  }

  /**
   * Starts reading today's values in the background (at start), so the first live events find
   * them loaded instead of waiting for the day's first read. (Not after an import: visits that
   * follow it — a day's events sent after its report — would count only at the next read, a
   * minute on; the first live event after an import waits for a read that sees them.)
   */
  warm(): void {
    void this.load(this.dayOf(this.now()));
  }

  private due(entry: DayValues | undefined, missing: boolean): boolean {
    if (!entry) return true;
    if (entry.loading) return false;
    const age = this.now() - entry.loadedAt;
    // A zone missing from an unreported day's values has none to find until the day is read again anyway.
    return age >= this.options.ttlMs || (missing && !entry.unreported && age >= this.options.missRetryMs);
  }

  private load(day: string): Promise<void> {
    const entry = this.days.get(day);
    if (entry?.loading) return entry.loading;
    const target: DayValues = entry ?? { zones: new Map(), loadedAt: 0 };
    if (!entry) {
      // Keep the most recent days only.
      if (this.days.size >= this.options.maxDays) this.days.delete(this.days.keys().next().value!);
      this.days.set(day, target);
    }
    const read = this.partialDays
      ? this.partialDays(addDays(day, -7), day).then((partialDays) => this.warehouse.zoneValues({ day, tz: this.tz, partialDays }))
      : this.warehouse.zoneValues({ day, tz: this.tz });
    target.loading = read
      .then((rows) => {
        target.zones = new Map(rows.map((r) => [r.zone_id, r]));
        target.unreported = rows.length > 0 && rows.every((r) => r.estimated);
      })
      .catch((e: Error) => this.log(`zone values for ${day} not read: ${e.message}`))
      .finally(() => {
        target.loadedAt = this.now();
        target.loading = undefined;
      });
    return target.loading;
  }
}
