// What a service, store, provider or live bus throws when it refuses: a kind of failure and a
// Spanish sentence, nothing of HTTP. The one error middleware (errors.ts) turns the kind into a
// status, so the layers below HTTP can be called from the CLI or a job without faking a request.
// It imports nothing, so every layer may throw it.

/** Why a request was refused; each kind is one HTTP status, chosen at the top (errors.ts). */
export type ErrorKind =
  /** The input breaks a rule (400). */
  | 'invalid'
  /** No session, or it ended (401). */
  | 'unauthorized'
  /** Signed in but not allowed (403). */
  | 'forbidden'
  | 'not_found'
  /** The state forbids it now: already done, taken, running (409). */
  | 'conflict'
  /** A way of asking that no longer exists (410). */
  | 'gone'
  | 'too_large'
  /** A content type or encoding not understood (415). */
  | 'unsupported'
  /** A limit on how often (429; may carry retryAfterSeconds). */
  | 'too_many'
  /** The client left before the answer (499, never seen by it). */
  | 'client_closed'
  /** A service this one depends on (Meta, Pixabay) failed (502). */
  | 'upstream'
  /** Busy for a moment (503; may carry retryAfterSeconds). */
  | 'unavailable';

export interface DomainErrorExtra {
  /** Seconds the caller should wait before trying again (too_many, unavailable). */
  readonly retryAfterSeconds?: number;
  /** Fields the answer carries beside `detail` (e.g. `totp_required: true`). */
  readonly fields?: Record<string, unknown>;
}

export class DomainError extends Error {
  readonly retryAfterSeconds?: number;
  readonly fields?: Record<string, unknown>;

  constructor(
    readonly kind: ErrorKind,
    /** The sentence the user reads (`detail`). */
    detail: string,
    extra: DomainErrorExtra = {},
  ) {
    super(detail);
    this.name = 'DomainError';
    this.retryAfterSeconds = extra.retryAfterSeconds;
    this.fields = extra.fields;
  }
}

/** Whether `e` is a refusal of this kind. */
export const isDomainError = (e: unknown, kind?: ErrorKind): e is DomainError => e instanceof DomainError && (kind === undefined || e.kind === kind);
