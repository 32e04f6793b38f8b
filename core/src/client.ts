// The typed API client built from the contract table; works in browsers and in Node (global fetch).
// It binds `endpoints` (each route's method, path and answer type, generated from the contract)
// rather than the contract itself: the client sends no schema, so the web's entry chunk (the login
// page) carries the whole API without zod or any area's contract; types still come from `Contract`.
import type { Contract } from './contract/routes.js';
import { endpoints } from './contract/endpoints.js';
import type { Endpoint, Route, RouteInput, RouteOutput } from './contract/route.js';

/** An HTTP failure with the server's `detail` (status 0 when the server could not be reached). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    /** The JSON answer's other fields (e.g. `totp_required`, `totp_setup_required`). */
    readonly body: Record<string, unknown> = {},
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

/** Every API answer names the server's reporting time zone (ADOPS_TZ) in this header. */
export const TIME_ZONE_HEADER = 'x-adops-tz';
/** …and the network's currency (ADOPS_CURRENCY, ISO 4217) every amount is in, in this one. */
export const CURRENCY_HEADER = 'x-adops-currency';

export interface ClientOptions {
  /** Origin of the server, e.g. http://localhost:8080; '' for same-origin (the web UI). */
  baseUrl?: string;
  getToken?: () => string | null | undefined;
  fetch?: typeof fetch;
  /** Called on any 401 answer before the error is thrown (the web logs the user out). */
  onUnauthorized?: (error: ApiError) => void;
  /** Called on any failed answer before the error is thrown (the web sends a user the server requires 2FA of to 'Mi cuenta'). */
  onError?: (error: ApiError) => void;
  /** Called with the server's reporting time zone (TIME_ZONE_HEADER) of every answer that names it. */
  onTimeZone?: (tz: string) => void;
  /** Called with the network's currency (CURRENCY_HEADER) of every answer that names it. */
  onCurrency?: (currency: string) => void;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** A body sent as is (multipart FormData, CSV text) instead of JSON of the input. */
  rawBody?: BodyInit;
  headers?: Record<string, string>;
}

type CallFn<R extends Route> =
  object extends RouteInput<R>
    ? (input?: RouteInput<R>, options?: CallOptions) => Promise<RouteOutput<R>>
    : (input: RouteInput<R>, options?: CallOptions) => Promise<RouteOutput<R>>;

export type ClientOf<T> = { [K in keyof T]: T[K] extends Route ? CallFn<T[K]> : ClientOf<T[K]> };

const isEndpoint = (v: unknown): v is Endpoint => typeof v === 'object' && v !== null && 'method' in v && 'path' in v;

/** Builds the URL and request init for a route call; exported for streams and downloads. */
export function buildRequest(r: Endpoint, input: Record<string, unknown> = {}, baseUrl = '', rawBody = false): { url: string; body?: string } {
  const rest: Record<string, unknown> = { ...input };
  const path = r.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = rest[name];
    delete rest[name];
    if (v === undefined || v === null || v === '') throw new ApiError(400, `Falta el parámetro ${name}`);
    return encodeURIComponent(String(v));
  });
  const sendsBody = r.method !== 'GET' && r.method !== 'DELETE';
  let url = baseUrl.replace(/\/$/, '') + path;
  // A raw body (an upload) leaves the input to the URL's query.
  if (!sendsBody || rawBody) {
    const q = toQuery(rest);
    if (q) url += `?${q}`;
    return { url };
  }
  return { url, body: JSON.stringify(rest) };
}

export function toQuery(values: Record<string, unknown>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const item of v) q.append(k, String(item));
    else q.append(k, String(v));
  }
  return q.toString();
}

/**
 * Sends a route call and answers the raw response once it is known to be 2xx (an ApiError
 * otherwise): for streamed exports (format=csv|ndjson) that must not be read into memory.
 */
export async function openRoute<R extends Route>(
  r: R,
  input: RouteInput<R> | undefined,
  options: ClientOptions,
  call: CallOptions = {},
): Promise<Response> {
  const { url, body } = buildRequest(r, (input ?? {}) as Record<string, unknown>, options.baseUrl ?? '', call.rawBody !== undefined);
  const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
  const token = options.getToken?.();
  if (token) headers.authorization = `Bearer ${token}`;
  let sent: BodyInit | undefined;
  if (call.rawBody !== undefined) sent = call.rawBody;
  else if (body !== undefined) {
    sent = body;
    headers['content-type'] = 'application/json';
  }
  const doFetch = options.fetch ?? globalThis.fetch;
  let res: Response;
  try {
    // A streamed body (an upload with progress) needs half-duplex in fetch.
    const init = { method: r.method, headers, body: sent, signal: call.signal, ...(sent instanceof ReadableStream ? { duplex: 'half' } : {}) };
    res = await doFetch(url, init as RequestInit);
  } catch (e) {
    if ((e as Error)?.name === 'AbortError') throw e;
    throw new ApiError(0, 'No se pudo conectar con el servidor');
  }
  const tz = res.headers?.get?.(TIME_ZONE_HEADER);
  if (tz) options.onTimeZone?.(tz);
  const currency = res.headers?.get?.(CURRENCY_HEADER);
  if (currency) options.onCurrency?.(currency);
  if (!res.ok) {
    const { detail, body } = await readDetail(res);
    const error = new ApiError(res.status, detail, body);
    if (res.status === 401) options.onUnauthorized?.(error);
    options.onError?.(error);
    throw error;
  }
  return res;
}

export async function callRoute<R extends Route>(
  r: R,
  input: RouteInput<R> | undefined,
  options: ClientOptions,
  call: CallOptions = {},
): Promise<RouteOutput<R>> {
  const res = await openRoute(r, input, options, call);
  if (r.responseType === 'none' || res.status === 204) return undefined as RouteOutput<R>;
  if (r.responseType === 'text') return (await res.text()) as RouteOutput<R>;
  return (await res.json()) as RouteOutput<R>;
}

async function readDetail(res: Response): Promise<{ detail: string; body: Record<string, unknown> }> {
  const text = await res.text().catch(() => '');
  try {
    const parsed = JSON.parse(text) as { detail?: unknown };
    if (typeof parsed.detail === 'string') return { detail: parsed.detail, body: parsed as Record<string, unknown> };
  } catch {
    /* not JSON */
  }
  return { detail: text.trim().slice(0, 300) || `HTTP ${res.status}`, body: {} };
}

function bind(table: object, options: ClientOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(table)) {
    out[key] = isEndpoint(value)
      ? (input?: Record<string, unknown>, call?: CallOptions) => callRoute(value as Route, input as never, options, call)
      : bind(value as object, options);
  }
  return out;
}

export type Api = ClientOf<Contract> & {
  /** A route call answered as the raw response (streamed exports: format=csv|ndjson). */
  open<R extends Route>(route: R, input: RouteInput<R>, call?: CallOptions): Promise<Response>;
};

/** `createApi({ baseUrl, getToken })` → `api.admin.listUsers()`, `api.auth.login({ email, password })`. */
export function createApi(options: ClientOptions = {}): Api {
  return Object.assign(bind(endpoints, options) as ClientOf<Contract>, {
    open: <R extends Route>(route: R, input: RouteInput<R>, call?: CallOptions) => openRoute(route, input, options, call),
  });
}
