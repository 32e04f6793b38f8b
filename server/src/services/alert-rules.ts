// What each alert rule kind finds at one instant: the subjects (zones, publishers, advertisers,
// hosts, IPs, campaigns, ad sets) whose condition holds, with the figures behind it. Every query
// goes through the warehouse interface (bound parameters) or the profit service; nothing here
// writes. Zone reports and Meta spend are daily: a rule's last N hours are the calendar days
// (ADOPS_TZ) they touch; traffic rules count raw human events by the minute. Campaign rules judge
// matured days only (spend synced, zone report final) unless they opt into estimates.
// One evaluation round shares its queries between rules (RuleContext.round): each query asks
// for every subject of its kind and window, so 1,000 rules cost one query per distinct window
// (scope and days, minutes, level), not one per rule; each rule then keeps its target and
// thresholds from the shared answer.
import {
  addDays,
  dayRangeWords,
  formatMoney,
  formatNumber,
  CampaignRoiParams,
  formatDateDMY,
  IpBurstParams,
  ReferrerBurstParams,
  RevenueDropParams,
  TqLowParams,
  todayIn,
  type AlertRuleKind,
} from '@adops/core';
import type { z } from 'zod';
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
  /** The network's currency (ADOPS_CURRENCY): amounts in messages carry its symbol. */
  currency?: string;
  /** The evaluation's instant (epoch ms): the injected clock. */
  now: number;
  /** One evaluation round's shared queries (roundQueries of its rules); absent: each rule asks alone. */
  round?: RoundQueries;
}

/** One round's answers, one per query, and the lowest burst threshold its rules ask for per window. */
export interface RoundQueries {
  answers: Map<string, Promise<unknown>>;
  burstFloors: Map<string, number>;
}

const burstWindow = (by: 'host' | 'ip', minutes: number, newOnly: boolean) => `${by}|${minutes}|${newOnly}`;

/** The shared queries of a round of these rules (rules whose parameters do not parse are left to fail alone). */
export function roundQueries(rules: ReadonlyArray<{ kind: string; params: unknown }>): RoundQueries {
  const burstFloors = new Map<string, number>();
  const floor = (key: string, visits: number) => burstFloors.set(key, Math.min(visits, burstFloors.get(key) ?? visits));
  for (const r of rules) {
    if (r.kind === 'referrer_burst') {
      const p = ReferrerBurstParams.safeParse(r.params);
      if (p.success) floor(burstWindow('host', p.data.minutes, p.data.new_only), p.data.visits);
    } else if (r.kind === 'ip_burst') {
      const p = IpBurstParams.safeParse(r.params);
      if (p.success) floor(burstWindow('ip', p.data.minutes, false), p.data.visits);
    }
  }
  return { answers: new Map(), burstFloors };
}

/** How many groups a rule reports at most per run (the worst first). */
export const MAX_FINDINGS = 200;
/** "Never seen" looks this far back (raw events) besides the daily rollup. */
export const NEW_HOST_LOOKBACK_MS = 30 * 86_400_000;
/** Groups one shared burst query returns at most (over the lowest threshold of its rules, most visits first). */
export const SHARED_BURST_LIMIT = 10_000;

/** The round's answer to `key`, asked once (a failed query fails every rule that needs it, and is not kept). */
function shared<T>(ctx: RuleContext, key: string, ask: () => Promise<T>): Promise<T> {
  const answers = ctx.round?.answers;
  if (!answers) return ask();
  let got = answers.get(key) as Promise<T> | undefined;
  if (!got) {
    got = ask();
    answers.set(key, got);
    got.catch(() => answers.delete(key));
  }
  return got;
}

/** A figure in an alert's message: es-ES, rounded once by core's rule (as every screen shows it). */
const fmt = (v: number | null, decimals = 2) => formatNumber(v, decimals);

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

