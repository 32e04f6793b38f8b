// Sign-in and sessions: password check, per IP+email failure limit (429), HS256 session tokens
// that name the user by id and their session by `jti`. A token is accepted only while its
// session is stored (sign-out, a password change or an admin ends sessions at once, on every
// instance sharing the entity store); the session's user is read on every request, so a
// deleted user or a removed admin right takes effect on the next one.
import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { UserSession } from '@adops/core';
import type { UserService } from './users.js';
import { verifyPassword, hashPassword } from './passwords.js';
import { httpError } from '../errors.js';
import type { LoginLimiter } from './login-limiter.js';
import type { TotpService } from './totp.js';
import type { EntityStore, SessionRecord, UserRecord } from '../store/types.js';

/** What the token carries. `email` and `is_admin` are for the clients' display only: the server reads the user by `sub`. */
export interface SessionClaims {
  sub: string;
  jti: string;
  email: string;
  is_admin: boolean;
  exp: number;
  iat: number;
}

/** The client a session was opened from (its address as trusted proxies saw it). */
export interface ClientInfo {
  ip: string;
  userAgent: string;
}

export const SESSION_ENDED = 'La sesión ya no es válida. Inicia sesión nuevamente.';

/** A session's last use is written at most this often (a write per request would load the store). */
const TOUCH_EVERY_MS = 60_000;

/** The failure counters sign-in consults: per address and e-mail, per account, per address. */
export interface SignInLimits {
  pair: LoginLimiter;
  account: LoginLimiter;
  ip: LoginLimiter;
}

export const TOO_MANY_FAILURES = 'Demasiados intentos fallidos. Espera unos minutos e inténtalo de nuevo.';
export const TOTP_REQUIRED = 'Introduce el código de verificación de tu app de autenticación (o un código de recuperación).';
export const TOTP_WRONG = 'El código de verificación no es correcto o ya se usó.';

export class AuthService {
  private dummyHash: Promise<string>;

  constructor(
    private readonly users: UserService,
    private readonly store: EntityStore,
    private readonly secret: string,
    private readonly ttlSeconds: number,
    scryptLogN: number,
    private readonly limits: SignInLimits,
    /** Two-factor sign-in: users with it on must give a code too. */
    private readonly totp?: TotpService,
  ) {
    // Unknown e-mails still cost one hash, so timing does not reveal which accounts exist.
    this.dummyHash = hashPassword('not-a-real-password', scryptLogN);
  }

  /** The counter keys of a sign-in attempt: the address with the e-mail, the account, the address. */
  private keys(email: string, ip: string): Array<[LoginLimiter, string]> {
    const account = email.trim().toLowerCase();
    return [
      [this.limits.pair, `${ip}|${account}`],
      [this.limits.account, account],
      [this.limits.ip, ip],
    ];
  }

  /** 429 with Retry-After while any of the keys is over its limit. */
  private async refuseWhileLimited(keys: Array<[LoginLimiter, string]>, now: number): Promise<void> {
    const waits = await Promise.all(keys.map(([limiter, key]) => limiter.retryAfterMs(key, now)));
    const wait = Math.max(...waits);
    if (wait > 0) throw httpError(429, TOO_MANY_FAILURES, wait / 1000);
  }

  private async countFailure(keys: Array<[LoginLimiter, string]>, now: number): Promise<void> {
    await Promise.all(keys.map(([limiter, key]) => limiter.fail(key, now)));
  }

  /**
   * Signs in with the password and, for users with 2FA on, `totp` (the app's code or a recovery
   * code). Whether a second factor is needed is said only after the password was right; a wrong
   * or replayed code counts like a wrong password, and only a full success clears the counts.
   */
  async login(email: string, password: string, client: ClientInfo, totp?: string): Promise<string> {
    const keys = this.keys(email, client.ip);
    const now = Date.now();
    await this.refuseWhileLimited(keys, now);
    const user = await this.users.byEmail(email);
    const ok = await verifyPassword(password, user?.password_hash ?? (await this.dummyHash));
    if (!user || !ok) {
      await this.countFailure(keys, now);
      throw httpError(401, 'Email o contraseña incorrectos');
    }
    const second = await this.totp?.enabledFor(user.id);
    if (second) {
      if (!totp) throw httpError(401, TOTP_REQUIRED, undefined, { totp_required: true });
      if (!(await this.totp!.check(second, totp))) {
        await this.countFailure(keys, now);
        throw httpError(401, TOTP_WRONG, undefined, { totp_required: true });
      }
    }
    // A success clears this address's and this account's counts (not the address's other accounts').
    await Promise.all(keys.slice(0, 2).map(([limiter, key]) => limiter.clear(key)));
    // Expired sessions are dropped as new ones open (the store never grows past the live ones).
    await this.store.sessions.purgeExpired(new Date(now).toISOString());
    return this.open(user, client);
  }

