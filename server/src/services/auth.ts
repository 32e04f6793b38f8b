// Sign-in and sessions: password check, attempts counted before the hash and limited per address,
// account and known device (429), HS256 session tokens that name the user by id and their session
// by `jti`. A token is accepted only while its session is stored (sign-out, a password change or
// an admin ends sessions at once, on every instance sharing the entity store); the session's user
// is read on every request, so a deleted user or a removed admin right takes effect on the next one.
import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { UserSession } from '@adops/core';
import type { UserService } from './users.js';
import { verifyPassword, hashPassword } from './passwords.js';
import { DomainError } from '../domain-errors.js';
import type { LoginLimiter } from '../live/types.js';
import type { DeviceTokens } from './devices.js';
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

/**
 * The counters sign-in consults: per address and e-mail, per account (sign-ins from unknown
 * devices), per address, and per known device or session (its own count: failures from
 * elsewhere never lock it).
 */
export interface SignInLimits {
  pair: LoginLimiter;
  account: LoginLimiter;
  ip: LoginLimiter;
  device: LoginLimiter;
}

export const TOO_MANY_FAILURES = 'Demasiados intentos fallidos. Espera unos minutos e inténtalo de nuevo.';
export const TOTP_REQUIRED = 'Introduce el código de verificación de tu app de autenticación (o un código de recuperación).';
export const TOTP_WRONG = 'El código de verificación no es correcto o ya se usó.';
export const WRONG_CURRENT_PASSWORD = 'La contraseña actual no es correcta';

/** One counter an attempt goes through: whether it can refuse the attempt, and what a success does to it. */
interface Counter {
  limiter: LoginLimiter;
  key: string;
  /** Refuses the attempt when over its limit (else only counted). */
  judges: boolean;
  /** A success starts the count over, or only takes this attempt back. */
  onSuccess: 'clear' | 'release';
}

/**
 * A password attempt, counted before its hash (reserve), settled after: a failure stays counted,
 * a success clears or takes back its counts, a right password still waiting for its code takes
 * its counts back. A refused attempt stays counted too (a flood keeps its window full).
 */
class Attempt {
  constructor(private readonly counters: Counter[]) {}

  /** Counts the attempt everywhere; 429 with Retry-After when a judging counter is over its limit. */
  async reserve(now: number): Promise<void> {
    const waits = await Promise.all(this.counters.map((c) => c.limiter.hit(c.key, now)));
    const wait = Math.max(0, ...waits.filter((_, i) => this.counters[i].judges));
    if (wait > 0) throw new DomainError('too_many', TOO_MANY_FAILURES, { retryAfterSeconds: wait / 1000 });
  }

  /** Not a failure after all (the password was right; the code is asked next). */
  async release(): Promise<void> {
    await Promise.all(this.counters.map((c) => c.limiter.release(c.key)));
  }

  async succeed(): Promise<void> {
    await Promise.all(this.counters.map((c) => (c.onSuccess === 'clear' ? c.limiter.clear(c.key) : c.limiter.release(c.key))));
  }
}

/** What a sign-in gives: the session token, and the device's token (kept by the browser or terminal). */
export interface SignedIn {
  token: string;
  deviceToken: string;
}

export class AuthService {
  private dummyHash: Promise<string>;

  constructor(
    private readonly users: UserService,
    private readonly store: EntityStore,
    private readonly secret: string,
    private readonly ttlSeconds: number,
    scryptLogN: number,
    private readonly limits: SignInLimits,
    private readonly devices: DeviceTokens,
    /** Two-factor sign-in: users with it on must give a code too. */
    private readonly totp?: TotpService,
  ) {
    // Unknown e-mails still cost one hash, so timing does not reveal which accounts exist.
    this.dummyHash = hashPassword('not-a-real-password', scryptLogN);
  }

  /**
   * The counters of a sign-in: a known device's own count only; from anywhere else the address
   * with the e-mail, the account (unknown devices share its limit) and the address. A success
   * clears the first two and takes the attempt back from the address (not its other accounts').
   */
  private signInAttempt(email: string, ip: string, deviceNonce: string | null): Attempt {
    if (deviceNonce) return new Attempt([{ limiter: this.limits.device, key: `device:${deviceNonce}`, judges: true, onSuccess: 'clear' }]);
    const account = email.trim().toLowerCase();
    return new Attempt([
      { limiter: this.limits.pair, key: `${ip}|${account}`, judges: true, onSuccess: 'clear' },
      { limiter: this.limits.account, key: account, judges: true, onSuccess: 'clear' },
      { limiter: this.limits.ip, key: ip, judges: true, onSuccess: 'release' },
    ]);
  }

