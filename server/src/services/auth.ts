// Sign-in: password check, per IP+email failure limit (429), HS256 session tokens.
import jwt from 'jsonwebtoken';
import type { UserService } from './users.js';
import { verifyPassword, hashPassword } from './passwords.js';
import { httpError } from '../errors.js';

interface Failures {
  count: number;
  resetAt: number;
}

export interface SessionClaims {
  sub: string;
  is_admin: boolean;
  exp: number;
  iat: number;
}

export class AuthService {
  private failures = new Map<string, Failures>();
  private dummyHash: Promise<string>;

  constructor(
    private readonly users: UserService,
    private readonly secret: string,
    private readonly ttlSeconds: number,
    private readonly maxFailures: number,
    private readonly windowMs: number,
    scryptLogN: number,
  ) {
    // Unknown e-mails still cost one hash, so timing does not reveal which accounts exist.
    this.dummyHash = hashPassword('not-a-real-password', scryptLogN);
  }

  private limited(key: string, now: number): boolean {
    const f = this.failures.get(key);
    if (!f) return false;
    if (f.resetAt <= now) {
      this.failures.delete(key);
      return false;
    }
    return f.count >= this.maxFailures;
  }

  private fail(key: string, now: number): void {
    const f = this.failures.get(key);
    if (!f || f.resetAt <= now) this.failures.set(key, { count: 1, resetAt: now + this.windowMs });
    else f.count++;
    if (this.failures.size > 50_000) {
      for (const [k, v] of this.failures) if (v.resetAt <= now) this.failures.delete(k);
    }
  }

  async login(email: string, password: string, ip: string): Promise<string> {
    const key = `${ip}|${email}`;
    const now = Date.now();
    if (this.limited(key, now)) throw httpError(429, 'Demasiados intentos fallidos. Espera unos minutos e inténtalo de nuevo.');
    const user = this.users.byEmail(email);
    const ok = await verifyPassword(password, user?.password_hash ?? (await this.dummyHash));
    if (!user || !ok) {
      this.fail(key, now);
      throw httpError(401, 'Email o contraseña incorrectos');
    }
    this.failures.delete(key);
    return this.sign(user.email, user.is_admin);
  }

  sign(email: string, isAdmin: boolean): string {
    return jwt.sign({ sub: email, is_admin: isAdmin }, this.secret, {
      algorithm: 'HS256',
      expiresIn: this.ttlSeconds,
    });
  }
}