  /**
   * Checks the current password of a signed-in user the way sign-in does: limited per account and
   * address, a wrong one counted (a stolen session cannot guess the password at leisure).
   */
  async checkCurrentPassword(user: UserRecord, password: string, ip: string): Promise<void> {
    const keys = this.keys(user.email, ip);
    const now = Date.now();
    await this.refuseWhileLimited(keys, now);
    if (!(await verifyPassword(password, user.password_hash))) {
      await this.countFailure(keys, now);
      throw httpError(400, 'La contraseña actual no es correcta');
    }
  }

  /**
   * Asks a signed-in user to prove again it is them before a sensitive act (a backup holding
   * every secret): the password and, with 2FA on, a code — limited and counted as sign-in is,
   * so a borrowed session cannot guess at leisure.
   */
  async confirmIdentity(user: UserRecord, password: string, code: string | undefined, ip: string): Promise<void> {
    await this.checkCurrentPassword(user, password, ip);
    const second = await this.totp?.enabledFor(user.id);
    if (!second) return;
    if (!code)
      throw httpError(400, 'Tu cuenta tiene la verificación en dos pasos: indica también el código de tu app', undefined, { totp_required: true });
    if (!(await this.totp!.check(second, code))) {
      await this.countFailure(this.keys(user.email, ip), Date.now());
      throw httpError(400, 'El código de verificación no es correcto', undefined, { totp_required: true });
    }
  }

  /** Opens a session for `user` and signs its token. */
  async open(user: UserRecord, client: ClientInfo): Promise<string> {
    const now = Date.now();
    const at = new Date(now).toISOString();
    const session: SessionRecord = {
      id: randomUUID(),
      user_id: user.id,
      created_at: at,
      expires_at: new Date(now + this.ttlSeconds * 1000).toISOString(),
      last_seen_at: at,
      ip: client.ip,
      user_agent: client.userAgent.slice(0, 256),
    };
    await this.store.sessions.create(session);
    return jwt.sign({ sub: user.id, email: user.email, is_admin: user.is_admin }, this.secret, {
      algorithm: 'HS256',
      expiresIn: this.ttlSeconds,
      jwtid: session.id,
    });
  }

  /**
   * The user of verified claims while their session lives: the token must name a user id, a
   * session and an expiry; the session must be stored, be that user's and not be expired.
   * Throws 401 otherwise. Records the use (at most once a minute).
   */
  async resolve(
    claims: Partial<Record<keyof SessionClaims, unknown>> | undefined,
    ip: string,
  ): Promise<{ user: UserRecord; session: SessionRecord }> {
    const { sub, jti, exp } = claims ?? {};
    if (typeof sub !== 'string' || typeof jti !== 'string' || typeof exp !== 'number') throw httpError(401, SESSION_ENDED);
    const now = Date.now();
    const live = await this.live(jti, sub, now);
    if (!live) throw httpError(401, SESSION_ENDED);
    const { user, session } = live;
    if (now - Date.parse(session.last_seen_at) >= TOUCH_EVERY_MS || session.ip !== ip)
      await this.store.sessions.touch(session.id, new Date(now).toISOString(), ip);
    return { user, session };
  }

  /** Whether the session still lives (open live streams ask every few seconds). */
  async alive(sessionId: string, userId: string): Promise<boolean> {
    return (await this.live(sessionId, userId, Date.now())) !== null;
  }

  /** The session and its user while the session is stored, is that user's, has not expired and the user exists. */
  private async live(sessionId: string, userId: string, now: number): Promise<{ user: UserRecord; session: SessionRecord } | null> {
    const session = await this.store.sessions.byId(sessionId);
    if (!session || session.user_id !== userId || Date.parse(session.expires_at) <= now) return null;
    const user = await this.store.users.byId(userId);
    return user ? { user, session } : null;
  }

  /** Sign-out: the session ends on every instance. */
  async logout(sessionId: string): Promise<void> {
    await this.store.sessions.remove(sessionId);
  }

  /** A user's open sessions, newest first; `current` marks the caller's own. */
  async sessionsOf(userId: string, current?: string): Promise<UserSession[]> {
    const sessions = await this.store.sessions.listByUser(userId, new Date().toISOString());
    return sessions.map((x) => ({
      id: x.id,
      created_at: x.created_at,
      expires_at: x.expires_at,
      last_seen_at: x.last_seen_at,
      ip: x.ip,
      user_agent: x.user_agent,
      current: x.id === current,
    }));
  }

  /** Ends one session of the user; false when the user has no such session. */
  async end(userId: string, sessionId: string): Promise<boolean> {
    const session = await this.store.sessions.byId(sessionId);
    if (!session || session.user_id !== userId) return false;
    return this.store.sessions.remove(sessionId);
  }

  /** Ends every session of the user but `except`; how many ended. */
  endAll(userId: string, except?: string): Promise<number> {
    return this.store.sessions.removeByUser(userId, except);
  }
}
