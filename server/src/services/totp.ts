// Two-factor sign-in (TOTP, RFC 6238, through otplib): an enrolment keeps a new secret sealed
// and pending until the app's first code confirms it; then ten one-time recovery codes are
// handed out (only their HMACs kept). A code is accepted once: the time step of the last
// accepted one is stored and a code of that step or an earlier one is refused. ADOPS_REQUIRE_2FA
// says who must have it on.
import { randomBytes } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import type { TotpEnrolment, TotpStatus } from '@adops/core';
import type { Config } from '../config.js';
import { DomainError } from '../domain-errors.js';
import type { EntityStore, TotpRecord, UserRecord } from '../store/types.js';
import { hmac, seal, unseal, type Secrets } from './secrets.js';

/** The name authenticator apps show above the code. */
export const TOTP_ISSUER = 'AdOps Console';
/** RFC 6238's defaults, the ones every authenticator app reads: SHA-1, 6 digits, 30 s. */
const PERIOD = 30;
const RECOVERY_CODES = 10;
/** Recovery codes: 10 characters of base32 (50 bits), shown as `xxxxx-xxxxx`. */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

export const ALREADY_ON = 'La verificación en dos pasos ya está activada. Desactívala antes de configurarla de nuevo.';

function recoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = Array.from(bytes, (b) => ALPHABET[b & 31]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** A typed recovery code in its stored form (case, spaces and dashes ignored); null when it cannot be one. */
function normalRecoveryCode(typed: string): string | null {
  const plain = typed.toLowerCase().replace(/[\s-]+/g, '');
  return /^[a-z2-7]{10}$/.test(plain) ? plain : null;
}

export class TotpService {
  constructor(
    private readonly store: EntityStore,
    private readonly secrets: Pick<Secrets, 'sealKey' | 'hashKey'>,
    private readonly policy: Config['require2fa'],
  ) {}

  private hash(code: string): string {
    return hmac(this.secrets.hashKey, `totp-recovery:${code}`);
  }

  /** The user's record while 2FA is on (not a pending enrolment). */
  async enabledFor(userId: string): Promise<TotpRecord | undefined> {
    const record = await this.store.totp.byUser(userId);
    return record?.enabled_at ? record : undefined;
  }

  /** Whether ADOPS_REQUIRE_2FA asks it of this user. */
  requiredOf(user: Pick<UserRecord, 'is_admin'>): boolean {
    return this.policy === 'all' || (this.policy === 'admins' && user.is_admin);
  }

  /** The policy asks 2FA of this user and they have not turned it on yet. */
  async mustEnrol(user: Pick<UserRecord, 'id' | 'is_admin'>): Promise<boolean> {
    return this.requiredOf(user) && !(await this.enabledFor(user.id));
  }

  async status(user: UserRecord): Promise<TotpStatus> {
    const record = await this.store.totp.byUser(user.id);
    return {
      enabled: Boolean(record?.enabled_at),
      pending: Boolean(record && !record.enabled_at),
      enabled_at: record?.enabled_at ?? null,
      recovery_codes_left: record?.enabled_at ? record.recovery_hashes.length : 0,
      required: this.requiredOf(user),
    };
  }

  /** Starts (or restarts) an enrolment: a new secret, sealed, pending until confirmed. 409 while 2FA is on. */
  async begin(user: UserRecord): Promise<TotpEnrolment> {
    const secret = generateSecret();
    if (!(await this.store.totp.begin(user.id, seal(this.secrets.sealKey, secret), new Date().toISOString())))
      throw new DomainError('conflict', ALREADY_ON);
    return { secret, otpauth_url: generateURI({ issuer: TOTP_ISSUER, label: user.email, secret, period: PERIOD }) };
  }

  /** Turns on the pending enrolment with the app's first code; the recovery codes, in clear, this once. */
  async confirm(user: UserRecord, code: string): Promise<string[]> {
    const record = await this.store.totp.byUser(user.id);
    if (record?.enabled_at) throw new DomainError('conflict', ALREADY_ON);
    if (!record) throw new DomainError('conflict', 'No hay ninguna configuración en curso: empieza por generar el código QR.');
    const step = await this.matchingStep(record, code);
    if (step === null)
      throw new DomainError(
        'invalid',
        'El código no es correcto. Comprueba que la hora del teléfono es la correcta y escribe el código que se ve ahora.',
      );
    const codes = Array.from({ length: RECOVERY_CODES }, recoveryCode);
    const done = await this.store.totp.enable(
      user.id,
      record.secret_sealed,
      step,
      codes.map((c) => this.hash(normalRecoveryCode(c)!)),
      new Date().toISOString(),
    );
    if (!done) throw new DomainError('conflict', 'La configuración cambió mientras tanto (¿otra pestaña?): vuelve a empezar.');
    return codes;
  }

  /**
   * Whether `typed` passes the second factor of `record` (2FA on): the app's code for now (±30 s)
   * that was not accepted before, or an unused recovery code. Whatever passes is spent.
   */
  async check(record: TotpRecord, typed: string): Promise<boolean> {
    const digits = typed.replace(/\s+/g, '');
    if (/^\d{6}$/.test(digits)) {
      const step = await this.matchingStep(record, digits);
      return step !== null && (await this.store.totp.acceptStep(record.user_id, step));
    }
    const recovery = normalRecoveryCode(typed);
    return recovery !== null && this.store.totp.useRecoveryCode(record.user_id, this.hash(recovery));
  }

  /** Turns 2FA off (or drops a pending enrolment); 409 when there was none. */
  async disable(userId: string): Promise<void> {
    if (!(await this.store.totp.remove(userId))) throw new DomainError('conflict', 'La verificación en dos pasos no está activada.');
  }

  /** The time step `code` belongs to (now, or one step either side), unless it is not later than the last accepted one. */
  private async matchingStep(record: TotpRecord, code: string): Promise<number | null> {
    if (!/^\d{6}$/.test(code)) return null;
    const epoch = Math.floor(Date.now() / 1000);
    const newest = Math.floor(epoch / PERIOD) + 1;
    const last = record.last_step;
    if (last !== null && last >= newest) return null;
    const result = await verify({
      secret: unseal(this.secrets.sealKey, record.secret_sealed),
      token: code,
      epoch,
      period: PERIOD,
      epochTolerance: PERIOD,
      afterTimeStep: last ?? undefined,
    });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  }
}
