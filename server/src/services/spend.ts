// Meta spend per ad and day: reads the ad account's ad-level daily insights (the Meta client
// pages them and retries rate limits) and stores them in the warehouse (ad_spend, upsert on
// (date, ad)). A sync of the same days stores nothing new (idempotent): only new or changed
// ad-days are written, and the answer counts them. Runs on demand (admins: the route and `adops
// spend sync`) and on a schedule (ADOPS_SPEND_SYNC_*): every N minutes the last days, nightly the
// last week. Syncs run one at a time.
import { addDays, formatDateDMY, todayIn, type SpendSyncResult } from '@adops/core';
import type { Config } from '../config.js';
import { DomainError } from '../domain-errors.js';
import { MetaApiError, type GraphAdInsight, type MetaClient } from '../providers/meta/client.js';
import type { AdSpendRecord, SpendWarehouse } from '../warehouse/index.js';
import type { AuditChange } from './audit.js';
import type { Completeness } from './completeness.js';

const num = (v: string | undefined) => {
  const n = Number(v ?? 0);
  return Number.isFinite(n) ? n : 0;
};

/** Graph's row as stored; null when it names no ad or day. */
export function spendRecord(row: GraphAdInsight, account: string): AdSpendRecord | null {
  if (!row.ad_id || !/^\d{4}-\d{2}-\d{2}$/.test(row.date_start ?? '')) return null;
  return {
    date: row.date_start,
    account_id: account,
    campaign_id: row.campaign_id ?? '',
    campaign_name: row.campaign_name ?? '',
    adset_id: row.adset_id ?? '',
    adset_name: row.adset_name ?? '',
    ad_id: row.ad_id,
    ad_name: row.ad_name ?? '',
    spend: num(row.spend),
    impressions: Math.round(num(row.impressions)),
    clicks: Math.round(num(row.clicks)),
    currency: (row.account_currency ?? '').toUpperCase() || 'USD',
  };
}

const same = (a: AdSpendRecord, b: AdSpendRecord) =>
  a.spend === b.spend &&
  a.impressions === b.impressions &&
  a.clicks === b.clicks &&
  a.currency === b.currency &&
  a.campaign_id === b.campaign_id &&
  a.campaign_name === b.campaign_name &&
  a.adset_id === b.adset_id &&
  a.adset_name === b.adset_name &&
  a.ad_name === b.ad_name &&
  a.account_id === b.account_id;

export class SpendService {
  private running: Promise<unknown> = Promise.resolve();
  private readonly timers: NodeJS.Timeout[] = [];
  private lastNightly: string | null = null;
  /** A scheduled run has succeeded since start (the first covers the nightly window). */
  private ticked = false;
  private closed = false;

  constructor(
    private readonly meta: MetaClient,
    private readonly warehouse: SpendWarehouse,
    private readonly config: Pick<Config, 'tz' | 'spendSync'>,
    private readonly log: (line: string) => void,
    /** Records a scheduled sync that changed stored spend (the system's audit entry). */
    private readonly auditSystem: (change: AuditChange) => Promise<void>,
    /** Where a successful sync records the days it covered (Rentabilidad tells them from days never synced). */
    private readonly coverage?: Pick<Completeness, 'recordSync'>,
  ) {}

  /** The days a sync covers by default: the last `days` days, today included. */
  lastDays(days: number, now = new Date()): { from: string; to: string } {
    const today = todayIn(this.config.tz, now);
    return { from: addDays(today, -(days - 1)), to: today };
  }

  /** Reads [from, to] from Meta and stores what is new or changed; one sync at a time. */
  sync(from: string, to: string): Promise<SpendSyncResult> {
    const run = this.running.then(() => this.syncNow(from, to));
    this.running = run.catch(() => undefined);
    return run;
  }

