// A route of the HTTP contract: method, path, input schemas and response schema, declared
// once and bound by both the server (validation) and the API client (typed calls).
import { z } from 'zod';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
/** Who may call: anyone, any signed-in user, admins only, the ingest key (or an admin). */
export type Access = 'public' | 'user' | 'admin' | 'ingest' | 'publisher';

export interface Route {
  method: Method;
  path: string;
  access: Access;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  /** 'text' for CSV and other non-JSON answers; 'none' for 204. */
  responseType?: 'json' | 'text' | 'none';
  /**
   * A warehouse query over a date range (a report): the server runs it in the caller's small
   * pool of report queries, queued in arrival order, 429 beyond (ADOPS_REPORT_QUERIES / _QUEUE).
   */
  heavy?: true;
}

export const route = <R extends Route>(r: R): R => r;

type In<S> = S extends z.ZodType ? z.input<S> : unknown;
type Flat<T> = { [K in keyof T]: T[K] } & {};
/** The flat input a client call takes: path params plus query (GET/DELETE) or body. */
export type RouteInput<R extends Route> = Flat<In<R['params']> & In<R['query']> & In<R['body']>>;
export type RouteOutput<R extends Route> = z.output<R['response']>;

/** Optional text filter: "Todos" and "" mean no filter. */
export const optionalFilter = (max = 200) =>
  z
    .string()
    .max(max)
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' || v === 'Todos' ? undefined : v.trim()));

export const emptyResponse = z.undefined();

/** What the client needs of a route to call it: no schemas. */
export type Endpoint = Pick<Route, 'method' | 'path' | 'responseType'>;
/** A table shaped like `T` (the contract) with an `Endpoint` for each route. */
export type EndpointsOf<T> = { [K in keyof T]: T[K] extends Route ? Endpoint : EndpointsOf<T[K]> };