/** Every subject of `scope` with rows in [from, to] and its sums (one query a round per scope and days). */
function allGroups(ctx: RuleContext, scope: 'zone' | 'publisher' | 'advertiser', from: string, to: string) {
  return shared(ctx, `groups|${scope}|${from}|${to}`, async () => {
    const { rows } = await ctx.warehouse.zoneReports.groups({ filters: { start_date: from, end_date: to }, by: SCOPE_DIMS[scope], order: [] });
    const key = (r: GroupRow) => (scope === 'zone' ? r.zone_id : r[scope]) ?? '';
    return rows.filter((r) => key(r) !== '').map((r) => ({ key: key(r), sums: r }));
  });
}

/** The rule's subjects: its target only, or every one. */
async function groupsOf(ctx: RuleContext, scope: 'zone' | 'publisher' | 'advertiser', target: string | null, from: string, to: string) {
  const all = await allGroups(ctx, scope, from, to);
  return target === null ? all : all.filter((g) => g.key === target);
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
      message: `TQ de ${SCOPE_WORD[p.scope]} ${key}: ${fmt(tq)} (umbral ${fmt(p.threshold)}) con ${fmt(sums.impressions, 0)} impresiones ${dayRangeWords({ from, to })}`,
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
      message: `Revenue de ${SCOPE_WORD[p.scope]} ${key}: ${formatMoney(after, ctx.currency)} ${dayRangeWords({ from, to })} frente a ${formatMoney(before, ctx.currency)} una semana antes (${fmt(change, 1)} %; umbral −${fmt(p.drop_percent, 0)} %)`,
      figures: { revenue: after, revenue_last_week: before, change_percent: change },
    });
  }
  return out.sort((a, b) => (a.value ?? 0) - (b.value ?? 0));
}

/**
 * Bursts over `over` visits in the `minutes` before now, by host (optionally never-seen ones) or IP:
 * one query a round per window, over the lowest threshold its rules ask for; a rule on one host
 * the shared answer may have cut off (SHARED_BURST_LIMIT groups) asks for its host alone.
 */
async function burstsOf(ctx: RuleContext, by: 'host' | 'ip', minutes: number, over: number, opts: { host?: string; newOnly?: boolean } = {}) {
  const from = ctx.now - minutes * 60_000;
  const query = { by, from, to: ctx.now, newSince: opts.newOnly ? from - NEW_HOST_LOOKBACK_MS : undefined };
  const window = burstWindow(by, minutes, !!opts.newOnly);
  const floor = Math.min(over, ctx.round?.burstFloors.get(window) ?? over);
  const all = await shared(ctx, `bursts|${window}|${floor}`, () => ctx.warehouse.alerts.bursts({ ...query, over: floor, limit: SHARED_BURST_LIMIT }));
  const mine = all.filter((b) => b.visits > over && (opts.host === undefined || b.key === opts.host));
  if (opts.host !== undefined && mine.length === 0 && all.length >= SHARED_BURST_LIMIT)
    return ctx.warehouse.alerts.bursts({ ...query, over, host: opts.host, limit: MAX_FINDINGS });
  return mine.slice(0, MAX_FINDINGS);
}

async function referrerBurst(raw: unknown, ctx: RuleContext): Promise<Finding[]> {
  const p = ReferrerBurstParams.parse(raw);
  const bursts = await burstsOf(ctx, 'host', p.minutes, p.visits, { host: p.target ?? undefined, newOnly: p.new_only });
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
  const bursts = await burstsOf(ctx, 'ip', p.minutes, p.visits);
  return bursts.map((b) => ({
    subject: b.key,
    value: b.visits,
    threshold: p.visits,
    message: `IP ${b.key}: ${fmt(b.visits, 0)} visitas humanas en ${p.minutes} min (umbral ${fmt(p.visits, 0)})`,
    figures: { visits: b.visits, minutes: p.minutes },
  }));
}

