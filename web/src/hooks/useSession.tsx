// Session state for the whole SPA: who is signed in, sign-in/sign-out, and the API client
// whose 401 answers sign the user out. Re-checks the stored token on every navigation and
// when it expires, so an expired or malformed token sends the user to /login.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { createApi, type Api, type ApiError, type SessionUser } from '@adops/core';
import { TOKEN_KEY, clearToken, readToken, replaceToken, saveToken, storedSession } from '../lib/session';
import { serverTimeZone } from '../lib/timezone';
import { setNetworkCurrency } from '../lib/currency';
import { loginPath } from '../lib/returnTo';

export interface Session {
  user: SessionUser | null;
  api: Api;
  signIn(token: string, remember: boolean): void;
  /** Keeps the session going with a fresh token (after a password change), same storage. */
  renew(token: string): void;
  /** Ends the session on the server and here. */
  signOut(): void;
}

const SessionContext = createContext<Session | null>(null);

/** Where a user the server requires 2FA of is sent until they enrol ('Mi cuenta'). */
export const TWO_FACTOR_SETUP_PATH = '/change-password';

/** What the login page says when a session was ended by someone else (router state `notice`). */
export const SESSION_ENDED_NOTICE = 'Tu sesión se cerró en otro dispositivo.';
export const SESSION_EXPIRED_NOTICE = 'La sesión ha expirado. Inicia sesión nuevamente.';

/**
 * The server's answer for a token whose session no longer lives (signed out or closed on another
 * device, closed by an admin, password changed elsewhere): server/src/services/auth.ts SESSION_ENDED.
 * The server marks it by this detail alone; a stable field would be sturdier (see the report).
 */
const SESSION_ENDED_DETAIL = /sesión ya no es válida/i;

/** What to tell a user whose token the server refused: ended elsewhere, expired, or the server's own words. */
export function refusedSessionNotice(error: ApiError): string {
  if (error.body.session_ended === true || SESSION_ENDED_DETAIL.test(error.detail)) return SESSION_ENDED_NOTICE;
  return error.detail || SESSION_EXPIRED_NOTICE;
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const location = useLocation();
  const [user, setUser] = useState<SessionUser | null>(() => storedSession()?.user ?? null);
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;
  const locationRef = useRef(location);
  locationRef.current = location;

  /**
   * Forgets the session here and goes to /login. A session that ended by itself (expired,
   * refused) keeps the screen to come back to and says why; 'Cerrar sesión' (no notice) does not.
   */
  const forget = useCallback((notice?: string) => {
    clearToken();
    setUser(null);
    navigateRef.current(notice ? loginPath(locationRef.current) : '/login', { replace: true, state: notice ? { notice } : undefined });
  }, []);

  /** 'Cerrar sesión': the server ends the session (its token stops working everywhere), then it is forgotten here. */
  const signOut = useCallback(() => {
    const token = readToken();
    forget();
    if (token) void fetch('/api/logout', { method: 'POST', headers: { authorization: `Bearer ${token}` }, keepalive: true }).catch(() => undefined);
  }, [forget]);

  const signIn = useCallback((token: string, remember: boolean) => {
    saveToken(token, remember);
    setUser(storedSession()?.user ?? null);
  }, []);

  const renew = useCallback((token: string) => {
    replaceToken(token);
    setUser(storedSession()?.user ?? null);
  }, []);

  const api = useMemo(
    () =>
      createApi({
        baseUrl: '',
        getToken: readToken,
        onTimeZone: serverTimeZone,
        onCurrency: setNetworkCurrency,
        // A 401 on a call that carried a session means the session is gone: sign out.
        onUnauthorized: (error) => {
          if (readToken()) forget(refusedSessionNotice(error));
        },
        // The server requires 2FA of this user and they have not turned it on: to 'Mi cuenta' to enrol.
        onError: (error) => {
          if (error.status === 403 && error.body.totp_setup_required === true) navigateRef.current(TWO_FACTOR_SETUP_PATH, { replace: true });
        },
      }),
    [forget],
  );

  // On load and each navigation: drop an expired/malformed token (storedSession does).
  // biome-ignore lint/correctness/useExhaustiveDependencies: checked on load and on each navigation
  useEffect(() => {
    const current = storedSession()?.user ?? null;
    if (current?.email !== user?.email || current?.exp !== user?.exp || current?.is_admin !== user?.is_admin) setUser(current);
  }, [location.pathname]);

  // Another tab signed in or out: follow it.
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key !== null && e.key !== TOKEN_KEY) return;
      const current = storedSession()?.user ?? null;
      setUser(current);
      if (!current) navigateRef.current('/login', { replace: true });
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  // Sign out the moment the token expires while a page stays open.
  useEffect(() => {
    if (!user) return;
    const ms = user.exp * 1000 - Date.now();
    const timer = setTimeout(() => forget(SESSION_EXPIRED_NOTICE), Math.max(0, Math.min(ms, 2_147_000_000)));
    return () => clearTimeout(timer);
  }, [user, forget]);

  const value = useMemo(() => ({ user, api, signIn, renew, signOut }), [user, api, signIn, renew, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}
