// How complete the money figures' inputs are: which days of Meta spend a sync covered (per ad
// account, and when) and which days' zone reports are final or partial. Both records live in the
// entity store's settings (lowdb or PostgreSQL, so every instance reads the same), kept for the
// last RECORD_DAYS days. Rentabilidad, Fb Campaigns, the alert rules, the profit guard, 'Valor'
// and the daily digest read them through `Completeness`.
import { MAX_REPORT_DAYS, addDays, todayIn, type ReportState } from '@adops/core';
import type { Config } from '../config.js';
import type { SettingsRepository } from '../store/types.js';
import type { SpendWarehouse, ZoneReportWarehouse } from '../warehouse/index.js';

/** Settings key of the spend sync record: { [ad account]: { [day]: ISO instant of the last sync covering it } }. */
export const SPEND_COVERAGE_KEY = 'spend_sync_coverage';
/** Settings key of the zone reports' finality: { [day]: { report: 'final' | 'partial', at: ISO instant of the import } }. */
export const REPORT_FINALITY_KEY = 'zone_report_finality';
/**
 * Days a record is kept: the longest range anyone can ask. Older days have no record: their spend
 * counts as synced (the record's horizon) and their report as final (the day is long over).
 */
export const RECORD_DAYS = MAX_REPORT_DAYS;
/** How old a sync of one of the last nightly days may be before the range counts as stale (the nightly's cadence). */
const NIGHTLY_STALE_MS = 24 * 3_600_000;
/** The recent days' cadence when the schedule is off (ADOPS_SPEND_SYNC_MINUTES=0). */
const DEFAULT_RECENT_MINUTES = 15;

type Coverage = Record<string, Record<string, string>>;
type Finality = Record<string, { report: ReportState; at: string }>;

/** What one range of days lacks. */
export interface RangeCompleteness {
  /** Days of the range with no synced spend (no sync covered them and none is stored). */
  unsynced: string[];
  /** Days of the range whose zone report has arrived and is partial. */
  partial: string[];
  /** Days of the range whose zone report has arrived and is final. */
  final: string[];
  /** Days that count as not reported in the profit query: partial ones from the 7 days before the range to its end (arrived or not). */
  partialForQuery: string[];
  /** When the ad account's spend was last synced (ISO; null: never). */
  syncedAt: string | null;
  /** Some day is unsynced, or a day the schedule still syncs was last synced longer ago than its cadence. */
  stale: boolean;
}

const daysOf = (from: string, to: string): string[] => {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
};

