// The zone cache: zone → publisher/advertiser from the zone reports (each zone's latest, busiest
// row), what hits are stamped with; reloaded after every zone-report import and on a timer.
import type { ZoneOwner } from '../../warehouse/index.js';

/**
 * Zone owners are reloaded after every zone-report import (see services/index.ts) and, as a
 * safety net for imports another instance made, every 10 minutes: each reload scans the zone
 * reports, so it is not done on every unknown zone a beacon names.
 */
export const ZONE_REFRESH_MS = 10 * 60_000;

/**
 * A reload that failed (the engine short of memory while a large warehouse starts, a connection
 * dropped) is tried again after this long, four times longer each failure in a row up to the
 * 10-minute timer: until then hits are stamped without an owner.
 */
export const ZONE_RETRY_MS = 5_000;

export class ZoneOwners {
  private zones = new Map<string, ZoneOwner>();
  /** Reloads asked for while one ran (run once more after, so an import's zones are never missed): every zone, and/or the zones with rows from this day on. */
  private wantAll = false;
  private wantSince: string | undefined;
  private running: Promise<void> | undefined;

  constructor(
    /** zone_id → publisher/advertiser, from the zone reports: of every zone, or of the zones with rows dated `since` or later. */
    private readonly load: (since?: string) => Promise<Map<string, ZoneOwner>>,
    private readonly log: (line: string) => void,
    /** Once true, a reload asked for meanwhile is not run again. */
    private readonly closed: () => boolean,
    /** The first wait before a failed reload is tried again. */
    private readonly retryMs = ZONE_RETRY_MS,
  ) {}

  /** The wait before the next retry (grows with failures in a row, back to retryMs after a success). */
  private nextRetryMs: number | undefined;

  /**
   * Reloads zone → publisher/advertiser from the zone reports: every zone, or with `since`
   * (an import's first day) only the zones with rows from that day on, merged into the cache —
   * an import's zones without rescanning every stored row.
   */
  refresh(since?: string): Promise<void> {
    if (since === undefined) this.wantAll = true;
    else if (this.wantSince === undefined || since < this.wantSince) this.wantSince = since;
    if (this.running) return this.running;
    const run = async (): Promise<void> => {
      let first = true;
      while ((this.wantAll || this.wantSince !== undefined) && (first || !this.closed())) {
        first = false;
        const all = this.wantAll;
        const from = this.wantSince;
        this.wantAll = false;
        this.wantSince = undefined;
        try {
          if (all) this.zones = await this.load();
          else for (const [zone, owner] of await this.load(from)) this.zones.set(zone, owner);
          this.nextRetryMs = undefined;
        } catch (e) {
          const wait = this.nextRetryMs ?? this.retryMs;
          this.nextRetryMs = Math.min(wait * 4, ZONE_REFRESH_MS);
          this.log(`referrers: zone owners not refreshed (tried again in ${Math.round(wait / 1000)} s): ${(e as Error).message}`);
          setTimeout(() => {
            if (!this.closed()) void this.refresh(all ? undefined : from);
          }, wait).unref();
        }
      }
    };
    this.running = run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** The reload under way, if any. */
  get pending(): Promise<void> | undefined {
    return this.running;
  }

  /** The publisher and advertiser hits of a zone are stamped with (null while unknown). */
  owner(zoneId: string): ZoneOwner {
    return this.zones.get(zoneId) ?? { publisher: null, advertiser: null };
  }

  /** Whether some zone report names the zone; undefined while none names any zone (then no zone is unknown). */
  known(zoneId: string): boolean | undefined {
    return this.zones.size === 0 ? undefined : this.zones.has(zoneId);
  }
}
