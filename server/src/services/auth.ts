// Sign-in: password check, per IP+email failure limit (429), HS256 session tokens.
import jwt from 'jsonwebtoken';
import type { UserService } from './users.js';
import { verifyPassword, hashPassword } from './passwords.js';
import { httpError } from '../errors.js';
import { MemoryLoginLimiter, type LoginLimiter } from './login-limiter.js';

export interface SessionClaims {
  sub: string;
  is_admin: boolean;
  exp: number;
  iat: number;
}

export class AuthService {
  private dummyHash: Promise<string>;
  /** Failed sign-ins per IP|e-mail (this process's, or shared through Redis). */
  private readonly failures: LoginLimiter;

  constructor(
    private readonly users: UserService,
    private readonly secret: string,
    private readonly ttlSeconds: number,
    maxFailures: number,
    windowMs: number,
    scryptLogN: number,
    limiter?: LoginLimiter,
  ) {
    this.failures = limiter ?? new MemoryLoginLimiter(maxFailures, windowMs);
    // Unknown e-mails still cost one hash, so timing does not reveal which accounts exist.
    this.dummyHash = hashPassword('not-a-real-password', scryptLogN);
  }

  async login(email: string, password: string, ip: string): Promise<string> {
    const key = `${ip}|${email}`;
    const now = Date.now();
    if (await this.failures.limited(key, now)) throw httpError(429, 'Demasiados intentos fallidos. Espera unos minutos e inténtalo de nuevo.');
    const user = await this.users.byEmail(email);
    const ok = await verifyPassword(password, user?.password_hash ?? (await this.dummyHash));
    if (!user || !ok) {
      await this.failures.fail(key, now);
      throw httpError(401, 'Email o contraseña incorrectos');
    }
    await this.failures.clear(key);
    return this.sign(user.email, user.is_admin);
  }

  sign(email: string, isAdmin: boolean): string {
    return jwt.sign({ sub: email, is_admin: isAdmin }, this.secret, {
      algorithm: 'HS256',
      expiresIn: this.ttlSeconds,
    });
  }
}
