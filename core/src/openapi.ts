// The OpenAPI 3.1 document of the HTTP contract, made from the route table itself (zod 4's
// JSON Schema, 2020-12 as OpenAPI 3.1 uses) and the Spanish descriptions of contract/docs.ts:
// every route with its parameters, body, answers (JSON, CSV/NDJSON exports, the event
// stream, errors) and who may call it.
import { z } from 'zod';
import { contract, type Contract } from './contract/index.js';
import { AREA_TAGS, ROUTE_DOCS } from './contract/docs.js';
import type { Route } from './contract/route.js';

type Json = Record<string, unknown>;

const ERROR = { $ref: '#/components/schemas/Error' };
const errorAnswer = (description: string) => ({ description, content: { 'application/json': { schema: ERROR } } });

/** A zod schema as JSON Schema: what a client sends (input) or receives (output). */
function schema(s: z.ZodType, io: 'input' | 'output'): Json {
  const out = z.toJSONSchema(s, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  delete out.$schema;
  return out;
}

/** The object's properties as OpenAPI parameters (`in: path|query`). */
function parameters(s: z.ZodType | undefined, where: 'path' | 'query'): Json[] {
  if (!s) return [];
  const object = schema(s, 'input');
  const required = new Set((object.required as string[] | undefined) ?? []);
  return Object.entries((object.properties as Record<string, Json> | undefined) ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return { name, in: where, required: where === 'path' || required.has(name), schema: rest, ...(description ? { description } : {}) };
  });
}

/** Does the route take `format` (a table that also streams CSV/NDJSON)? */
const exports = (r: Route) => [r.query, r.body].some((s) => s && 'format' in ((schema(s, 'input').properties as Json | undefined) ?? {}));

/** Routes whose body is sent raw (not JSON): the content types they accept. */
const RAW_BODIES: Record<string, Json> = {
  '/api/ingest/zone-report': {
    'text/csv': { schema: { type: 'string', description: 'CSV con cabecera' } },
    'application/x-ndjson': { schema: { type: 'string', description: 'Un objeto JSON por línea' } },
    'application/json': { schema: { type: 'array', items: { type: 'object' } } },
  },
  '/api/ingest/referrers': { 'application/x-ndjson': { schema: { type: 'string', description: 'Un evento JSON por línea' } } },
  '/api/create-campaign/': { 'multipart/form-data': { schema: { type: 'object', description: 'Campos de la campaña e imagen (`image`)' } } },
};

const SECURITY: Record<Route['access'], Json[]> = {
  public: [],
  user: [{ session: [] }],
  admin: [{ session: [] }],
  ingest: [{ ingestKey: [] }, { session: [] }],
  publisher: [{ publisherToken: [] }],
};

function operation(area: keyof Contract, name: string, r: Route): Json {
  const doc = (ROUTE_DOCS[area] as Record<string, { summary: string; description?: string }>)[name];
  const op: Json = {
    operationId: `${area}.${name}`,
    tags: [AREA_TAGS[area]],
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    security: SECURITY[r.access],
  };
  const params = [...parameters(r.params, 'path'), ...parameters(r.query, 'query')];
  if (params.length) op.parameters = params;
  if (r.body) op.requestBody = { required: true, content: { 'application/json': { schema: schema(r.body, 'input') } } };
  else if (RAW_BODIES[r.path]) op.requestBody = { required: true, content: RAW_BODIES[r.path] };

  const responses: Json = {};
  if (r.responseType === 'none') {
    responses['204'] = { description: 'Hecho, sin contenido' };
    if (r.path === '/api/hit')
      responses['200'] = { description: 'GIF de 1×1 (con format=gif)', content: { 'image/gif': { schema: { type: 'string', format: 'binary' } } } };
  } else if (r.responseType === 'text') {
    responses['200'] = { description: 'Flujo de eventos', content: { 'text/event-stream': { schema: { type: 'string' } } } };
  } else {
    const content: Json = { 'application/json': { schema: schema(r.response, 'output') } };
    if (exports(r)) {
      content['text/csv'] = { schema: { type: 'string', description: 'Todas las filas (format=csv), con BOM' } };
      content['application/x-ndjson'] = { schema: { type: 'string', description: 'Todas las filas (format=ndjson), una por línea' } };
    }
    responses['200'] = { description: 'Correcto', content };
  }
  responses['400'] = errorAnswer('Entrada no válida: `detail` dice qué y dónde');
  if (r.access !== 'public') responses['401'] = errorAnswer('Sin sesión, token o clave válidos');
  if (r.access === 'admin' || r.access === 'ingest') responses['403'] = errorAnswer('Solo administradores');
  if (r.params) responses['404'] = errorAnswer('No existe');
  responses['429'] = errorAnswer('Demasiadas peticiones: reintenta tras `Retry-After`');
  op.responses = responses;
  return op;
}

/** The whole document; `version` is the server's. */
export function openApiDocument(version: string): Json {
  const paths: Record<string, Json> = {};
  for (const [area, routes] of Object.entries(contract) as Array<[keyof Contract, Record<string, Route>]>) {
    for (const [name, r] of Object.entries(routes)) {
      paths[r.path] ??= {};
      paths[r.path][r.method.toLowerCase()] = operation(area, name, r);
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'AdOps Console API',
      version,
      description:
        'La API de AdOps Console: informes de revenue, referrers, campañas y administración para el personal; la URL con token para cada publisher; la ingesta para integradores. Fechas `AAAA-MM-DD` en la zona horaria de los informes (ver `/api/health`). Los errores responden `{detail}` en español.',
    },
    servers: [{ url: '/' }],
    tags: Object.values(AREA_TAGS).map((name) => ({ name })),
    paths,
    components: {
      schemas: { Error: { type: 'object', properties: { detail: { type: 'string' } }, required: ['detail'] } },
      securitySchemes: {
        session: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Token de `POST /api/login`' },
        ingestKey: { type: 'apiKey', in: 'header', name: 'X-Ingest-Key', description: 'Clave de ingesta del servidor (ADOPS_INGEST_KEY)' },
        publisherToken: { type: 'apiKey', in: 'query', name: 'token', description: 'Token del publisher (Usuarios → API Tokens)' },
      },
    },
  };
}
