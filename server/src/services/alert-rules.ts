// What each alert rule kind finds at one instant: the subjects (zones, publishers, advertisers,
// hosts, IPs, campaigns, ad sets) whose condition holds, with the figures behind it. Every query
// goes through the warehouse interface (bound parameters) or the profit service; nothing here
// writes. Zone reports and Meta spend are daily: a rule's last N hours are the calendar days
// (ADOPS_TZ) they touch; traffic rules count raw human events by the minute.
import {
  addDays,
  CampaignRoiParams,
  IpBurstParams,
  ReferrerBurstParams,
  RevenueDropParams,
  TqLowParams,
  todayIn,
  type AlertRuleKind,
} from '@adops/core';
import type { ProfitService } from './profit.js';
import type { Dimension, GroupRow, Warehouse } from '../warehouse/index.js';

/** One subject whose condition holds now. */
export interface Finding {
  subject: string;
  value: number | null;
  threshold: number | null;
  message: string;
  figures: Record<string, number | null>;
}

export interface RuleContext {
  warehouse: Pick<Warehouse, 'zoneReports' | 'alerts'>;
  profit: Pick<ProfitService, 'rows'>;
  tz: string;
  /** The evaluation's instant (epoch ms): the injected clock. */
  now: number;
}

/** How many groups a rule reports at most per run (the worst first). */
export const MAX_FINDINGS = 200;
/** "Never seen" looks this far back (raw events) besides the daily rollup. */
export const NEW_HOST_LOOKBACK_MS = 30 * 86_400_000;

const fmt = (v: number | null, decimals = 2) =>
  v === null || !Number.isFinite(v) ? '-' : v.toLocaleString('es-ES', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });

/** The calendar days (tz) the last `hours` hours before `now` touch: [first, today]. */
export function windowDays(now: number, hours: number, tz: string): { from: string; to: string } {
  return { from: todayIn(tz, new Date(now - hours * 3_600_000)), to: todayIn(tz, new Date(now)) };
}

const SCOPE_DIMS: Record<'zone' | 'publisher' | 'advertiser', Dimension[]> = {
  zone: ['zone_id'],
  publisher: ['publisher'],
  advertiser: ['advertiser'],
};
const SCOPE_WORD = { zone: 'zona', publisher: 'publisher', advertiser: 'advertiser' } as const;

async function groupsOf(ctx: RuleContext, scope: 'zone' | 'publisher' | 'advertiser', target: string | null, from: string, to: string) {
  const filters: Record<string, string> = { start_date: from, end_date: to };
  if (target !== null && scope !== 'zone') filters[scope] = target;
  if (target !== null && scope === 'zone') filters.zone_id = target;
  const { rows } = await ctx.warehouse.zoneReports.groups({
    filters: filters as never,
    by: SCOPE_DIMS[scope],
    order: [],
  });
  const key = (r: GroupRow) => (scope === 'zone' ? r.zone_id : r[scope]) ?? '';
  // The zone filter is a substring match: a rule on one zone watches that zone only.
  return rows.filter((r) => key(r) !== '' && (target === null || scope !== 'zone' || key(r) === target)).map((r) => ({ key: key(r), sums: r }));
}

async function tqLow(raw: unknown, ctx: RuleContext): Promise<Finding[]> {
  const p = TqLowParams.parse(raw);
  const { from, to } = windowDays(ctx.now, p.hours, ctx.tz);
  const out: Finding[] = [];
  for (const { key, sums } of await groupsOf(ctx, p.scope, p.target, from, to)) {
    const tq = sums.tq_weight > 0 ? sums.tq_weighted / sums.tq_weight : null;
    if (tq === null || sums.impressions < p.min_impressions || !(tq < p.threshold)) continue;
    out.push({
      subject: key,
      value: tq,
      threshold: p.threshold,
      message: `TQ de ${SCOPE_WORD[p.scope]} ${key}: ${fmt(tq)} (umbral ${fmt(p.threshold)}) con ${fmt(sums.impressions, 0)} impresiones del ${from} al ${to}`,
      figures: { tq, impressions: sums.impressions, revenue: sums.revenue },
    });
  }
  return out.sort((a, b) => (a.value ?? 0) - (b.value ?? 0));
}

async function revenueDrop(raw: unknown, ctx: RuleContext): Promise<Finding[]> {
  const p = RevenueDropParams.parse(raw);
  // Complete days only (today's report is still arriving): the days the last N hours cover,
  // ending yesterday, against the same weekdays a week earlier.
  const days = Math.max(1, Math.ceil(p.hours / 24));
  const to = addDays(todayIn(ctx.tz, new Date(ctx.now)), -1);
  const from = addDays(to, -(days - 1));
  const [now, base] = await Promise.all([
    groupsOf(ctx, p.scope, p.target, from, to),
    groupsOf(ctx, p.scope, p.target, addDays(from, -7), addDays(to, -7)),
  ]);
  const current = new Map(now.map((g) => [g.key, g.sums.revenue]));
  const out: Finding[] = [];
  for (const { key, sums } of base) {
    const before = sums.revenue;
    if (!(before > 0) || before < p.min_revenue) continue;
    const after = current.get(key) ?? 0;
    const change = ((after - before) / before) * 100;
    if (!(-change >= p.drop_percent)) continue;
    out.push({
      subject: key,
      value: change,
      threshold: p.drop_percent,
      message: `Revenue de ${SCOPE_WORD[p.scope]} ${key}: ${fmt(after)} del ${from} al ${to} frente a ${fmt(before)} una semana antes (${fmt(change, 1)} %; umbral −${fmt(p.drop_percent, 0)} %)`,
      figures: { revenue: after, revenue_last_week: before, change_percent: change },
    });
  }
  return out.sort((a, b) => (a.value ?? 0) - (b.value ?? 0));
}

