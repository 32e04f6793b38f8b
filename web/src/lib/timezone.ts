// The reporting time zone (the server's ADOPS_TZ): report dates, presets and every time shown
// are in it, on every face. Read at start-up from /api/health, then kept to what each answer's
// X-Adops-Tz says (a server whose zone changed is followed); until then, or when the server
// cannot say, the browser's own zone.
import { createApi, isValidTimeZone } from '@adops/core';
import { setNetworkCurrency } from './currency';

let reporting: string | null = null;

function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export function reportingTimeZone(): string {
  return reporting ?? browserTimeZone();
}

/** The zone an API answer named (X-Adops-Tz): taken from then on. */
export function serverTimeZone(tz: string): void {
  if (isValidTimeZone(tz)) reporting = tz;
}

/** Asks the server for its reporting time zone and currency (public health check), waiting at most `timeoutMs`. */
export async function loadReportingTimeZone(timeoutMs = 3000): Promise<void> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    const { tz, currency } = await createApi({ baseUrl: '' }).health.check(undefined, { signal: abort.signal });
    if (typeof tz === 'string' && isValidTimeZone(tz)) reporting = tz;
    if (currency) setNetworkCurrency(currency);
  } catch {
    /* keep the browser's zone */
  } finally {
    clearTimeout(timer);
  }
}

let asked: Promise<void> | null = null;
let known = false;

/** The start-up question, asked once: settles when the server answered or the wait ran out. */
export function reportingZoneAsked(): Promise<void> {
  asked ??= loadReportingTimeZone().finally(() => {
    known = true;
  });
  return asked;
}

/** Whether the start-up question has settled (screens whose dates depend on the zone wait for it). */
export function reportingZoneSettled(): boolean {
  return known;
}
