// Rentabilidad: the warehouse's profit query (spend per currency and month, revenue its visits
// earned) turned into rows — spend converted with the admins' monthly exchange rates (a missing
// rate leaves the spend unknown and is named, never guessed), every figure from core's registry —
// sorted, paged and exported by the table machinery. The rates live in the entity store's settings.
// What the figures lack is part of the answer: days without synced spend (left out of the
// figures, their revenue reported apart, never a spend of 0), partial and estimated days, the
// last sync. The alert rules read each day's figures apart (dayRows) and count the days they trust.
import {
  addDays,
  profitCsvFields,
  profitCsvFile,
  profitFigures,
  type ExchangeRate,
  type ExchangeRates,
  type MissingRate,
  type ProfitRow,
  type ProfitSums,
  type ProfitTotals,
  type SortState,
  type TableRequest,
} from '@adops/core';
import type { Config } from '../config.js';
import type { SettingsRepository } from '../store/types.js';
import type { Completeness, RangeCompleteness } from './completeness.js';
import type { ProfitDimension, ProfitWarehouse } from '../warehouse/index.js';
import { memoryPage, type TableExport, type TablePageOf } from '../tables.js';

/** The settings key of the exchange-rate table: { 'YYYY-MM': { CUR: rate } }. */
export const RATES_KEY = 'exchange_rates';
type RateTable = Record<string, Record<string, number>>;

export interface ProfitRequest {
  by: ProfitDimension;
  start_date: string;
  end_date: string;
  campaign_id?: string;
  adset_id?: string;
}

/** The sums of a group's visits (and spend) on some of its days. */
interface Part {
  spend: number;
  missingRate: boolean;
  meta_clicks: number;
  meta_impressions: number;
  visits: number;
  revenue: number;
  estimated_visits: number;
  tq_weighted: number;
  tq_weight: number;
}

interface Group {
  key: string | null;
  name: string | null;
  nameMonth: string;
  campaign_id: string | null;
  adset_id: string | null;
  /** On the days whose figures count. */
  counted: Part;
  /** On the days answered apart: without synced spend. */
  apart: Part;
}

const NO_KEY = '\u0000';

const emptyPart = (): Part => ({
  spend: 0,
  missingRate: false,
  meta_clicks: 0,
  meta_impressions: 0,
  visits: 0,
  revenue: 0,
  estimated_visits: 0,
  tq_weighted: 0,
  tq_weight: 0,
});

function addPart(to: Part, p: Part): void {
  to.spend += p.spend;
  to.missingRate ||= p.missingRate;
  to.meta_clicks += p.meta_clicks;
  to.meta_impressions += p.meta_impressions;
  to.visits += p.visits;
  to.revenue += p.revenue;
  to.estimated_visits += p.estimated_visits;
  to.tq_weighted += p.tq_weighted;
  to.tq_weight += p.tq_weight;
}

/**
 * A part's sums for the registry: spend unknown (null) when a rate is missing; spend, Meta's
 * clicks and impressions unknown when it was never synced (they come with the spend).
 */
function sumsOf(p: Part, unsynced: boolean): ProfitSums {
  return {
    spend: p.missingRate || unsynced ? null : p.spend,
    meta_clicks: unsynced ? null : p.meta_clicks,
    meta_impressions: unsynced ? null : p.meta_impressions,
    visits: p.visits,
    revenue: p.revenue,
    tq_weighted: p.tq_weighted,
    tq_weight: p.tq_weight,
  };
}

/**
 * What a row (or the totals) shows of its parts. Its figures are over the days with synced spend
 * and what its visits earned on the others is reported apart; when none of the days it covers
 * has synced spend, its spend is unknown and its figures are over all of them (nothing to set
 * apart).
 */
function shown(counted: Part, apart: Part, noneSynced: boolean) {
  if (noneSynced) {
    const all = emptyPart();
    addPart(all, counted);
    addPart(all, apart);
    return { sums: sumsOf(all, true), part: all, spend_unsynced: true, unsynced_visits: 0, unsynced_revenue: 0 };
  }
  return { sums: sumsOf(counted, false), part: counted, spend_unsynced: false, unsynced_visits: apart.visits, unsynced_revenue: apart.revenue };
}

/** One group's figures on one day, spend in the network's currency (null: the month has no exchange rate). */
export interface DayFigures {
  spend: number | null;
  meta_clicks: number;
  meta_impressions: number;
  visits: number;
  revenue: number;
  /** Visits whose revenue is an estimate (the day's zone report missing or partial). */
  estimated_visits: number;
  tq_weighted: number;
  tq_weight: number;
}

/** Every group's figures per day over a range, and what the range's days lack (the alert rules sum the days they count). */
export interface ProfitDays {
  from: string;
  to: string;
  /** day → group key → its figures that day (only days and groups with spend or visits). */
  days: Map<string, Map<string, DayFigures>>;
  /** The name Meta last gave each group. */
  names: Map<string, string>;
  completeness: RangeCompleteness;
  /** Days with visits whose revenue is an estimate. */
  estimatedDays: string[];
}