  private async syncNow(from: string, to: string): Promise<SpendSyncResult> {
    let rows: GraphAdInsight[];
    try {
      rows = await this.meta.adInsights({ since: from, until: to });
    } catch (e) {
      throw this.metaFailure(e);
    }
    const fetched = new Map<string, AdSpendRecord>();
    for (const row of rows) {
      const r = spendRecord(row, this.meta.account);
      if (r && r.date >= from && r.date <= to) fetched.set(`${r.date}|${r.ad_id}`, r);
    }
    const stored = new Map((await this.warehouse.rows({ from, to })).map((r) => [`${r.date}|${r.ad_id}`, r]));
    const write: AdSpendRecord[] = [];
    let inserted = 0;
    let updated = 0;
    for (const [key, r] of fetched) {
      const before = stored.get(key);
      if (!before) inserted++;
      else if (!same(before, r)) updated++;
      else continue;
      write.push(r);
    }
    await this.warehouse.upsert(write);
    // The days covered, up to today (a later day has no spend yet: syncing it says nothing about it).
    const today = todayIn(this.config.tz);
    if (this.coverage && from <= today)
      await this.coverage
        .recordSync(from, to < today ? to : today)
        .catch((e: Error) => this.log(`spend: sync ${from}..${to} stored, but its record was not written: ${e.message}`));
    const values = [...fetched.values()];
    return {
      start_date: from,
      end_date: to,
      rows: values.length,
      inserted,
      updated,
      unchanged: values.length - inserted - updated,
      ads: new Set(values.map((r) => r.ad_id)).size,
      currencies: [...new Set(values.map((r) => r.currency))].sort(),
    };
  }

  /** Starts the schedule (when configured): a first recent sync shortly after start, then every N minutes; the nightly one after its hour. */
  start(firstAfterMs = 5000): void {
    const { everyMinutes } = this.config.spendSync;
    if (everyMinutes <= 0) return;
    const first = setTimeout(() => void this.tick(), firstAfterMs);
    first.unref();
    const every = setInterval(() => void this.tick(), everyMinutes * 60_000);
    every.unref();
    this.timers.push(first, every);
  }

  /** One scheduled run: the nightly window once a day after its hour (and at the first run), else the recent days. */
  async tick(now = new Date()): Promise<SpendSyncResult | null> {
    if (this.closed) return null;
    const { recentDays, nightlyDays, nightlyHour } = this.config.spendSync;
    const today = todayIn(this.config.tz, now);
    const hour = Number(new Intl.DateTimeFormat('en-GB', { timeZone: this.config.tz, hour: '2-digit', hourCycle: 'h23' }).format(now));
    const afterHour = this.lastNightly !== today && hour >= nightlyHour;
    const nightly = afterHour || !this.ticked;
    const { from, to } = this.lastDays(nightly ? nightlyDays : recentDays, now);
    try {
      const result = await this.sync(from, to);
      this.ticked = true;
      if (afterHour) this.lastNightly = today;
      if (result.inserted + result.updated > 0)
        await this.auditSystem({
          action: 'spend.sync',
          target: spendTarget(from, to),
          after: { ...result, scheduled: nightly ? 'nightly' : 'recent' },
        });
      return result;
    } catch (e) {
      this.log(`spend: scheduled sync ${from}..${to} failed: ${(e as Error).message}`);
      return null;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    await this.running;
  }

  private metaFailure(e: unknown): Error {
    if (e instanceof DomainError) return e;
    if (e instanceof MetaApiError) {
      this.log(`meta error (insights): code ${e.code ?? '-'} ${e.message} (trace ${e.graph.fbtrace_id ?? '-'})`);
      return new DomainError('upstream', e.detail);
    }
    this.log(`meta unreachable (insights): ${(e as Error)?.message}`);
    return new DomainError('upstream', 'No se pudo conectar con Meta');
  }
}

/** The audit trail's target of a sync: its days. */
export const spendTarget = (from: string, to: string) => ({
  kind: 'ad_spend',
  id: `${from}..${to}`,
  label: `Gasto de Meta ${formatDateDMY(from)} – ${formatDateDMY(to)}`,
});
