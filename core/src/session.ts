// The session token as the web and cli read it: its claims without verifying them (the server
// verifies) and whether it is still valid. Kept apart from the auth contract and its zod schemas,
// so the web's entry chunk (the login page) reads the token without loading zod.
import type { SessionUser } from './contract/auth.js';

/** Reads the claims of a JWT without verifying it (the server verifies); null when malformed. */
export function decodeSession(token: string | null | undefined): SessionUser | null {
  if (!token) return null;
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const b64 = parts[1].replace(/-/g, '+').replace(/_/g, '/');
    const json =
      typeof atob === 'function'
        ? decodeURIComponent(Array.from(atob(b64), (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join(''))
        : Buffer.from(b64, 'base64').toString('utf8');
    const claims = JSON.parse(json) as Record<string, unknown>;
    // Sessions name their user by id (sub) and carry the e-mail for display; older tokens lack it.
    if (typeof claims.sub !== 'string' || typeof claims.email !== 'string' || typeof claims.exp !== 'number') return null;
    return { email: claims.email, is_admin: claims.is_admin === true, exp: claims.exp };
  } catch {
    return null;
  }
}

/** True while the session's expiry (seconds since epoch) is in the future. */
export const sessionValid = (s: SessionUser | null, nowMs = Date.now()): s is SessionUser => s !== null && s.exp * 1000 > nowMs;