export class Completeness {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly warehouse: { spend: Pick<SpendWarehouse, 'days'>; zoneReports: Pick<ZoneReportWarehouse, 'days'> },
    private readonly config: Pick<Config, 'tz' | 'spendSync'>,
    /** The ad account whose syncs are recorded (Meta's client, known once the providers start). */
    private readonly account: () => string,
    private readonly now: () => number = Date.now,
  ) {}

  today(): string {
    return todayIn(this.config.tz, new Date(this.now()));
  }

  /** Records that a sync covered [from, to] of the ad account at `at` (after it stored what Meta answered). */
  async recordSync(from: string, to: string, at = new Date(this.now()).toISOString()): Promise<void> {
    const account = this.account();
    const horizon = addDays(this.today(), -RECORD_DAYS);
    await this.settings.update<Coverage>(SPEND_COVERAGE_KEY, (current) => {
      const next: Coverage = {};
      for (const [acc, days] of Object.entries(current ?? {})) next[acc] = Object.fromEntries(Object.entries(days).filter(([d]) => d >= horizon));
      const mine: Record<string, string> = { ...next[account] };
      for (const d of daysOf(from > horizon ? from : horizon, to)) mine[d] = at;
      next[account] = mine;
      return next;
    });
  }

  /**
   * After an import stored rows of `days`: each day's report is final when the import says so
   * or the day is over (ADOPS_TZ), partial when the import says so or the day is still running.
   */
  async recordImport(days: Iterable<string>, report?: ReportState): Promise<Array<{ date: string; report: ReportState }>> {
    const today = this.today();
    const horizon = addDays(today, -RECORD_DAYS);
    const at = new Date(this.now()).toISOString();
    const out = [...new Set(days)].sort().map((date) => ({ date, report: report ?? (date < today ? 'final' : 'partial') }) as const);
    const kept = out.filter((d) => d.date >= horizon);
    if (kept.length > 0)
      await this.settings.update<Finality>(REPORT_FINALITY_KEY, (current) => {
        const next: Finality = Object.fromEntries(Object.entries(current ?? {}).filter(([d]) => d >= horizon));
        for (const d of kept) next[d.date] = { report: d.report, at };
        return next;
      });
    return out;
  }

  /** Days of [from, to] whose report counts as partial (recorded so, or without a record today or later), arrived or not. */
  async partialDays(from: string, to: string): Promise<string[]> {
    const records = ((await this.settings.get(REPORT_FINALITY_KEY)) as Finality | undefined) ?? {};
    const today = this.today();
    return daysOf(from, to).filter((d) => {
      const r = records[d];
      return r ? r.report === 'partial' : d >= today;
    });
  }

  /** When each day of [from, to] last had its zone report imported, as recorded (days without a record are left out). */
  async importedAt(from: string, to: string): Promise<Map<string, string>> {
    const records = ((await this.settings.get(REPORT_FINALITY_KEY)) as Finality | undefined) ?? {};
    return new Map(daysOf(from, to).flatMap((d) => (records[d] ? [[d, records[d].at] as [string, string]] : [])));
  }

  /** Whether `day`'s zone report has arrived and is partial. */
  async isPartial(day: string): Promise<boolean> {
    const [partial, arrived] = await Promise.all([this.partialDays(day, day), this.warehouse.zoneReports.days({ from: day, to: day })]);
    return partial.length > 0 && arrived.length > 0;
  }

  /** What [from, to] lacks: unsynced days, partial and final reports, the last sync and whether the range is stale. */
  async of(from: string, to: string): Promise<RangeCompleteness> {
    const [coverage, spendDays, reportDays, partialForQuery] = await Promise.all([
      this.settings.get(SPEND_COVERAGE_KEY) as Promise<Coverage | undefined>,
      this.warehouse.spend.days({ from, to }),
      this.warehouse.zoneReports.days({ from, to }),
      this.partialDays(addDays(from, -7), to),
    ]);
    const synced = coverage?.[this.account()] ?? {};
    const withSpend = new Set(spendDays);
    const today = this.today();
    const horizon = addDays(today, -RECORD_DAYS);
    const days = daysOf(from, to);
    const unsynced = days.filter((d) => d >= horizon && d <= today && synced[d] === undefined && !withSpend.has(d));
    // Future days have no spend to sync yet: they are not 'unsynced', and a sync of them would store nothing.
    const partialSet = new Set(partialForQuery);
    const partial = reportDays.filter((d) => partialSet.has(d));
    const final = reportDays.filter((d) => !partialSet.has(d));
    let syncedAt: string | null = null;
    for (const at of Object.values(synced)) if (syncedAt === null || at > syncedAt) syncedAt = at;
    return { unsynced, partial, final, partialForQuery, syncedAt, stale: unsynced.length > 0 || this.staleDays(days, synced, today) };
  }

  /** A day the schedule still syncs (the last nightly days) whose last sync is older than its cadence, or unknown. */
  private staleDays(days: readonly string[], synced: Record<string, string>, today: string): boolean {
    const { everyMinutes, recentDays, nightlyDays } = this.config.spendSync;
    const now = this.now();
    const recentMs = (everyMinutes > 0 ? everyMinutes : DEFAULT_RECENT_MINUTES) * 60_000;
    return days.some((d) => {
      if (d > today || d <= addDays(today, -nightlyDays)) return false;
      const at = synced[d];
      if (at === undefined) return true;
      const age = now - Date.parse(at);
      return age > (d > addDays(today, -recentDays) ? recentMs : NIGHTLY_STALE_MS);
    });
  }
}