  /**
   * Signs in with the password and, for users with 2FA on, `totp` (the app's code or a recovery
   * code); `deviceToken` is the one this browser or terminal kept from an earlier sign-in to the
   * account, if any. Every attempt is counted before the password is checked; whether a second
   * factor is needed is said only after the password was right; a wrong or replayed code counts
   * like a wrong password, and only a full success clears the counts.
   */
  async login(email: string, password: string, client: ClientInfo, totp?: string, deviceToken?: string | null): Promise<SignedIn> {
    const deviceNonce = deviceToken ? this.devices.nonceFor(deviceToken, email) : null;
    const attempt = this.signInAttempt(email, client.ip, deviceNonce);
    const now = Date.now();
    await attempt.reserve(now);
    const user = await this.users.byEmail(email);
    // A known device's check waits with trusted work; anyone else's in the fair anonymous queue.
    const ok = await verifyPassword(password, user?.password_hash ?? (await this.dummyHash), deviceNonce ? null : client.ip);
    if (!user || !ok) throw new DomainError('unauthorized', 'Email o contraseña incorrectos');
    const second = await this.totp?.enabledFor(user.id);
    if (second) {
      if (!totp) {
        await attempt.release();
        throw new DomainError('unauthorized', TOTP_REQUIRED, { fields: { totp_required: true } });
      }
      if (!(await this.totp!.check(second, totp))) throw new DomainError('unauthorized', TOTP_WRONG, { fields: { totp_required: true } });
    }
    await attempt.succeed();
    // Expired sessions are dropped as new ones open (the store never grows past the live ones).
    await this.store.sessions.purgeExpired(new Date(now).toISOString());
    return { token: await this.open(user, client), deviceToken: deviceNonce && deviceToken ? deviceToken : this.devices.issue(email) };
  }

  /**
   * Checks the current password of a signed-in user: judged by the session's own count (failures
   * of others never refuse it), each wrong one also counted against the account's sign-ins from
   * unknown devices (a stolen session cannot guess the password at leisure). Without a session
   * id, judged like a sign-in from `ip`.
   */
  async checkCurrentPassword(user: UserRecord, password: string, ip: string, sessionId?: string): Promise<void> {
    const attempt = this.currentPasswordAttempt(user, ip, sessionId);
    await attempt.reserve(Date.now());
    if (!(await verifyPassword(password, user.password_hash, null))) throw new DomainError('invalid', WRONG_CURRENT_PASSWORD);
    await attempt.succeed();
  }

  /** The counters of a signed-in user's password check (checkCurrentPassword's). */
  private currentPasswordAttempt(user: UserRecord, ip: string, sessionId?: string): Attempt {
    const account = user.email.trim().toLowerCase();
    return sessionId
      ? new Attempt([
          { limiter: this.limits.device, key: `session:${sessionId}`, judges: true, onSuccess: 'clear' },
          { limiter: this.limits.account, key: account, judges: false, onSuccess: 'release' },
        ])
      : this.signInAttempt(account, ip, null);
  }

  /**
   * Asks a signed-in user to prove again it is them before a sensitive act (a backup holding
   * every secret): the password and, with 2FA on, a code — counted before the check as the
   * current-password check is, a wrong code like a wrong password, so a borrowed session cannot
   * guess at leisure.
   */
  async confirmIdentity(user: UserRecord, password: string, code: string | undefined, ip: string, sessionId?: string): Promise<void> {
    const attempt = this.currentPasswordAttempt(user, ip, sessionId);
    await attempt.reserve(Date.now());
    if (!(await verifyPassword(password, user.password_hash, null))) throw new DomainError('invalid', WRONG_CURRENT_PASSWORD);
    const second = await this.totp?.enabledFor(user.id);
    if (second) {
      if (!code) {
        await attempt.release();
        throw new DomainError('invalid', 'Tu cuenta tiene la verificación en dos pasos: indica también el código de tu app', {
          fields: { totp_required: true },
        });
      }
      if (!(await this.totp!.check(second, code)))
        throw new DomainError('invalid', 'El código de verificación no es correcto', { fields: { totp_required: true } });
    }
    await attempt.succeed();
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
    if (typeof sub !== 'string' || typeof jti !== 'string' || typeof exp !== 'number') throw new DomainError('unauthorized', SESSION_ENDED);
    const now = Date.now();
    const live = await this.live(jti, sub, now);
    // session_ended: a stable sign for the faces ('Tu sesión se cerró en otro dispositivo'), whatever the wording.
    if (!live) throw new DomainError('unauthorized', SESSION_ENDED, { fields: { session_ended: true } });
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
