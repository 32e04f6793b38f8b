// endpoints.ts is the contract as the API client needs it (method, path, answer type per route,
// no zod), written from the contract table by this test: it fails when a route was added,
// removed or changed without it, and `npx vitest run core/src/contract/endpoints.test.ts -u`
// writes it again.
import { describe, expect, it } from 'vitest';
import { buildRequest, createApi } from '../client.js';
import { contract } from './index.js';
import type { Route } from './route.js';

const isRoute = (v: unknown): v is Route => typeof v === 'object' && v !== null && 'method' in v && 'path' in v && 'response' in v;

/** Every route of the table with its dotted name (`auth.login`), in the table's order. */
function routesOf(table: object, prefix: string[] = []): [string[], Route][] {
  return Object.entries(table).flatMap(([key, value]) =>
    isRoute(value) ? [[[...prefix, key], value] as [string[], Route]] : routesOf(value as object, [...prefix, key]),
  );
}

const key = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : `'${k}'`);

/** endpoints.ts as generated from the contract (formatted as `biome format` leaves it). */
function endpointsSource(): string {
  const lines = [
    '// Generated from the contract table (routes.ts) by endpoints.test.ts: do not edit. After adding, removing or',
    '// changing a route, `npx vitest run core/src/contract/endpoints.test.ts -u` writes it again.',
    '// What the API client needs of each route (method, path, answer type) without its zod schemas: the web',
    '// binds its whole API from this, so its entry chunk (the login page) loads neither zod nor any area.',
    "import type { EndpointsOf } from './route.js';",
    "import type { Contract } from './routes.js';",
    '',
    'export const endpoints = {',
  ];
  const emit = (table: object, indent: string) => {
    for (const [k, value] of Object.entries(table)) {
      if (isRoute(value)) {
        const type = value.responseType ? `, responseType: '${value.responseType}'` : '';
        lines.push(`${indent}${key(k)}: { method: '${value.method}', path: '${value.path}'${type} },`);
      } else {
        lines.push(`${indent}${key(k)}: {`);
        emit(value as object, `${indent}  `);
        lines.push(`${indent}},`);
      }
    }
  };
  emit(contract, '  ');
  lines.push('} as const satisfies EndpointsOf<Contract>;', '');
  return lines.join('\n');
}

describe('the endpoints the API client binds', () => {
  it('are the contract’s routes, as endpoints.ts writes them', async () => {
    await expect(endpointsSource()).toMatchFileSnapshot('./endpoints.ts');
  });

  it('make every call of createApi send its route’s method to its path', async () => {
    const sent: { method: string; url: string }[] = [];
    const fakeFetch = (async (url: string, init: RequestInit) => {
      sent.push({ method: init.method ?? 'GET', url });
      return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
    }) as unknown as typeof fetch;
    const api = createApi({ baseUrl: 'http://adops.test', fetch: fakeFetch }) as unknown as Record<string, unknown>;
    const routes = routesOf(contract);
    expect(routes.length).toBeGreaterThan(50);
    for (const [name, r] of routes) {
      const input = Object.fromEntries([...r.path.matchAll(/\{(\w+)\}/g)].map(([, p]) => [p, 'x1']));
      const call = name.reduce<unknown>((node, k) => (node as Record<string, unknown>)?.[k], api);
      expect(typeof call, name.join('.')).toBe('function');
      await (call as (input: object) => Promise<unknown>)(input);
      const expected = buildRequest(r, input, 'http://adops.test');
      expect(sent.pop(), name.join('.')).toEqual({ method: r.method, url: expected.url });
    }
  });
});
