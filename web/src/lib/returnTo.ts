// Where sign-in returns to: a screen opened while signed out (a shared link, a session that
// ended) is kept as `/login?next=<path>` and reopened, query string and all, after sign-in.
// Only a path of this site is followed, so a crafted link cannot send a user elsewhere.
import type { Location } from 'react-router-dom';

export const HOME = '/dashboard';
const BASE = 'https://adops.invalid';

/** A path of this site to return to, or null: '/x?y' yes; '//evil', 'https://…', '/\\evil', '/login' no. */
export function safeReturnPath(next: string | null | undefined): string | null {
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null;
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE || url.pathname === '/login') return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The login page that returns to `from` (the home screen needs no `next`). */
export function loginPath(from?: Pick<Location, 'pathname' | 'search' | 'hash'>): string {
  const back = from ? safeReturnPath(`${from.pathname}${from.search}${from.hash}`) : null;
  return back && back !== HOME ? `/login?next=${encodeURIComponent(back)}` : '/login';
}

/** Where to go once signed in, from the login page's own query string. */
export function afterSignIn(search: string): string {
  return safeReturnPath(new URLSearchParams(search).get('next')) ?? HOME;
}
