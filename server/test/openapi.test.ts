// The API document integrators read: every route of the contract in it (method, Spanish
// summary, parameters, answers, who may call), valid OpenAPI 3.1 by an independent validator,
// served at /api/openapi.json; /api/docs renders it with the project's own viewer files,
// same-origin scripts only, under the app's Content-Security-Policy.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { validate } from '@readme/openapi-parser';
import { contract, openApiDocument, ROUTE_DOCS, type Route } from '@adops/core';
import { startTestServer, type TestServer } from './helpers.js';

interface Content {
  schema: { $ref?: string; properties?: Record<string, unknown> };
}
interface Operation {
  operationId: string;
  summary: string;
  security: unknown;
  parameters: Array<{ name: string; in: string; required: boolean; description?: string }>;
  requestBody: { content: Record<string, Content> };
  responses: Record<string, { content: Record<string, Content> } | undefined>;
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
}
const doc = openApiDocument('0.1.0') as unknown as Doc;
type Validated = Parameters<typeof validate>[0];
const routes = Object.entries(contract).flatMap(([area, rs]) => Object.entries(rs as Record<string, Route>).map(([name, r]) => ({ area, name, r })));

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

describe('the OpenAPI document', () => {
  test('holds every route of the contract with its method, a Spanish summary and an answer', () => {
    expect(routes.length).toBeGreaterThan(40);
    for (const { area, name, r } of routes) {
      const op = doc.paths[r.path]?.[r.method.toLowerCase()];
      expect(op, `${area}.${name} ${r.method} ${r.path}`).toBeDefined();
      expect(op.operationId).toBe(`${area}.${name}`);
      expect(op.summary).toBe((ROUTE_DOCS as unknown as Record<string, Record<string, { summary: string }>>)[area][name].summary);
      expect(op.summary.length).toBeGreaterThan(5);
      expect(Object.keys(op.responses).some((code) => code.startsWith('2'))).toBe(true);
    }
    const operations = Object.values(doc.paths).flatMap((p) => Object.keys(p));
    expect(operations).toHaveLength(routes.length);
  });

  test('is valid OpenAPI 3.1 (and the validator does reject a broken one)', async () => {
    const result = await validate(structuredClone(doc) as unknown as Validated);
    expect(result.valid, JSON.stringify(result)).toBe(true);
    const broken = structuredClone(doc) as unknown as { paths: Record<string, Record<string, { responses: unknown }>> };
    broken.paths['/api/login'].post.responses = 'none';
    expect((await validate(broken as unknown as Validated)).valid).toBe(false);
  });

  test('says who may call each route, from its access: session, ingest key, publisher token or nobody', () => {
    const byAccess: Record<Route['access'], unknown[]> = {
      public: [],
      user: [{ session: [] }],
      admin: [{ session: [] }],
      ingest: [{ ingestKey: [] }, { session: [] }],
      publisher: [{ publisherBearer: [] }, { publisherToken: [] }],
    };
    for (const { area, name, r } of routes) {
      const op = doc.paths[r.path][r.method.toLowerCase()];
      // The live stream alone also takes the session token as ?access_token= (EventSource).
      const expected = r === contract.referrers.stream ? [...byAccess[r.access], { sessionQuery: [] }] : byAccess[r.access];
      expect(op.security, `${area}.${name}`).toEqual(expected);
      expect(op.responses['401'] === undefined, `${area}.${name}`).toBe(r.access === 'public');
      expect(op.responses['403'] !== undefined, `${area}.${name}`).toBe(r.access === 'admin' || r.access === 'ingest' || r.access === 'publisher');
    }
    // The publisher's token in the Authorization header, or in the URL.
    expect(doc.paths['/api/publisher/data'].get.security).toEqual([{ publisherBearer: [] }, { publisherToken: [] }]);
    expect(doc.components.securitySchemes).toMatchObject({
      session: { type: 'http', scheme: 'bearer' },
      ingestKey: { type: 'apiKey', in: 'header', name: 'X-Ingest-Key' },
      publisherToken: { type: 'apiKey', in: 'query', name: 'token' },
      publisherBearer: { type: 'http', scheme: 'bearer' },
      sessionQuery: { type: 'apiKey', in: 'query', name: 'access_token' },
    });
    expect(Object.keys(doc.components.securitySchemes)).toHaveLength(5);
  });

  test('describes every parameter in Spanish, and every body a route takes', () => {
    for (const { area, name, r } of routes) {
      const op = doc.paths[r.path][r.method.toLowerCase()];
      for (const p of op.parameters ?? []) expect(p.description, `${area}.${name} ${p.in} ${p.name}`).toMatch(/\p{L}{3}/u);
      // Every POST/PUT/PATCH sends something — a JSON body from the contract or a raw one (CSV,
      // NDJSON, form) — but sign-out, whose token says everything.
      const bodiless = [contract.auth.logout] as Route[];
      if (r.method !== 'GET' && r.method !== 'DELETE' && !bodiless.includes(r)) expect(op.requestBody, `${area}.${name}`).toBeDefined();
      else expect(op.requestBody, `${area}.${name}`).toBeUndefined();
    }
    expect(doc.paths['/api/hit'].get.parameters.find((p) => p.name === 'format')?.description).toMatch(/gif/);
    expect(doc.paths['/api/publisher/data'].get.parameters.find((p) => p.name === 'format')?.description).toMatch(/csv/);
  });

  test('names shared rows and entities once, in components, and points to them', () => {
    const json = JSON.stringify(doc);
    for (const id of ['ZoneRow', 'ReportTotals', 'PublisherDataRow', 'ReferrerLogRecord', 'ReferrerEvent', 'User', 'PublisherToken'])
      expect(doc.components.schemas, id).toHaveProperty(id);
    expect(json).not.toContain('#/$defs/');
    for (const [, id] of json.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) expect(doc.components.schemas, id).toHaveProperty(id);
    const rows = (doc.paths['/api/ad-report'].get.responses['200']!.content['application/json'].schema.properties as Record<string, unknown>).rows;
    expect(rows).toEqual({ type: 'array', items: { $ref: '#/components/schemas/ZoneRow' } });
    expect(doc.paths['/api/admin/users/{id}'].patch.responses['200']!.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/User',
    });
    expect(doc.paths['/api/ingest/referrers'].post.requestBody.content['application/x-ndjson'].schema).toMatchObject({
      description: expect.stringContaining('ReferrerEvent'),
    });
  });

  test('describes parameters, bodies and the export and stream formats', () => {
    const data = doc.paths['/api/publisher/data'].get;
    const names = data.parameters.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['start_date', 'end_date', 'sort', 'page', 'page_size', 'format']));
    expect(data.parameters.find((p) => p.name === 'start_date')?.required).toBe(true);
    expect(Object.keys(data.responses['200']!.content)).toEqual(['application/json', 'text/csv', 'application/x-ndjson']);
    expect(doc.paths['/api/admin/users/{id}'].patch.parameters[0]).toMatchObject({ name: 'id', in: 'path', required: true });
    expect(doc.paths['/api/login'].post.requestBody.content['application/json'].schema.properties).toHaveProperty('password');
    expect(Object.keys(doc.paths['/api/ingest/zone-report'].post.requestBody.content)).toEqual([
      'text/csv',
      'application/x-ndjson',
      'application/json',
    ]);
    expect(Object.keys(doc.paths['/api/referrers_logs/stream'].get.responses['200']!.content)).toEqual(['text/event-stream']);
    expect(doc.paths['/api/hit'].get.responses['204']).toBeDefined();
    expect(doc.paths['/api/login'].post.responses['400']!.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
  });
});

