// Known devices (OWASP's "device cookies"): a browser or terminal that signed in to an account
// keeps a token naming that account, a random nonce and the server's signature. Sign-in from it
// is judged by its own failure count, so failures from elsewhere never lock its owner out. The
// token grants nothing else: the password (and code) are still asked.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { hmac } from './secrets.js';

/** The cookie a browser keeps its tokens in (sent to the sign-in route only). */
export const DEVICE_COOKIE = 'adops_device';
/** How long a device stays known without signing in again. */
export const DEVICE_TTL_DAYS = 365;
/** Tokens one browser keeps (accounts signed in from it), newest first. */
const MAX_PER_COOKIE = 5;
const VERSION = 'd1';

export class DeviceTokens {
  constructor(private readonly key: Buffer) {}

  private signature(account: string, nonce: string): string {
    return hmac(this.key, `device|${account}|${nonce}`);
  }

  /** A new token for the account (e-mail, as typed: compared without case). */
  issue(email: string): string {
    const nonce = randomBytes(16).toString('base64url');
    return `${VERSION}.${nonce}.${this.signature(email.trim().toLowerCase(), nonce)}`;
  }

  /** The device's nonce when `token` is one of ours for this account; null otherwise. */
  nonceFor(token: string, email: string): string | null {
    const [version, nonce, signature, ...rest] = token.split('.');
    if (version !== VERSION || !nonce || !signature || rest.length > 0 || !/^[\w-]{22}$/.test(nonce)) return null;
    const expected = Buffer.from(this.signature(email.trim().toLowerCase(), nonce));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected) ? nonce : null;
  }

  /** The one token of a cookie's list that is known for this account, if any. */
  fromCookie(cookie: string | undefined, email: string): string | null {
    for (const token of splitCookie(cookie)) if (this.nonceFor(token, email)) return token;
    return null;
  }
}

/** The tokens of a cookie value (`~`-separated), well-formed ones only. */
function splitCookie(cookie: string | undefined): string[] {
  if (!cookie || cookie.length > 1024) return [];
  return cookie.split('~').filter((t) => t.startsWith(`${VERSION}.`));
}

/** The cookie value after a sign-in with `token`: it first, then the browser's other accounts' tokens. */
export function cookieWith(cookie: string | undefined, token: string): string {
  const nonce = token.split('.')[1];
  const others = splitCookie(cookie).filter((t) => t.split('.')[1] !== nonce);
  return [token, ...others].slice(0, MAX_PER_COOKIE).join('~');
}
