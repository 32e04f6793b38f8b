// The campaign creator's form as typed (texts, destination, budget and bid as written), its
// starting values, and the words it answers with.
import {
  ApiError,
  CAMPAIGN_DEFAULTS,
  formatAmount,
  formatNumber,
  type AmountReading,
  type BudgetLimits,
  type CallToAction,
  type Objective,
} from '@adops/core';
import { errorText } from '../../lib/errors';

export const BACKEND_ERROR = 'Error inesperado en el backend';

export const OBJECTIVE_LABELS: Record<Objective, string> = {
  OUTCOME_TRAFFIC: 'Tráfico (OUTCOME_TRAFFIC)',
  OUTCOME_SALES: 'Ventas (OUTCOME_SALES)',
};

export interface FormState {
  keyword: string;
  headline: string;
  body: string;
  base_url: string;
  alias: string;
  fb_page: string;
  cta: CallToAction;
  daily_budget: string;
  bid_amount: string;
  objective: Objective;
}

export const initialForm = (baseUrl: string): FormState => ({
  keyword: '',
  headline: '',
  body: '',
  base_url: baseUrl,
  alias: '',
  fb_page: '',
  cta: CAMPAIGN_DEFAULTS.cta,
  // As people write amounts here: comma decimals ("1,00"), read by core's readAmount.
  daily_budget: formatNumber(CAMPAIGN_DEFAULTS.daily_budget),
  bid_amount: formatNumber(CAMPAIGN_DEFAULTS.bid_amount),
  objective: CAMPAIGN_DEFAULTS.objective,
});

/** The page name the preview shows: the page id typed, else the configured default page. */
export const pageNameOf = (fbPage: string) => (fbPage.trim() ? `Página ${fbPage.trim()}` : 'Página por defecto');

export type Feedback = { ok: boolean; text: string };
export type AmountField = 'daily_budget' | 'bid_amount';

/** An amount's problem as the field shows it ("Es ambiguo…"), once the field was left or the form sent. */
export const amountError = (reading: AmountReading, shown: boolean | undefined) =>
  shown && !reading.ok ? reading.problem.charAt(0).toUpperCase() + reading.problem.slice(1) : undefined;

/** An amount with the ad account's currency, as the creator says it ("1.000,00 EUR"). */
export const say = (units: number, limits: BudgetLimits) => formatAmount(units, limits.currency, limits.decimals);

/** The server's detail; 'Error inesperado en el backend' when the answer carried none (e.g. a proxy's error page). */
export function backendError(error: unknown): string {
  if (error instanceof ApiError) {
    const bare = !error.detail || error.detail === `HTTP ${error.status}` || /^\s*</.test(error.detail);
    return bare ? BACKEND_ERROR : error.detail;
  }
  return errorText(error, BACKEND_ERROR);
}

/** Sets one field of the form. */
export type FormSetter = <K extends keyof FormState>(key: K) => (value: FormState[K]) => void;
