// Campaign helpers shared by server, web and cli: the tracking URL built from alias and
// keyword with Meta's URL macros (named as the beacon reads them), the budget and bid rules with
// their messages in words, and the creator's multipart body.
import type { BudgetLimits, CampaignFormInput } from './contract/campaigns.js';
import { formatAmount, toCents } from './amounts.js';
import { formatMoney, formatMonthName } from './format.js';

/**
 * Tracking parameters filled in by Meta when the ad is served (its URL parameter macros).
 * The macros stay unencoded so Meta recognises and replaces them. The ids, the keyword (`kw`)
 * and the placement carry the names the ad tag's beacon reads (`/api/hit?…&cid=&asid=&adid=&kw=&plc=`),
 * so the landing page forwards its own query string as it is and every visit is attributed.
 */
export const TRACKING_MACROS = [
  ['source', '{{site_source_name}}'],
  ['adid', '{{ad.id}}'],
  ['cid', '{{campaign.id}}'],
  ['asid', '{{adset.id}}'],
  ['ad_name', '{{ad.name}}'],
  ['campaign_name', '{{campaign.name}}'],
  ['adset_name', '{{adset.name}}'],
  ['plc', '{{placement}}'],
] as const;

/** The tracking URL's keyword parameter (the beacon's `kw`). */
export const TRACKING_KEYWORD_PARAM = 'kw';

const OWN_PARAMS = new Set<string>(['alias', TRACKING_KEYWORD_PARAM, ...TRACKING_MACROS.map(([name]) => name)]);

/**
 * The ad's landing link: `baseUrl` with `alias`, `keyword` and the tracking macros added.
 * Existing query parameters of the base URL are kept (ours replace same-named ones).
 * Throws on a base URL that is not http(s).
 */
export function trackingUrl({ baseUrl, alias, keyword }: { baseUrl: string; alias: string; keyword: string }): string {
  const url = new URL(baseUrl.trim());
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('La URL base debe ser http(s)');
  const enc = encodeURIComponent;
  const params = [...url.searchParams].filter(([name]) => !OWN_PARAMS.has(name)).map(([name, value]) => `${enc(name)}=${enc(value)}`);
  params.push(`alias=${enc(alias.trim())}`, `${TRACKING_KEYWORD_PARAM}=${enc(keyword.trim())}`);
  for (const [name, macro] of TRACKING_MACROS) params.push(`${name}=${macro}`);
  return `${url.origin}${url.pathname}?${params.join('&')}${url.hash}`;
}

/** A daily budget and bid, in units of the ad account's currency. */
export interface BudgetAndBid {
  daily_budget: number;
  bid_amount: number;
}

/** What is wrong with a budget and bid: the field to correct and a sentence for the person who typed it. */
export interface BudgetProblem {
  field: 'daily_budget' | 'bid_amount';
  message: string;
}

/**
 * Why the ad account cannot take this budget and bid ("El presupuesto diario no puede superar
 * 1.000,00 EUR"), or null when it can. The server refuses with it; the web and the CLI say it
 * before sending.
 */
export function budgetProblem({ daily_budget, bid_amount }: BudgetAndBid, limits: BudgetLimits): BudgetProblem | null {
  const say = (units: number) => formatAmount(units, limits.currency, limits.decimals);
  const budget = (message: string): BudgetProblem => ({ field: 'daily_budget', message });
  const bid = (message: string): BudgetProblem => ({ field: 'bid_amount', message });
  const budgetCents = toCents(daily_budget);
  const bidCents = toCents(bid_amount);
  if (limits.decimals === 0 && budgetCents % 100 !== 0) return budget(`El presupuesto diario en ${limits.currency} no lleva decimales`);
  if (limits.decimals === 0 && bidCents % 100 !== 0) return bid(`La puja CPC en ${limits.currency} no lleva decimales`);
  if (budgetCents < toCents(limits.min_daily_budget)) return budget(`El presupuesto diario debe ser de al menos ${say(limits.min_daily_budget)}`);
  if (budgetCents > toCents(limits.max_daily_budget)) return budget(`El presupuesto diario no puede superar ${say(limits.max_daily_budget)}`);
  if (bidCents < toCents(limits.min_bid)) return bid(`La puja CPC debe ser de al menos ${say(limits.min_bid)}`);
  if (bidCents * limits.bid_budget_ratio > budgetCents)
    return bid(
      `Con un presupuesto diario de ${say(daily_budget)} la puja CPC puede ser de ${say(maxBid(daily_budget, limits))} como mucho (Meta pide un presupuesto de al menos ${limits.bid_budget_ratio} veces la puja)`,
    );
  return null;
}

/** The highest bid this daily budget allows (Meta: the budget at least `bid_budget_ratio` times the bid), in units. */
export function maxBid(daily_budget: number, limits: BudgetLimits): number {
  const step = limits.decimals === 0 ? 100 : 1;
  return (Math.floor(toCents(daily_budget) / limits.bid_budget_ratio / step) * step) / 100;
}

/** Whether this daily budget is created only after the person confirms it (above the server's threshold). */
export const budgetNeedsConfirmation = (daily_budget: number, limits: BudgetLimits): boolean =>
  toCents(daily_budget) > toCents(limits.confirm_daily_budget_above);

/** The question put before creating a campaign with a high daily budget (web dialog and terminal). */
export function budgetConfirmation(daily_budget: number, limits: BudgetLimits): { title: string; text: string } {
  const say = (units: number) => formatAmount(units, limits.currency, limits.decimals);
  return {
    title: `¿Crear la campaña con ${say(daily_budget)} al día?`,
    text: `El presupuesto diario supera ${say(limits.confirm_daily_budget_above)}. La campaña se crea en pausa; cuando se active podrá gastar ${say(daily_budget)} cada día.`,
  };
}

/**
 * The multipart body of POST /api/create-campaign/: the form's text fields plus the image,
 * an uploaded file (Blob/File) or nothing when `image_url` names a suggestion.
 */
export function campaignFormData(values: CampaignFormInput, image?: Blob | null, filename = 'image'): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === null || value === '') continue;
    form.append(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  if (image) form.append('image', image, image instanceof File && image.name ? image.name : filename);
  return form;
}

/**
 * What a daily budget in the ad account's currency is in the network's, at the month's exchange
 * rate (Rentabilidad's), for the creator to show beside it: '≈ $74,04 al día en USD (tipo de
 * cambio de Nov 2026)'. Null when the currencies are the same or the month has no rate (nothing
 * is guessed).
 */
export function budgetInNetworkCurrency(
  units: number,
  account: string,
  network: string,
  rates: ReadonlyArray<{ month: string; currency: string; rate: number }>,
  month: string,
): string | null {
  if (account.toUpperCase() === network.toUpperCase()) return null;
  const rate = rates.find((r) => r.month === month && r.currency === account.toUpperCase())?.rate;
  if (rate === undefined) return null;
  return `≈ ${formatMoney(units * rate, network)} al día en ${network} (tipo de cambio de ${formatMonthName(month)})`;
}
