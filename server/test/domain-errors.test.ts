// A service's refusal (a domain error: a kind and a Spanish sentence) reaches the client through
// the one error middleware as the status, Retry-After and fields it always had.
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DomainError, type DomainErrorExtra, type ErrorKind } from '../src/domain-errors.js';
import { errorHandler } from '../src/errors.js';

let server: http.Server;
let base: string;
const logged: string[] = [];

beforeAll(async () => {
  const koa = new Koa();
  koa.use(errorHandler((line) => logged.push(line)));
  koa.use((ctx) => {
    const { kind, extra } = JSON.parse(String(ctx.query.e)) as { kind: ErrorKind; extra?: DomainErrorExtra };
    throw new DomainError(kind, `motivo ${kind}`, extra);
  });
  server = http.createServer(koa.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const refuse = (kind: ErrorKind, extra?: DomainErrorExtra) => fetch(`${base}/?e=${encodeURIComponent(JSON.stringify({ kind, extra }))}`);

describe('a domain error as an HTTP answer', () => {
  test('each kind is answered with its status and the sentence as detail', async () => {
    const statuses: Record<ErrorKind, number> = {
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
    for (const [kind, status] of Object.entries(statuses) as Array<[ErrorKind, number]>) {
      const res = await refuse(kind);
      expect([kind, res.status]).toEqual([kind, status]);
      expect(await res.json()).toEqual({ detail: `motivo ${kind}` });
    }
    // Refusals are not failures: only a failing upstream (Meta, Pixabay) reaches the error log, with its stack.
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('motivo upstream');
    // …where the service threw it: the domain error's own stack, not the middleware's.
    expect(logged[0]).toContain('domain-errors.test.ts');
  });

  test('a wait becomes Retry-After in whole seconds; fields travel beside detail; 401 asks for a Bearer token', async () => {
    const busy = await refuse('too_many', { retryAfterSeconds: 1.2 });
    expect(busy.headers.get('retry-after')).toBe('2');
    const totp = await refuse('unauthorized', { fields: { totp_required: true } });
    expect(await totp.json()).toEqual({ totp_required: true, detail: 'motivo unauthorized' });
    expect(totp.headers.get('www-authenticate')).toBe('Bearer');
  });
});
