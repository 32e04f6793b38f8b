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
  formatProfitMetric,
  formatByKind,
  REGISTRY,
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
import { campaignWindow, knownNow, type CampaignDays, type WindowRow } from './alert-campaign-window.js';
import type { Dimension, GroupRow, Warehouse } from '../warehouse/index.js';

/** One subject whose condition holds now. */
export interface Finding {
  subject: string;
  value: number | null;
  threshold: number | null;
  message: string;
  figures: Record<string, number | null>;
}

/**
 * What a rule made of one subject at one evaluation: its condition held (`matched`), it did not
 * (`not_matched`), or it was not judged — too little data (`below_min_spend`: spend, impressions,
 * last week's revenue, clicks or visits under the rule's minimum), spend not synced (or without its
 * exchange rate), or revenue that was only an estimate for a rule on closed days. `message` says
 * which, with the figures.
 */
export type VerdictOutcome = 'matched' | 'not_matched' | 'below_min_spend' | 'unsynced_spend' | 'estimated_revenue';

export interface Verdict extends Finding {
  outcome: VerdictOutcome;
  /** Campaign rules: the window's days in words, with those left out and why. */
  window?: string;
}

export interface RuleContext {
  warehouse: Pick<Warehouse, 'zoneReports' | 'alerts'>;
  profit: Pick<ProfitService, 'dayRows'>;
  tz: string;
  /** The network's currency (ADOPS_CURRENCY): amounts in messages carry its symbol. */
  currency?: string;
  /** The evaluation's instant (epoch ms): the injected clock. */
  now: number;
  /** One evaluation round's shared queries (roundQueries of its rules); absent: each rule asks alone. */
  round?: RoundQueries;
  /**
   * Campaign rules' days over [from, to] and what was known of each at ctx.now (a backtest reads
   * its history once and says what was known then); absent: the profit service now.
   */
  campaignDays?: (level: 'campaign' | 'adset', from: string, to: string) => Promise<CampaignDays>;
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
const { change_percent: CHANGE } = REGISTRY.alert;
/** A revenue change in percent, in the one format of the alert's 'Cambio' figure. */
const changeText = (v: number) => formatByKind(CHANGE.kind, v, CHANGE.decimals);

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

async function tqLow(raw: unknown, ctx: RuleContext): Promise<Verdict[]> {
  const p = TqLowParams.parse(raw);
  const { from, to } = windowDays(ctx.now, p.hours, ctx.tz);
  const out: Verdict[] = [];
  for (const { key, sums } of await groupsOf(ctx, p.scope, p.target, from, to)) {
    const tq = sums.tq_weight > 0 ? sums.tq_weighted / sums.tq_weight : null;
    const figures = { tq, impressions: sums.impressions, revenue: sums.revenue };
    const about = `TQ de ${SCOPE_WORD[p.scope]} ${key}: ${fmt(tq)}`;
    const days = dayRangeWords({ from, to });
    if (tq === null || sums.impressions < p.min_impressions) {
      const message = `${about} con ${fmt(sums.impressions, 0)} impresiones ${days}: por debajo del mínimo de ${fmt(p.min_impressions, 0)} impresiones`;
      out.push({ outcome: 'below_min_spend', subject: key, value: tq, threshold: p.threshold, message, figures });
      continue;
    }
    const matched = tq < p.threshold;
    out.push({
      outcome: matched ? 'matched' : 'not_matched',
      subject: key,
      value: tq,
      threshold: p.threshold,
      message: `${about} (umbral ${fmt(p.threshold)}${matched ? '' : ': no está por debajo'}) con ${fmt(sums.impressions, 0)} impresiones ${days}`,
      figures,
    });
  }
  return out.sort(worstFirst);
}

async function revenueDrop(raw: unknown, ctx: RuleContext): Promise<Verdict[]> {
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
  const out: Verdict[] = [];
  for (const { key, sums } of base) {
    const before = sums.revenue;
    const after = current.get(key) ?? 0;
    const about = `Revenue de ${SCOPE_WORD[p.scope]} ${key}: ${formatMoney(after, ctx.currency)} ${dayRangeWords({ from, to })} frente a ${formatMoney(before, ctx.currency)} una semana antes`;
    if (!(before > 0) || before < p.min_revenue) {
      out.push({
        outcome: 'below_min_spend',
        subject: key,
        value: null,
        threshold: p.drop_percent,
        message: `${about}: la base está por debajo del mínimo de ${formatMoney(p.min_revenue, ctx.currency)}`,
        figures: { revenue: after, revenue_last_week: before, change_percent: null },
      });
      continue;
    }
    const change = ((after - before) / before) * 100;
    const matched = -change >= p.drop_percent;
    out.push({
      outcome: matched ? 'matched' : 'not_matched',
      subject: key,
      value: change,
      threshold: p.drop_percent,
      // The change as the alert's figures write it (the registry's alert family: '-60,0%').
      message: `${about} (${changeText(change)}; umbral ${changeText(-p.drop_percent)})`,
      figures: { revenue: after, revenue_last_week: before, change_percent: change },
    });
  }
  return out.sort(worstFirst);
}

/**
 * Bursts over `over` visits in the `minutes` before now, by host (optionally never-seen ones) or IP:
 * one query a round per window, over the lowest threshold its rules ask for; a rule on one host
 * the shared answer may have cut off (SHARED_BURST_LIMIT groups) asks for its host alone. Groups
 * the shared query found under this rule's threshold come back too (its near misses).
 */
async function burstsOf(ctx: RuleContext, by: 'host' | 'ip', minutes: number, over: number, opts: { host?: string; newOnly?: boolean } = {}) {
  const from = ctx.now - minutes * 60_000;
  const query = { by, from, to: ctx.now, newSince: opts.newOnly ? from - NEW_HOST_LOOKBACK_MS : undefined };
  const window = burstWindow(by, minutes, !!opts.newOnly);
  const floor = Math.min(over, ctx.round?.burstFloors.get(window) ?? over);
  const all = await shared(ctx, `bursts|${window}|${floor}|${ctx.now}`, () =>
    ctx.warehouse.alerts.bursts({ ...query, over: floor, limit: SHARED_BURST_LIMIT }),
  );
  const mine = all.filter((b) => opts.host === undefined || b.key === opts.host);
  if (opts.host !== undefined && mine.length === 0 && all.length >= SHARED_BURST_LIMIT)
    return ctx.warehouse.alerts.bursts({ ...query, over, host: opts.host, limit: MAX_FINDINGS });
  return mine;
}

/** A burst rule's verdicts: over its threshold, or a near miss; a named host without a burst is said too. */
function burstVerdicts(
  bursts: ReadonlyArray<{ key: string; visits: number }>,
  visits: number,
  minutes: number,
  label: (key: string) => string,
  target?: string,
): Verdict[] {
  const out: Verdict[] = bursts.map((b): Verdict => {
    const matched = b.visits > visits;
    return {
      outcome: matched ? 'matched' : 'not_matched',
      subject: b.key,
      value: b.visits,
      threshold: visits,
      message: `${label(b.key)}: ${fmt(b.visits, 0)} visitas humanas en ${minutes} min (umbral ${fmt(visits, 0)}${matched ? '' : ': no lo supera'})`,
      figures: { visits: b.visits, minutes },
    };
  });
  if (target !== undefined && !bursts.some((b) => b.key === target))
    out.push({
      outcome: 'not_matched',
      subject: target,
      value: null,
      threshold: visits,
      message: `${label(target)}: sin pico en ${minutes} min (umbral ${fmt(visits, 0)})`,
      figures: { minutes },
    });
  // The bursts come most visits first: matched ones keep that order.
  return out.sort((a, b) => Number(b.outcome === 'matched') - Number(a.outcome === 'matched'));
}

async function referrerBurst(raw: unknown, ctx: RuleContext): Promise<Verdict[]> {
  const p = ReferrerBurstParams.parse(raw);
  const bursts = await burstsOf(ctx, 'host', p.minutes, p.visits, { host: p.target ?? undefined, newOnly: p.new_only });
  return burstVerdicts(bursts, p.visits, p.minutes, (key) => `${p.new_only ? 'Referrer nuevo' : 'Referrer'} ${key}`, p.target ?? undefined);
}

async function ipBurst(raw: unknown, ctx: RuleContext): Promise<Verdict[]> {
  const p = IpBurstParams.parse(raw);
  const bursts = await burstsOf(ctx, 'ip', p.minutes, p.visits);
  return burstVerdicts(bursts, p.visits, p.minutes, (key) => `IP ${key}`);
}

/** The campaign days of a window as known now, one query a round per level and window. */
function campaignDaysNow(ctx: RuleContext, level: 'campaign' | 'adset', from: string, to: string): Promise<CampaignDays> {
  if (ctx.campaignDays) return ctx.campaignDays(level, from, to);
  return shared(ctx, `profit-days|${level}|${from}|${to}`, () => ctx.profit.dayRows(level, from, to)).then(knownNow);
}

/** A campaign rule's verdict on one campaign (ad set) of its window; null when it did nothing in it. */
function campaignVerdict(
  p: z.output<typeof CampaignRoiParams>,
  r: WindowRow,
  w: { span: string; estimatedDays: string[] },
  currency: string | undefined,
): Verdict | null {
  const word = p.level === 'campaign' ? 'Campaña' : 'Conjunto';
  const name = r.name ? `${r.name} (${r.key})` : r.key;
  const f = r.figures;
  const figures: Record<string, number | null> = {
    spend: f.spend,
    revenue: f.revenue,
    profit: f.profit,
    roi: f.roi,
    cpc: f.cpc,
    break_even_cpc: f.break_even_cpc,
  };
  const value = p.metric === 'roi' ? f.roi : f.cpc;
  const left = (why: 'unsynced' | 'not_final') => r.leftOut.filter((l) => l.why === why).map((l) => formatDateDMY(l.day));
  // Too little to judge on the counted days: say what kept the rest out, if anything did.
  if (!r.active || f.spend === null || f.spend < p.min_spend) {
    const unsynced = left('unsynced');
    const unfinal = left('not_final');
    const base = { subject: r.key, value, threshold: p.metric === 'roi' ? p.threshold : f.break_even_cpc, figures };
    if (r.active && f.spend === null)
      return { ...base, outcome: 'unsynced_spend', message: `${word} ${name}: gasto desconocido (falta el tipo de cambio de un mes) ${w.span}` };
    if (unsynced.length)
      return {
        ...base,
        outcome: 'unsynced_spend',
        message: `${word} ${name}: no se juzga, gasto sin sincronizar el ${unsynced.join(', ')} (${w.span})`,
      };
    if (unfinal.length)
      return {
        ...base,
        outcome: 'estimated_revenue',
        message: `${word} ${name}: no se juzga, revenue solo estimado el ${unfinal.join(', ')} (informe parcial o sin informe; la regla solo cuenta días cerrados)`,
      };
    if (!r.active) return null;
    return {
      ...base,
      outcome: 'below_min_spend',
      message: `${word} ${name}: gasto ${formatMoney(f.spend, currency)} por debajo del mínimo de ${formatMoney(p.min_spend, currency)} ${w.span}`,
    };
  }
  // The other minimums (Meta clicks, human visits): too little data to judge either.
  const clicks = f.meta_clicks ?? 0;
  const visits = f.visits ?? 0;
  if (p.min_clicks > 0 || p.min_visits > 0) Object.assign(figures, { meta_clicks: f.meta_clicks, visits: f.visits });
  if (clicks < p.min_clicks || visits < p.min_visits) {
    const short = [
      clicks < p.min_clicks ? `${fmt(clicks, 0)} clics de Meta (mínimo ${fmt(p.min_clicks, 0)})` : '',
      visits < p.min_visits ? `${fmt(visits, 0)} visitas (mínimo ${fmt(p.min_visits, 0)})` : '',
    ].filter(Boolean);
    return {
      outcome: 'below_min_spend',
      subject: r.key,
      value,
      threshold: p.metric === 'roi' ? p.threshold : f.break_even_cpc,
      message: `${word} ${name}: ${short.join(' y ')} ${w.span}: no se juzga`,
      figures,
    };
  }
  // Only a rule that opted in can lean on estimates: it names which of its figures are.
  let estimated = '';
  if (r.estimated_visits > 0) {
    figures.estimated_visits = r.estimated_visits;
    const what = p.metric === 'roi' ? 'revenue, beneficio y ROI' : 'revenue y CPC de equilibrio';
    const days = w.estimatedDays.map(formatDateDMY);
    estimated = ` · estimados: ${what} (informe parcial o sin informe${days.length ? ` el ${days.join(', ')}` : ''})`;
  }
  if (p.metric === 'roi') {
    const matched = f.roi !== null && f.roi < p.threshold;
    return {
      outcome: matched ? 'matched' : 'not_matched',
      subject: r.key,
      value: f.roi,
      threshold: p.threshold,
      // ROI as Rentabilidad and the alert's figures write it (the registry's one format: '-80,00%').
      message: `${word} ${name}: ROI ${formatProfitMetric('roi', f.roi)} (umbral ${formatProfitMetric('roi', p.threshold)}${matched ? '' : ': no está por debajo'}), gasto ${formatMoney(f.spend, currency)}, revenue ${formatMoney(f.revenue, currency)} ${w.span}${estimated}`,
      figures,
    };
  }
  const matched = f.cpc !== null && f.break_even_cpc !== null && f.cpc > f.break_even_cpc;
  return {
    outcome: matched ? 'matched' : 'not_matched',
    subject: r.key,
    value: f.cpc,
    threshold: f.break_even_cpc,
    message: `${word} ${name}: CPC ${formatMoney(f.cpc, currency, 4)} ${matched ? 'sobre' : 'no supera'} el de equilibrio ${formatMoney(f.break_even_cpc, currency, 4)}, gasto ${formatMoney(f.spend, currency)} ${w.span}${estimated}`,
    figures,
  };
}

async function campaignRoi(raw: unknown, ctx: RuleContext): Promise<Verdict[]> {
  const p = CampaignRoiParams.parse(raw);
  const { from, to } = windowDays(ctx.now, p.hours, ctx.tz);
  const w = campaignWindow(await campaignDaysNow(ctx, p.level, from, to), from, to, p.use_estimates);
  const out: Verdict[] = [];
  for (const r of w.rows) {
    if (p.target !== null && r.key !== p.target) continue;
    const v = campaignVerdict(p, r, w, ctx.currency);
    if (v) out.push({ ...v, window: w.span });
  }
  // A named campaign with nothing in the window is said too.
  if (p.target !== null && out.length === 0)
    out.push({
      outcome: 'below_min_spend',
      subject: p.target,
      value: null,
      threshold: p.metric === 'roi' ? p.threshold : null,
      message: `${p.level === 'campaign' ? 'Campaña' : 'Conjunto'} ${p.target}: sin gasto ni visitas ${w.span}`,
      figures: { spend: null },
    });
  return out.sort(worstFirst);
}

/** Matched first (the worst value first), then the rest in the same order; ties by subject, so the order never depends on the engine's. */
function worstFirst(a: Verdict, b: Verdict): number {
  const m = Number(b.outcome === 'matched') - Number(a.outcome === 'matched');
  const v = (a.value ?? Number.POSITIVE_INFINITY) - (b.value ?? Number.POSITIVE_INFINITY);
  return m || v || (a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : 0);
}

const KINDS: Record<AlertRuleKind, (params: unknown, ctx: RuleContext) => Promise<Verdict[]>> = {
  tq_low: tqLow,
  revenue_drop: revenueDrop,
  referrer_burst: referrerBurst,
  ip_burst: ipBurst,
  campaign_roi: campaignRoi,
};

/** Everything the rule made of each subject it looked at, at ctx.now: matched ones first, the worst first. */
export async function verdicts(kind: string, params: unknown, ctx: RuleContext): Promise<Verdict[]> {
  const run = KINDS[kind as AlertRuleKind];
  if (!run) throw new Error(`tipo de regla desconocido: ${kind}`);
  return run(params, ctx);
}

/** The matched verdicts, at most MAX_FINDINGS (the worst first). */
export const matchedOf = (all: readonly Verdict[]): Finding[] =>
  all
    .filter((v) => v.outcome === 'matched')
    .slice(0, MAX_FINDINGS)
    .map(({ outcome: _, window: __, ...f }) => f);

/** The subjects whose condition holds at ctx.now (at most MAX_FINDINGS, the worst first). */
export async function findings(kind: string, params: unknown, ctx: RuleContext): Promise<Finding[]> {
  return matchedOf(await verdicts(kind, params, ctx));
}
