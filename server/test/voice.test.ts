// One voice: every route of the contract, fed missing, malformed, oversized and reversed input
// field by field, answers each refusal with a `detail` in the user's words — no key path, no
// zod English, no comparison symbol.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { z } from 'zod';
import { contract, type Route } from '@adops/core';
import { startTestServer, type TestServer } from './helpers.js';

const LEAKS =
  /params\.|_ids\.|start_date|end_date|startDate|endDate|from_date|to_date|\bsince\b|\buntil\b|\.0\b|Expected|Invalid|Required|received|>=|<=|Inválido|se esperaba|Demasiado (grande|pequeño)/;

let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startTestServer();
  token = (await s.admin()).token;
});
afterAll(() => s.close());

type Shape = Record<string, z.ZodType>;
function shapeOf(schema: z.ZodType | undefined, depth = 0): Shape | null {
  if (!schema || depth > 8) return null;
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  if (def.type === 'object') return def.shape as Shape;
  for (const k of ['innerType', 'in', 'schema', 'left']) if (def[k]) return shapeOf(def[k] as z.ZodType, depth + 1);
  return null;
}

const LONG = 'x'.repeat(3000);
const RANGES: Array<[string, string]> = [
  ['start_date', 'end_date'],
  ['startDate', 'endDate'],
  ['from_date', 'to_date'],
  ['since', 'until'],
];

function queries(r: Route): string[] {
  const shape = shapeOf(r.query) ?? {};
  const out = [''];
  for (const key of Object.keys(shape)) for (const v of ['', 'x', LONG, '-1', '1.5']) out.push(`${key}=${encodeURIComponent(v)}`);
  for (const [a, b] of RANGES) if (a in shape) out.push(`${a}=2025-03-02&${b}=2025-03-01`, `${a}=2025-03-02T00:00:00Z&${b}=2025-03-01T00:00:00Z`);
  return out;
}

function bodies(r: Route): unknown[] {
  const shape = shapeOf(r.body) ?? {};
  const out: unknown[] = [{}, []];
  for (const [key, field] of Object.entries(shape)) {
    for (const v of [null, '', 'x', LONG, -1, 1e15, {}, ['x']]) out.push({ [key]: v });
    const inner = shapeOf(field);
    if (inner) for (const sub of Object.keys(inner)) for (const v of [null, 'x', -1]) out.push({ [key]: { [sub]: v } });
  }
  for (const [a, b] of RANGES)
    if (a in shape) out.push({ [a]: '2025-03-02', [b]: '2025-03-01' }, { [a]: '2025-03-02T00:00:00Z', [b]: '2025-03-01T00:00:00Z' });
  return out;
}

/** Alert rules: each kind's parameters out of their scales and empty (nested two levels down). */
const RULE_BODIES = ['tq_low', 'revenue_drop', 'referrer_burst', 'ip_burst', 'campaign_roi'].flatMap((kind) =>
  ['scope', 'target', 'threshold', 'hours', 'min_impressions', 'drop_percent', 'visits', 'minutes', 'level', 'min_spend'].flatMap((p) =>
    [null, '', -1, 1e15, 'x'].map((v) => ({ name: 'Regla', kind, params: { [p]: v } })),
  ),
);

const routes = Object.entries(contract).flatMap(([area, table]) =>
  Object.entries(table as Record<string, Route>).map(([name, r]) => [`${area}.${name}`, r] as [string, Route]),
);
// Streams stay open; logging out would end the walk's own session.
const SKIP = new Set(['referrers.stream', 'alerts.stream', 'auth.logout']);

test.each(routes.filter(([name]) => !SKIP.has(name)))('%s refuses bad input in the user words', async (name, r) => {
  const base = r.path.replace(/\{(\w+)\}/g, 'x');
  const seen: string[] = [];
  const check = async (res: Response, what: string) => {
    if (res.status < 400 || res.status >= 500) return void (await res.body?.cancel());
    const { detail } = (await res.json()) as { detail: string };
    seen.push(detail);
    if (process.env.VOICE_DUMP) console.log(`DUMP ${name} ${res.status} ${detail}`);
    expect(detail, `${name} ${what}`).not.toMatch(LEAKS);
  };
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  for (const q of queries(r)) await check(await s.fetch(`${base}?${q}`, { method: r.method, headers }), `?${q.slice(0, 80)}`);
  if (r.body) {
    const extra = name === 'alerts.createRule' || name === 'alerts.updateRule' ? RULE_BODIES : [];
    for (const b of [...bodies(r), ...extra]) {
      const body = JSON.stringify(b);
      await check(await s.fetch(base, { method: r.method, headers, body }), body.slice(0, 80));
    }
  }
  // A route that takes input refused some of it (the walk reached its validation).
  if (r.query || r.body || r.params) expect(seen.length, name).toBeGreaterThan(0);
});
