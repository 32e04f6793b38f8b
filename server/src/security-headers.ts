// The headers every answer carries (strict CSP, no framing, nosniff) and HSTS over HTTPS: one
// list for the Koa app and the beacon's lean path; an API answer also names the reporting zone
// and the network's currency (answerHeaders), on the live stream's lean path too.
import { CURRENCY_HEADER, TIME_ZONE_HEADER } from '@adops/core';

/** A year, this host only: the other hosts of the domain are not ours to pin to HTTPS. */
export const HSTS = 'max-age=31536000';

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Content-Security-Policy':
    "default-src 'self'; img-src 'self' data: blob: https:; style-src 'self' 'unsafe-inline'; " +
    "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
};

/** An API answer's headers: the security ones, ADOPS_TZ and ADOPS_CURRENCY (a client notices when they change). */
export function answerHeaders(config: { tz: string; currency: string }): Readonly<Record<string, string>> {
  return { ...SECURITY_HEADERS, [TIME_ZONE_HEADER]: config.tz, [CURRENCY_HEADER]: config.currency };
}
