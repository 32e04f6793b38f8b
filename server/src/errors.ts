// The one error middleware: renders every failure as JSON { detail } with its status;
// 5xx details are logged with the request id, never sent.
import type Koa from 'koa';
import { ZodError } from 'zod';
import { zodDetail } from '@adops/core';
import { DomainError, type ErrorKind } from './domain-errors.js';
import { StoreTextError } from './store/types.js';
import { MEMORY_REFUSAL_DETAIL, MEMORY_REFUSAL_RETRY_SECONDS, isWarehouseMemoryRefusal } from './warehouse/memory-refusal.js';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Seconds the client should wait before trying again (429, 503): sent as Retry-After. */
    readonly retryAfterSeconds?: number,
    /** Fields the answer carries beside `detail` (e.g. `totp_required: true`). */
    readonly fields?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const httpError = (status: number, detail: string, retryAfterSeconds?: number, fields?: Record<string, unknown>) =>
  new HttpError(status, detail, retryAfterSeconds, fields);

/** The status each kind of domain refusal is answered with: the one place a kind becomes HTTP. */
const STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  too_large: 413,
  unsupported: 415,
  too_many: 429,
  client_closed: 499,
  upstream: 502,
  unavailable: 503,
};

/** A domain refusal as the HttpError it is answered with (same sentence, wait and fields; its stack kept for the log). */
export function toHttpError(e: unknown): unknown {
  if (isWarehouseMemoryRefusal(e)) return memoryRefusal(e);
  if (!(e instanceof DomainError)) return e;
  const out = new HttpError(STATUS[e.kind], e.message, e.retryAfterSeconds, e.fields);
  // The domain error's stack, formatted only when read (the 5xx log): formatting a stack costs
  // more than answering the refusal itself, and a 4xx is never logged.
  Object.defineProperty(out, 'stack', { get: () => e.stack, configurable: true });
  return out;
}

/** The engine's memory refusal as a 503 in words; unlike other 503s the error middleware logs it (the operator may raise the limit). */
class MemoryRefusal extends HttpError {}

function memoryRefusal(e: Error): HttpError {
  const out = new MemoryRefusal(503, MEMORY_REFUSAL_DETAIL, MEMORY_REFUSAL_RETRY_SECONDS);
  Object.defineProperty(out, 'stack', { get: () => `warehouse memory limit (ADOPS_WAREHOUSE_MEMORY_LIMIT): ${e.message}`, configurable: true });
  return out;
}

/** The status an error would be answered with, when it names one (HttpError, domain error, Koa's own). */
export function statusOf(e: unknown): number | undefined {
  const err = toHttpError(e) as { status?: number; statusCode?: number } | null | undefined;
  return err?.status ?? err?.statusCode;
}

/** One readable sentence from a zod error, fields by their labels: core's one wording. */
export { zodDetail } from '@adops/core';

const KNOWN: Record<string, [number, string]> = {
  'entity.too.large': [413, 'El cuerpo de la petición es demasiado grande'],
  'entity.parse.failed': [400, 'JSON mal formado'],
  'encoding.unsupported': [415, 'Codificación no soportada'],
  'charset.unsupported': [415, 'Juego de caracteres no soportado'],
  'request.size.invalid': [400, 'Tamaño de la petición no válido'],
  'request.aborted': [400, 'Petición interrumpida'],
};

export function errorHandler(log: (line: string) => void): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (thrown) {
      const raw = toHttpError(thrown);
      const err = raw as Error & { status?: number; statusCode?: number; type?: string; expose?: boolean };
      let status = err.status ?? err.statusCode ?? 500;
      let detail: string;
      if (raw instanceof ZodError) {
        status = 400;
        detail = zodDetail(raw);
      } else if (raw instanceof StoreTextError) {
        status = 400;
        detail = raw.message;
      } else if (err.type && KNOWN[err.type]) {
        [status, detail] = KNOWN[err.type];
      } else if (status === 401) {
        const original = (err as { originalError?: { name?: string } }).originalError;
        detail =
          original?.name === 'TokenExpiredError'
            ? 'La sesión ha expirado. Inicia sesión nuevamente.'
            : raw instanceof HttpError
              ? err.message
              : 'No autenticado';
      } else if (status >= 500 || status < 400) {
        status = status < 400 ? 500 : status;
        detail = status === 502 || status === 503 ? err.message : 'Error interno del servidor';
        if (!(raw instanceof HttpError && status === 503) || raw instanceof MemoryRefusal)
          // The route pattern, not the path: a path's values may be secrets (a token in an old admin URL).
          log(
            `error ${ctx.state.requestId ?? '-'} ${ctx.method} ${(ctx as { _matchedRoute?: string })._matchedRoute ?? ctx.path}: ${err.stack ?? err.message}`,
          );
      } else {
        detail = err.message;
      }
      ctx.status = status;
      ctx.body = raw instanceof HttpError && raw.fields && status < 500 ? { ...raw.fields, detail } : { detail };
      if (status === 401) ctx.set('WWW-Authenticate', 'Bearer');
      if (raw instanceof HttpError && raw.retryAfterSeconds !== undefined)
        ctx.set('Retry-After', String(Math.max(1, Math.ceil(raw.retryAfterSeconds))));
    }
  };
}
