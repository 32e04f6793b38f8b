// Rentabilidad: the warehouse's profit query (spend per currency and month, revenue its visits
// earned) turned into rows — spend converted with the admins' monthly exchange rates (a missing
// rate leaves the spend unknown and is named, never guessed), every figure from core's registry —
// sorted, paged and exported by the table machinery. The rates live in the entity store's settings.
import {
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

interface Group {
  key: string | null;
  name: string | null;
  nameMonth: string;
  campaign_id: string | null;
  adset_id: string | null;
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

const NO_KEY = '\u0000';

function sumsOf(g: Omit<Group, 'key' | 'name' | 'nameMonth' | 'campaign_id' | 'adset_id'>): ProfitSums {
  return {
    spend: g.missingRate ? null : g.spend,
    meta_clicks: g.meta_clicks,
    meta_impressions: g.meta_impressions,
    visits: g.visits,
    revenue: g.revenue,
    tq_weighted: g.tq_weighted,
    tq_weight: g.tq_weight,
  };
}

export class ProfitService {
  constructor(
    private readonly warehouse: ProfitWarehouse,
    private readonly settings: SettingsRepository,
    private readonly config: Pick<Config, 'tz' | 'currency'>,
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

  /** Every group of the range with its figures, and the totals over them. */
  async rows(q: ProfitRequest): Promise<{ rows: ProfitRow[]; totals: ProfitTotals }> {
    const [parts, rates] = await Promise.all([
      this.warehouse.parts({ by: q.by, from: q.start_date, to: q.end_date, tz: this.config.tz, campaignId: q.campaign_id, adsetId: q.adset_id }),
      this.settings.get(RATES_KEY) as Promise<RateTable | undefined>,
    ]);
    const groups = new Map<string, Group>();
    const group = (key: string | null): Group => {
      const found = groups.get(key ?? NO_KEY);
      if (found) return found;
      const g = emptyGroup(key);
      groups.set(key ?? NO_KEY, g);
      return g;
    };
    const missing = new Map<string, MissingRate>();
    for (const p of parts.spend) {
      const g = group(p.key);
      const rate = p.currency === this.config.currency ? 1 : rates?.[p.month]?.[p.currency];
      if (rate === undefined) {
        g.missingRate = true;
        missing.set(`${p.month}|${p.currency}`, { month: p.month, currency: p.currency });
      } else g.spend += p.spend * rate;
      g.meta_clicks += p.clicks;
      g.meta_impressions += p.impressions;
      if (p.name !== null && p.month >= g.nameMonth) {
        g.name = p.name;
        g.nameMonth = p.month;
      }
      g.campaign_id ??= p.campaign_id;
      g.adset_id ??= p.adset_id;
    }
    for (const v of parts.visits) {
      const g = group(v.key);
      g.visits += v.visits;
      g.revenue += v.revenue;
      g.estimated_visits += v.estimated_visits;
      g.tq_weighted += v.tq_weighted;
      g.tq_weight += v.tq_weight;
      g.campaign_id ??= v.campaign_id;
      g.adset_id ??= v.adset_id;
    }
    const all = emptyGroup(null);
    const rows: ProfitRow[] = [];
    for (const g of groups.values()) {
      all.spend += g.spend;
      all.missingRate ||= g.missingRate;
      all.meta_clicks += g.meta_clicks;
      all.meta_impressions += g.meta_impressions;
      all.visits += g.visits;
      all.revenue += g.revenue;
      all.estimated_visits += g.estimated_visits;
      all.tq_weighted += g.tq_weighted;
      all.tq_weight += g.tq_weight;
      const f = profitFigures(sumsOf(g));
      rows.push({
        key: g.key,
        name: g.name,
        campaign_id: g.campaign_id,
        adset_id: g.adset_id,
        ...f,
        estimated_visits: g.estimated_visits,
        estimated: g.estimated_visits > 0,
        missing_rate: g.missingRate,
        losing: f.profit !== null && f.profit < 0,
      });
    }
    return {
      rows,
      totals: {
        ...profitFigures(sumsOf(all)),
        estimated_visits: all.estimated_visits,
        currency: this.config.currency,
        estimated_days: parts.estimatedDays,
        missing_rates: [...missing.values()].sort((a, b) => a.month.localeCompare(b.month) || a.currency.localeCompare(b.currency)),
      },
    };
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

function emptyGroup(key: string | null): Group {
  return {
    key,
    name: null,
    nameMonth: '',
    campaign_id: null,
    adset_id: null,
    spend: 0,
    missingRate: false,
    meta_clicks: 0,
    meta_impressions: 0,
    visits: 0,
    revenue: 0,
    estimated_visits: 0,
    tq_weighted: 0,
    tq_weight: 0,
  };
}

function flatten(table: RateTable): ExchangeRate[] {
  const out: ExchangeRate[] = [];
  for (const [month, byCurrency] of Object.entries(table))
    for (const [currency, rate] of Object.entries(byCurrency)) out.push({ month, currency, rate });
  return out.sort((a, b) => a.month.localeCompare(b.month) || a.currency.localeCompare(b.currency));
}