export interface ProfitAnswer {
  rows: ProfitRow[];
  totals: ProfitTotals;
  /** The days whose figures count: every day with synced spend (or a future one). */
  counted: string[];
}

export class ProfitService {
  constructor(
    private readonly warehouse: ProfitWarehouse,
    private readonly settings: SettingsRepository,
    private readonly config: Pick<Config, 'tz' | 'currency'>,
    /** Which days' spend is synced and which reports are partial. */
    private readonly completeness: Pick<Completeness, 'of' | 'today'>,
  ) {}

  async rates(): Promise<ExchangeRates> {
    const table = ((await this.settings.get(RATES_KEY)) as RateTable | undefined) ?? {};
    return { currency: this.config.currency, rates: flatten(table) };
  }

  /** Sets (or with rate null removes) rates; answers the table before and after. */
  async setRates(
    changes: ReadonlyArray<{ month: string; currency: string; rate: number | null }>,
  ): Promise<{ before: ExchangeRate[]; after: ExchangeRates }> {
    let before: ExchangeRate[] = [];
    await this.settings.update<RateTable>(RATES_KEY, (current) => {
      const next: RateTable = structuredClone(current ?? {});
      before = flatten(current ?? {});
      for (const c of changes) {
        if (c.rate === null) {
          delete next[c.month]?.[c.currency];
          if (next[c.month] && Object.keys(next[c.month]).length === 0) delete next[c.month];
        } else {
          next[c.month] ??= {};
          next[c.month][c.currency] = c.rate;
        }
      }
      return next;
    });
    return { before, after: await this.rates() };
  }

  /** Every group of the range with its figures, the totals over them, and what the figures lack. */
  async rows(q: ProfitRequest): Promise<ProfitAnswer> {
    const [c, rates] = await Promise.all([
      this.completeness.of(q.start_date, q.end_date),
      this.settings.get(RATES_KEY) as Promise<RateTable | undefined>,
    ]);
    const days: string[] = [];
    for (let d = q.start_date; d <= q.end_date; d = addDays(d, 1)) days.push(d);
    const unsynced = new Set(c.unsynced);
    const apartDays = c.unsynced;
    const apartSet = new Set(apartDays);
    const counted = days.filter((d) => !apartSet.has(d));
    const completeness = {
      partial_days: c.partial,
      unsynced_days: c.unsynced,
      spend_synced_at: c.syncedAt,
      spend_stale: c.stale,
    };
    const parts = await this.warehouse.parts({
      by: q.by,
      from: q.start_date,
      to: q.end_date,
      tz: this.config.tz,
      campaignId: q.campaign_id,
      adsetId: q.adset_id,
      partialDays: c.partialForQuery,
      apartDays,
    });
    const groups = new Map<string, Group>();
    const group = (key: string | null): Group => {
      const found = groups.get(key ?? NO_KEY);
      if (found) return found;
      const g: Group = { key, name: null, nameMonth: '', campaign_id: null, adset_id: null, counted: emptyPart(), apart: emptyPart() };
      groups.set(key ?? NO_KEY, g);
      return g;
    };
    const missing = new Map<string, MissingRate>();
    for (const p of parts.spend) {
      const g = group(p.key);
      if (p.name !== null && p.month >= g.nameMonth) {
        g.name = p.name;
        g.nameMonth = p.month;
      }
      g.campaign_id ??= p.campaign_id;
      g.adset_id ??= p.adset_id;
      // Spend on a day set apart (unsynced: none is stored) counts nowhere.
      if (p.apart) continue;
      const rate = p.currency === this.config.currency ? 1 : rates?.[p.month]?.[p.currency];
      if (rate === undefined) {
        g.counted.missingRate = true;
        missing.set(`${p.month}|${p.currency}`, { month: p.month, currency: p.currency });
      } else g.counted.spend += p.spend * rate;
      g.counted.meta_clicks += p.clicks;
      g.counted.meta_impressions += p.impressions;
    }
    for (const v of parts.visits) {
      const g = group(v.key);
      const to = v.apart ? g.apart : g.counted;
      to.visits += v.visits;
      to.revenue += v.revenue;
      to.estimated_visits += v.estimated_visits;
      to.tq_weighted += v.tq_weighted;
      to.tq_weight += v.tq_weight;
      g.campaign_id ??= v.campaign_id;
      g.adset_id ??= v.adset_id;
    }
    // The range has no day with synced spend (a future day has none to sync): spend unknown everywhere.
    const today = this.completeness.today();
    const noneSynced = c.unsynced.length > 0 && !days.some((d) => d <= today && !unsynced.has(d));
    const all = { counted: emptyPart(), apart: emptyPart() };
    const rows: ProfitRow[] = [];
    for (const g of groups.values()) {
      addPart(all.counted, g.counted);
      addPart(all.apart, g.apart);
      // A day row covers its day only.
      const rowNoneSynced = q.by === 'day' && g.key !== null ? unsynced.has(g.key) : noneSynced;
      const { sums, part, ...marks } = shown(g.counted, g.apart, rowNoneSynced);
      const f = profitFigures(sums);
      rows.push({
        key: g.key,
        name: g.name,
        campaign_id: g.campaign_id,
        adset_id: g.adset_id,
        ...f,
        estimated_visits: part.estimated_visits,
        estimated: part.estimated_visits > 0,
        missing_rate: part.missingRate,
        ...marks,
        losing: f.profit !== null && f.profit < 0,
      });
    }
    const { sums, part, ...marks } = shown(all.counted, all.apart, noneSynced);
    return {
      rows,
      totals: {
        ...profitFigures(sums),
        estimated_visits: part.estimated_visits,
        ...marks,
        currency: this.config.currency,
        estimated_days: parts.estimatedDays,
        missing_rates: [...missing.values()].sort((a, b) => a.month.localeCompare(b.month) || a.currency.localeCompare(b.currency)),
        ...completeness,
      },
      counted,
    };
  }