/**
 * A campaign rule's figures over its window: by default only the matured days (spend synced, zone
 * report final), with the window's other days named as left out; with `use_estimates`, the days
 * with synced spend, estimated revenue included. One query a round per level, window and mode.
 */
export async function campaignFigures(
  ctx: Pick<RuleContext, 'profit' | 'tz' | 'round'>,
  p: Pick<z.output<typeof CampaignRoiParams>, 'level' | 'hours' | 'use_estimates'>,
  now: number,
) {
  const { from, to } = windowDays(now, p.hours, ctx.tz);
  const answer = await shared(ctx as RuleContext, `profit|${p.level}|${from}|${to}|${p.use_estimates ? 'estimates' : 'matured'}`, () =>
    ctx.profit.rows({ by: p.level, start_date: from, end_date: to, campaign_id: undefined }, { matured: !p.use_estimates }),
  );
  const leftOut: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) if (!answer.counted.includes(d)) leftOut.push(d);
  // What the sentence says of the days: the window, and those left out and why.
  const why = p.use_estimates ? 'gasto sin sincronizar' : 'gasto sin sincronizar o informe sin cerrar';
  const span = `${dayRangeWords({ from, to })}${leftOut.length ? ` (sin ${leftOut.map(formatDateDMY).join(', ')}: ${why})` : ''}`;
  return { ...answer, from, to, span };
}

async function campaignRoi(raw: unknown, ctx: RuleContext): Promise<Finding[]> {
  const p = CampaignRoiParams.parse(raw);
  const { rows, totals, counted, span } = await campaignFigures(ctx, p, ctx.now);
  // With no matured day in the window (or none with synced spend) there is nothing to judge.
  if (counted.length === 0) return [];
  const word = p.level === 'campaign' ? 'Campaña' : 'Conjunto';
  const estimatedDays = totals.estimated_days.filter((d) => counted.includes(d)).map(formatDateDMY);
  const out: Finding[] = [];
  for (const r of rows) {
    if (r.key === null || (p.target !== null && r.key !== p.target)) continue;
    if (r.spend === null || r.spend < p.min_spend) continue;
    const name = r.name ? `${r.name} (${r.key})` : r.key;
    const figures: Record<string, number | null> = {
      spend: r.spend,
      revenue: r.revenue,
      profit: r.profit,
      roi: r.roi,
      cpc: r.cpc,
      break_even_cpc: r.break_even_cpc,
    };
    // Only a rule that opted in can lean on estimates: it names which of its figures are.
    let estimated = '';
    if (r.estimated) {
      figures.estimated_visits = r.estimated_visits;
      const what = p.metric === 'roi' ? 'revenue, beneficio y ROI' : 'revenue y CPC de equilibrio';
      estimated = ` · estimados: ${what} (informe parcial o sin informe${estimatedDays.length ? ` el ${estimatedDays.join(', ')}` : ''})`;
    }
    if (p.metric === 'roi') {
      if (r.roi === null || !(r.roi < p.threshold)) continue;
      out.push({
        subject: r.key,
        value: r.roi,
        threshold: p.threshold,
        message: `${word} ${name}: ROI ${fmt(r.roi, 1)} % (umbral ${fmt(p.threshold, 1)} %), gasto ${formatMoney(r.spend, ctx.currency)}, revenue ${formatMoney(r.revenue, ctx.currency)} ${span}${estimated}`,
        figures,
      });
    } else {
      if (r.cpc === null || r.break_even_cpc === null || !(r.cpc > r.break_even_cpc)) continue;
      out.push({
        subject: r.key,
        value: r.cpc,
        threshold: r.break_even_cpc,
        message: `${word} ${name}: CPC ${formatMoney(r.cpc, ctx.currency, 4)} sobre el de equilibrio ${formatMoney(r.break_even_cpc, ctx.currency, 4)}, gasto ${formatMoney(r.spend, ctx.currency)} ${span}${estimated}`,
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
