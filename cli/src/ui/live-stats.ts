// What the live tail's footer shows: events per second and the top referrers (by host) and
// countries among the events seen in the last minute (by their seen_at, so a backlog or a
// late poll does not count as a burst).
import type { LiveRecord } from '@adops/core/lite';

const MINUTE = 60_000;

export function referrerHost(referrer: string | null): string {
  if (!referrer) return '-';
  try {
    return new URL(referrer).host || referrer;
  } catch {
    return referrer;
  }
}

export class LiveStats {
  private arrivals: Array<{ at: number; host: string; country: string }> = [];
  total = 0;

  add(records: readonly LiveRecord[], now: number): void {
    for (const r of records) {
      const seen = Date.parse(r.seen_at);
      const at = Number.isNaN(seen) ? now : Math.min(seen, now);
      if (now - at <= MINUTE) this.arrivals.push({ at, host: referrerHost(r.referrer), country: r.country || '-' });
    }
    this.total += records.length;
    this.prune(now);
  }

  private prune(now: number): void {
    if (this.arrivals.some((a) => now - a.at > MINUTE)) this.arrivals = this.arrivals.filter((a) => now - a.at <= MINUTE);
  }

  /** Events per second over the last `windowMs`. */
  rate(now: number, windowMs = 10_000): number {
    this.prune(now);
    return this.arrivals.filter((a) => now - a.at <= windowMs).length / (windowMs / 1000);
  }

  /** The n most frequent values in the last minute (empty ones left out), most frequent first. */
  top(field: 'host' | 'country', now: number, n = 3): Array<[string, number]> {
    this.prune(now);
    const counts = new Map<string, number>();
    for (const a of this.arrivals) if (a[field] !== '-') counts.set(a[field], (counts.get(a[field]) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, n);
  }
}