  /**
   * Each campaign's (ad set's) figures per day of [from, to], all days alike — nothing set apart:
   * the caller knows from `completeness` which days have synced spend and a final report. One
   * warehouse query however many days. `fillCache: false`: the days not in the warehouse's
   * visit cache are counted by that query alone, not stored first (see ProfitQuery).
   */
  async dayRows(level: 'campaign' | 'adset', from: string, to: string, opts: { fillCache?: boolean } = {}): Promise<ProfitDays> {
    const [c, rates] = await Promise.all([this.completeness.of(from, to), this.settings.get(RATES_KEY) as Promise<RateTable | undefined>]);
    const parts = await this.warehouse.parts({
      by: level,
      from,
      to,
      tz: this.config.tz,
      partialDays: c.partialForQuery,
      perDay: true,
      fillCache: opts.fillCache,
    });
    const days = new Map<string, Map<string, DayFigures>>();
    const names = new Map<string, { name: string; day: string }>();
    const figuresOf = (day: string | null, key: string | null): DayFigures | undefined => {
      if (day === null || key === null) return undefined;
      let byKey = days.get(day);
      if (!byKey) {
        byKey = new Map();
        days.set(day, byKey);
      }
      let f = byKey.get(key);
      if (!f) {
        f = { spend: 0, meta_clicks: 0, meta_impressions: 0, visits: 0, revenue: 0, estimated_visits: 0, tq_weighted: 0, tq_weight: 0 };
        byKey.set(key, f);
      }
      return f;
    };
    for (const p of parts.spend) {
      const f = figuresOf(p.day, p.key);
      if (!f || p.day === null || p.key === null) continue;
      if (p.name !== null && p.day >= (names.get(p.key)?.day ?? '')) names.set(p.key, { name: p.name, day: p.day });
      const rate = p.currency === this.config.currency ? 1 : rates?.[p.month]?.[p.currency];
      f.spend = rate === undefined || f.spend === null ? null : f.spend + p.spend * rate;
      f.meta_clicks += p.clicks;
      f.meta_impressions += p.impressions;
    }
    for (const v of parts.visits) {
      const f = figuresOf(v.day, v.key);
      if (!f) continue;
      f.visits += v.visits;
      f.revenue += v.revenue;
      f.estimated_visits += v.estimated_visits;
      f.tq_weighted += v.tq_weighted;
      f.tq_weight += v.tq_weight;
    }
    return { from, to, days, names: new Map([...names].map(([k, v]) => [k, v.name])), completeness: c, estimatedDays: parts.estimatedDays };
  }

  /** The default order: days in calendar order; anything else by spend, highest first. */
  private natural(by: ProfitDimension): SortState[] {
    return by === 'day'
      ? [{ key: 'key', dir: 'asc' }]
      : [
          { key: 'spend', dir: 'desc' },
          { key: 'key', dir: 'asc' },
        ];
  }

  async table(q: ProfitRequest, request: TableRequest): Promise<TablePageOf<ProfitRow, ProfitTotals>> {
    const { rows, totals } = await this.rows(q);
    return memoryPage(rows, request, this.natural(q.by), totals);
  }

  async export(q: ProfitRequest, request: TableRequest): Promise<TableExport<ProfitRow>> {
    const page = await this.table(q, { ...request, page: 1, page_size: Number.MAX_SAFE_INTEGER });
    return {
      file: profitCsvFile(q.by, q.start_date, q.end_date),
      fields: profitCsvFields(q.by),
      chunks: [page.rows],
    };
  }
}

function flatten(table: RateTable): ExchangeRate[] {
  const out: ExchangeRate[] = [];
  for (const [month, byCurrency] of Object.entries(table))
    for (const [currency, rate] of Object.entries(byCurrency)) out.push({ month, currency, rate });
  return out.sort((a, b) => a.month.localeCompare(b.month) || a.currency.localeCompare(b.currency));
}