describe('served', () => {
  test('/api/openapi.json answers the document, without a session', async () => {
    const res = await t.fetch('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  test('/api/docs loads only same-origin scripts and styles, none inline, under the app CSP; its files are served', async () => {
    const res = await t.fetch('/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await res.text();
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(body.trim()).toBe('');
      expect(attrs).toMatch(/src="\/api\/docs\/[\w.-]+"/);
    }
    const assets = [...html.matchAll(/(?:src|href)="(\/api\/docs\/[\w.-]+)"/g)].map((m) => m[1]);
    expect(assets).toEqual(expect.arrayContaining(['/api/docs/swagger-ui-bundle.js', '/api/docs/init.js', '/api/docs/swagger-ui.css']));
    for (const asset of assets) {
      const a = await t.fetch(asset);
      expect(a.status, asset).toBe(200);
      expect(a.headers.get('content-type'), asset).toMatch(
        asset.endsWith('.css') ? /^text\/css/ : asset.endsWith('.png') ? /^image\/png/ : /^text\/javascript/,
      );
    }
    expect(html).not.toMatch(/https?:\/\//);
    // Swagger UI's online validator badge would load an image from validator.swagger.io.
    const init = await (await t.fetch('/api/docs/init.js')).text();
    expect(init).toContain('validatorUrl: null');
    expect(init).not.toMatch(/https?:\/\//);
  });

  test('nothing else of the viewer package is served: an unknown or traversing name is a 404', async () => {
    for (const name of ['index.html', 'package.json', '..%2F..%2Fpackage.json', 'swagger-ui-bundle.js.map']) {
      const res = await t.fetch(`/api/docs/${name}`);
      expect(res.status, name).toBe(404);
    }
  });
});