async function referrerBurst(raw: unknown, ctx: RuleContext): Promise<Finding[]> {
  const p = ReferrerBurstParams.parse(raw);
  const from = ctx.now - p.minutes * 60_000;
  const bursts = await ctx.warehouse.alerts.bursts({
    by: 'host',
    from,
    to: ctx.now,
    over: p.visits,
    host: p.target ?? undefined,
    newSince: p.new_only ? from - NEW_HOST_LOOKBACK_MS : undefined,
    limit: MAX_FINDINGS,
  });
  return bursts.map((b) => ({
    subject: b.key,
    value: b.visits,
    threshold: p.visits,
    message: `${p.new_only ? 'Referrer nuevo' : 'Referrer'} ${b.key}: ${fmt(b.visits, 0)} visitas humanas en ${p.minutes} min (umbral ${fmt(p.visits, 0)})`,
    figures: { visits: b.visits, minutes: p.minutes },
  }));
}

async function ipBurst(raw: unknown, ctx: RuleContext): Promise<Finding[]> {
  const p = IpBurstParams.parse(raw);
  const bursts = await ctx.warehouse.alerts.bursts({
    by: 'ip',
    from: ctx.now - p.minutes * 60_000,
    to: ctx.now,
    over: p.visits,
    limit: MAX_FINDINGS,
  });
  return bursts.map((b) => ({
    subject: b.key,
    value: b.visits,
    threshold: p.visits,
    message: `IP ${b.key}: ${fmt(b.visits, 0)} visitas humanas en ${p.minutes} min (umbral ${fmt(p.visits, 0)})`,
    figures: { visits: b.visits, minutes: p.minutes },
  }));
}

async function campaignRoi(raw: unknown, ctx: RuleContext): Promise<Finding[]> {
  const p = CampaignRoiParams.parse(raw);
  const { from, to } = windowDays(ctx.now, p.hours, ctx.tz);
  const { rows } = await ctx.profit.rows({ by: p.level, start_date: from, end_date: to, campaign_id: undefined });
  const word = p.level === 'campaign' ? 'Campaña' : 'Conjunto';
  const out: Finding[] = [];
  for (const r of rows) {
    if (r.key === null || (p.target !== null && r.key !== p.target)) continue;
    if (r.spend === null || r.spend < p.min_spend) continue;
    const name = r.name ? `${r.name} (${r.key})` : r.key;
    const figures = { spend: r.spend, revenue: r.revenue, profit: r.profit, roi: r.roi, cpc: r.cpc, break_even_cpc: r.break_even_cpc };
    if (p.metric === 'roi') {
      if (r.roi === null || !(r.roi < p.threshold)) continue;
      out.push({
        subject: r.key,
        value: r.roi,
        threshold: p.threshold,
        message: `${word} ${name}: ROI ${fmt(r.roi, 1)} % (umbral ${fmt(p.threshold, 1)} %), gasto ${fmt(r.spend)}, revenue ${fmt(r.revenue)} del ${from} al ${to}`,
        figures,
      });
    } else {
      if (r.cpc === null || r.break_even_cpc === null || !(r.cpc > r.break_even_cpc)) continue;
      out.push({
        subject: r.key,
        value: r.cpc,
        threshold: r.break_even_cpc,
        message: `${word} ${name}: CPC ${fmt(r.cpc, 4)} sobre el de equilibrio ${fmt(r.break_even_cpc, 4)}, gasto ${fmt(r.spend)} del ${from} al ${to}`,
        figures,
      });
    }
  }
  return out.sort((a, b) => (a.value ?? 0) - (b.value ?? 0));
}

const KINDS: Record<AlertRuleKind, (params: unknown, ctx: RuleContext) => Promise<Finding[]>> = {
  tq_low: tqLow,
  revenue_drop: revenueDrop,
  referrer_burst: referrerBurst,
  ip_burst: ipBurst,
  campaign_roi: campaignRoi,
};

/** The subjects whose condition holds at ctx.now (at most MAX_FINDINGS, the worst first). */
export async function findings(kind: string, params: unknown, ctx: RuleContext): Promise<Finding[]> {
  const run = KINDS[kind as AlertRuleKind];
  if (!run) throw new Error(`tipo de regla desconocido: ${kind}`);
  return (await run(params, ctx)).slice(0, MAX_FINDINGS);
}
