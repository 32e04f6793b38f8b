// The signed-in session as the browser keeps it: one key, `adops_token`, in localStorage
// when "Recordarme" is checked (survives the browser) or in sessionStorage otherwise (gone
// when the tab closes). An expired or malformed token is removed on read.
import { decodeSession, sessionValid, type SessionUser } from '@adops/core';

export const TOKEN_KEY = 'adops_token';

function stores(): Storage[] {
  const out: Storage[] = [];
  try {
    out.push(window.localStorage);
  } catch {
    /* storage disabled */
  }
  try {
    out.push(window.sessionStorage);
  } catch {
    /* storage disabled */
  }
  return out;
}

/** The stored token, whichever storage holds it (localStorage first). */
export function readToken(): string | null {
  for (const s of stores()) {
    const token = s.getItem(TOKEN_KEY);
    if (token) return token;
  }
  return null;
}

export function saveToken(token: string, remember: boolean): void {
  clearToken();
  const [local, session] = stores();
  (remember ? local : (session ?? local))?.setItem(TOKEN_KEY, token);
}

/** Swaps the stored token for a fresh one, in the storage that held the old one. */
export function replaceToken(token: string): void {
  const [local] = stores();
  saveToken(token, local !== undefined && local.getItem(TOKEN_KEY) !== null);
}

export function clearToken(): void {
  for (const s of stores()) s.removeItem(TOKEN_KEY);
}

/** The stored session's user while it is valid; an expired or malformed token is removed. */
export function storedSession(now = Date.now()): { token: string; user: SessionUser } | null {
  const token = readToken();
  if (!token) return null;
  const user = decodeSession(token);
  if (!sessionValid(user, now)) {
    clearToken();
    return null;
  }
  return { token, user };
}
