// The reporting time zone's UTC offset over a window of instants as a few constant pieces, so a
// query tells an event's local calendar day with integer arithmetic on its instant (its wall
// clock = instant + offset) instead of converting every event's time zone. Offsets are read at
// fortnightly instants (zones change theirs at most once in that time) and each change is found
// by bisection to the second. Answers are remembered per window and zone.
import { zonedParts } from '@adops/core';

const STRIDE_MS = 14 * 86_400_000;
/** Offset changes a query binds at most; a window with more falls back to converting every event. */
export const MAX_OFFSET_CHANGES = 6;

/** The offset (ms) from `from`, and each later change: the instant it takes effect and the new offset. */
export interface OffsetPieces {
  first: number;
  changes: Array<{ at: number; offset: number }>;
}

/** Wall clock minus UTC at an instant, in ms (whole seconds). */
function offsetAt(instant: number, tz: string): number {
  const p = zonedParts(instant, tz);
  const t = Math.floor(instant / 1000) * 1000;
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - t;
}

const remembered = new Map<string, OffsetPieces>();

/** The offsets of `tz` over [from, to] (epoch ms). */
export function offsetPieces(from: number, to: number, tz: string): OffsetPieces {
  const key = `${tz}|${from}|${to}`;
  const known = remembered.get(key);
  if (known) return known;
  const first = offsetAt(from, tz);
  const changes: OffsetPieces['changes'] = [];
  let a = from;
  let offA = first;
  while (a < to) {
    const b = Math.min(to, a + STRIDE_MS);
    const offB = offsetAt(b, tz);
    if (offB !== offA) {
      // The first second with the new offset: offsetAt(lo) is the old, offsetAt(hi) the new one.
      let lo = a;
      let hi = b;
      while (hi - lo > 1000) {
        const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
        if (offsetAt(mid, tz) === offA) lo = mid;
        else hi = mid;
      }
      changes.push({ at: Math.floor(hi / 1000) * 1000, offset: offB });
    }
    a = b;
    offA = offB;
  }
  const pieces = { first, changes };
  if (remembered.size >= 500) remembered.clear();
  remembered.set(key, pieces);
  return pieces;
}

const QUARTER_HOUR_MS = 900_000;
const HOUR_MS = 3_600_000;

/** Whether [from, to] is a run of whole UTC units (`unit` ms) on each of which `tz` keeps one offset, a whole number of units. */
function onUnits(from: number, to: number, tz: string, unit: number): boolean {
  if (from % unit !== 0 || (to + 1) % unit !== 0) return false;
  const p = offsetPieces(from, to, tz);
  return p.first % unit === 0 && p.changes.every((c) => c.at % unit === 0 && c.offset % unit === 0);
}

/**
 * Whether [from, to] (epoch ms, `to` the last millisecond read) is a run of whole UTC quarter
 * hours in which `tz` changes its offset only on a quarter hour and to a whole number of quarter
 * hours — true of every zone's current rules — so each quarter hour falls on one local day.
 */
export const onQuarterHours = (from: number, to: number, tz: string): boolean => onUnits(from, to, tz, QUARTER_HOUR_MS);

/** The same of whole UTC hours: true of most zones (not of India's, Nepal's, Newfoundland's or central Australia's). */
export const onHours = (from: number, to: number, tz: string): boolean => onUnits(from, to, tz, HOUR_MS);
