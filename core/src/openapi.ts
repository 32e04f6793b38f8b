// The OpenAPI 3.1 document of the HTTP contract, made from the route table itself (zod 4's
// JSON Schema, 2020-12 as OpenAPI 3.1 uses) and the Spanish descriptions of contract/docs.ts:
// every route with its parameters, body, answers (JSON, CSV/NDJSON exports, the event
// stream, errors) and who may call it; shared rows and entities named once in components.
import { z } from 'zod';
import { contract, type Contract } from './contract/index.js';
import { AREA_TAGS, PARAMETER_DOCS, ROUTE_DOCS, type RouteDoc } from './contract/docs.js';
import type { Route } from './contract/route.js';
import { Health } from './contract/health.js';
import { Me } from './contract/auth.js';
import { PublisherToken, User } from './contract/admin.js';
import {
  DailyRow,
  IngestResult,
  PublisherDataRow,
  PublisherDataTotals,
  PublisherShare,
  ReportTotals,
  SummaryRow,
  ZoneRow,
} from './contract/reports.js';
import { IdempotencyKey, IngestReferrerEvent, IngestReferrersResult, ReferrerLogRecord, ReferrerRow } from './contract/referrers.js';
import { AlertStreamEvent } from './contract/alerts.js';
import { CampaignInsight, CampaignTotals, CreatedCampaign, LocalCampaign } from './contract/campaigns.js';

type Json = Record<string, unknown>;

const ERROR = { $ref: '#/components/schemas/Error' };
const errorAnswer = (description: string) => ({ description, content: { 'application/json': { schema: ERROR } } });

/**
 * The shared schemas named in `components.schemas` (entities, table rows and totals), apart
 * for what clients receive and what they send, so an id always means one JSON Schema.
 */
const NAMED = {
  output: z.registry<{ id: string }>(),
  input: z.registry<{ id: string }>(),
};
for (const [s, id] of [
  [Health, 'Health'],
  [Me, 'Me'],
  [User, 'User'],
  [PublisherToken, 'PublisherToken'],
  [ZoneRow, 'ZoneRow'],
  [SummaryRow, 'SummaryRow'],
  [DailyRow, 'DailyRow'],
  [ReportTotals, 'ReportTotals'],
  [PublisherDataRow, 'PublisherDataRow'],
  [PublisherDataTotals, 'PublisherDataTotals'],
  [PublisherShare, 'PublisherShare'],
  [IngestResult, 'IngestResult'],
  [ReferrerRow, 'ReferrerRow'],
  [ReferrerLogRecord, 'ReferrerLogRecord'],
  [AlertStreamEvent, 'AlertStreamEvent'],
  [IngestReferrersResult, 'IngestReferrersResult'],
  [CampaignInsight, 'CampaignInsight'],
  [CampaignTotals, 'CampaignTotals'],
  [CreatedCampaign, 'CreatedCampaign'],
  [LocalCampaign, 'LocalCampaign'],
] as Array<[z.ZodType, string]>)
  NAMED.output.add(s, { id });
NAMED.input.add(IngestReferrerEvent, { id: 'ReferrerEvent' });

/** Converts zod schemas, collecting the named ones into the document's components. */
class Schemas {
  readonly components: Record<string, Json> = {};

  /** A zod schema as JSON Schema: what a client sends (input) or receives (output). */
  of(s: z.ZodType, io: 'input' | 'output'): Json {
    const out = toComponentRefs(z.toJSONSchema(s, { io, unrepresentable: 'any', target: 'draft-2020-12', metadata: NAMED[io] })) as Json;
    delete out.$schema;
    const defs = (out.$defs ?? {}) as Record<string, Json>;
    delete out.$defs;
    for (const [id, def] of Object.entries(defs)) {
      const known = this.components[id];
      if (known && JSON.stringify(known) !== JSON.stringify(def)) throw new Error(`OpenAPI: two schemas named ${id}`);
      this.components[id] = def;
    }
    return out;
  }
}

/** zod names its extracted schemas `#/$defs/Id`; the document keeps them in components. */
function toComponentRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toComponentRefs);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' ? v.replace(/^#\/\$defs\//, '#/components/schemas/') : toComponentRefs(v),
    ]),
  );
}

/** A parameter's or body field's meaning: the route's own word for it, else the shared one. */
const describe = (doc: RouteDoc, name: string): string | undefined => doc.params?.[name] ?? PARAMETER_DOCS[name];

/** The object's properties as OpenAPI parameters (`in: path|query`). */
function parameters(schemas: Schemas, doc: RouteDoc, s: z.ZodType | undefined, where: 'path' | 'query'): Json[] {
  if (!s) return [];
  const object = schemas.of(s, 'input');
  const required = new Set((object.required as string[] | undefined) ?? []);
  return Object.entries((object.properties as Record<string, Json> | undefined) ?? {}).map(([name, property]) => {
    const { description: own, ...rest } = property;
    const description = (own as string | undefined) ?? describe(doc, name);
    return { name, in: where, required: where === 'path' || required.has(name), schema: rest, ...(description ? { description } : {}) };
  });
}

/** A JSON body's schema, its top-level fields described like parameters of the same name. */
function jsonBody(schemas: Schemas, doc: RouteDoc, s: z.ZodType): Json {
  const body = schemas.of(s, 'input');
  const properties = body.properties as Record<string, Json> | undefined;
  for (const [name, property] of Object.entries(properties ?? {})) {
    const description = describe(doc, name);
    if (description && !property.description) properties![name] = { description, ...property };
  }
  return body;
}

/** Does the route take `format` (a table that also streams CSV/NDJSON)? */
const exports = (r: Route) =>
  [r.query, r.body].some((s) => s && 'format' in ((z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }).properties as Json | undefined) ?? {}));

/** Routes whose body is sent raw (not JSON): the content types they accept. */
const RAW_BODIES = new Map<Route, Json>([
  [
    contract.ingest.zoneReport,
    {
      'text/csv': { schema: { type: 'string', description: 'CSV con cabecera' } },
      'application/x-ndjson': { schema: { type: 'string', description: 'Un objeto JSON (una fila) por línea' } },
      'application/json': { schema: { type: 'array', items: { type: 'object' }, description: 'Un array de filas' } },
    },
  ],
  [
    contract.referrers.ingest,
    { 'application/x-ndjson': { schema: { type: 'string', description: 'Un `ReferrerEvent` en JSON por línea (ver Schemas → ReferrerEvent)' } } },
  ],
  [
    contract.campaigns.create,
    { 'multipart/form-data': { schema: { type: 'object', description: 'Campos de la campaña (`CampaignForm`) e imagen (`image`) o `image_url`' } } },
  ],
]);

/** Request headers a route reads besides its credentials. */
const HEADERS = new Map<Route, Array<{ name: string; schema: z.ZodType; description: string }>>([
  [
    contract.referrers.ingest,
    [
      {
        name: 'Idempotency-Key',
        schema: IdempotencyKey,
        description:
          'Clave del lote, elegida por el cliente: reenviarlo con la misma clave en los 7 días siguientes no guarda otra vez sus eventos (los que no traen `event_id`); la respuesta los cuenta en `duplicates`.',
      },
    ],
  ],
]);

const SECURITY: Record<Route['access'], Json[]> = {
  public: [],
  user: [{ session: [] }],
  admin: [{ session: [] }],
  ingest: [{ ingestKey: [] }, { session: [] }],
  publisher: [{ publisherBearer: [] }, { publisherToken: [] }],
};
/** The live stream also takes the session token in the query (EventSource sends no headers). */
const security = (r: Route): Json[] => (r === contract.referrers.stream ? [...SECURITY[r.access], { sessionQuery: [] }] : SECURITY[r.access]);

function operation(schemas: Schemas, area: keyof Contract, name: string, r: Route): Json {
  const doc = (ROUTE_DOCS[area] as Record<string, RouteDoc>)[name];
  const op: Json = {
    operationId: `${area}.${name}`,
    tags: [AREA_TAGS[area]],
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    security: security(r),
  };
  const params = [
    ...parameters(schemas, doc, r.params, 'path'),
    ...parameters(schemas, doc, r.query, 'query'),
    ...(HEADERS.get(r) ?? []).map((h) => ({
      name: h.name,
      in: 'header',
      required: false,
      schema: schemas.of(h.schema, 'input'),
      description: h.description,
    })),
  ];
  if (params.length) op.parameters = params;
  if (r.body) op.requestBody = { required: true, content: { 'application/json': { schema: jsonBody(schemas, doc, r.body) } } };
  else if (RAW_BODIES.has(r)) op.requestBody = { required: true, content: RAW_BODIES.get(r) };

  const responses: Json = {};
  if (r.responseType === 'none') {
    responses['204'] = { description: 'Hecho, sin contenido' };
    if (r === contract.referrers.hit)
      responses['200'] = { description: 'GIF de 1×1 (con format=gif)', content: { 'image/gif': { schema: { type: 'string', format: 'binary' } } } };
  } else if (r === contract.admin.backup) {
    responses['200'] = {
      description: 'Archivo tar de la copia: `manifest.json` primero, luego cada archivo que lista',
      content: { 'application/x-tar': { schema: { type: 'string', format: 'binary' } } },
    };
    responses['409'] = errorAnswer('Otra copia en curso, o almacenamiento sin copia desde el servidor (PostgreSQL, ClickHouse)');
  } else if (r.responseType === 'text') {
    const record = r === contract.alerts.stream ? 'AlertStreamEvent' : 'ReferrerLogRecord';
    schemas.of(r === contract.alerts.stream ? AlertStreamEvent : ReferrerLogRecord, 'output');
    responses['200'] = {
      description: `Flujo de eventos: \`id:\` el id del evento, \`data:\` un \`${record}\` en JSON (ver Schemas)`,
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    };
  } else {
    const content: Json = { 'application/json': { schema: schemas.of(r.response, 'output') } };
    if (exports(r)) {
      content['text/csv'] = { schema: { type: 'string', description: 'Todas las filas (format=csv), con BOM' } };
      content['application/x-ndjson'] = { schema: { type: 'string', description: 'Todas las filas (format=ndjson), una por línea' } };
    }
    responses['200'] = { description: 'Correcto', content };
  }
  responses['400'] = errorAnswer('Entrada no válida: `detail` dice qué y dónde');
  if (r.access !== 'public') responses['401'] = errorAnswer('Sin sesión, token o clave válidos');
  if (r.access === 'admin' || r.access === 'ingest') responses['403'] = errorAnswer('Solo administradores');
  if (r.access === 'publisher') responses['403'] = errorAnswer('El token no admite peticiones desde esta dirección');
  if (r.params) responses['404'] = errorAnswer('No existe');
  if (RAW_BODIES.has(r) && r !== contract.campaigns.create) responses['413'] = errorAnswer('Cuerpo demasiado grande');
  if (r === contract.alerts.createRule)
    responses['409'] = errorAnswer('Ya tienes el máximo de reglas por usuario (ADOPS_MAX_ALERT_RULES): borra alguna');
  responses['429'] = errorAnswer(
    r.heavy
      ? 'Demasiados informes tuyos en curso (ADOPS_REPORT_QUERIES a la vez y ADOPS_REPORT_QUEUE en espera por usuario): reintenta tras `Retry-After`'
      : r.responseType === 'text'
        ? 'Demasiadas conexiones en vivo abiertas por ti (ADOPS_MAX_STREAMS por usuario): cierra alguna'
        : 'Demasiadas peticiones: reintenta tras `Retry-After`',
  );
  op.responses = responses;
  return op;
}

/** The whole document; `version` is the server's. */
export function openApiDocument(version: string): Json {
  const schemas = new Schemas();
  schemas.of(IngestReferrerEvent, 'input');
  const paths: Record<string, Json> = {};
  for (const [area, routes] of Object.entries(contract) as Array<[keyof Contract, Record<string, Route>]>) {
    for (const [name, r] of Object.entries(routes)) {
      paths[r.path] ??= {};
      paths[r.path][r.method.toLowerCase()] = operation(schemas, area, name, r);
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
      schemas: {
        Error: { type: 'object', properties: { detail: { type: 'string', description: 'Qué falló, en español' } }, required: ['detail'] },
        ...Object.fromEntries(Object.entries(schemas.components).sort(([a], [b]) => a.localeCompare(b))),
      },
      securitySchemes: {
        session: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Token de `POST /api/login`' },
        ingestKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Ingest-Key',
          description: 'Clave de ingesta del servidor (ADOPS_INGEST_KEY); también vale como `Authorization: Bearer CLAVE`',
        },
        publisherToken: { type: 'apiKey', in: 'query', name: 'token', description: 'Token del publisher (Usuarios → API Tokens)' },
        publisherBearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'Token del publisher en la cabecera `Authorization: Bearer TOKEN` (no queda en URLs ni historiales)',
        },
        sessionQuery: {
          type: 'apiKey',
          in: 'query',
          name: 'access_token',
          description: 'El token de sesión en la URL, solo para el flujo en vivo (EventSource no envía cabeceras)',
        },
      },
    },
  };
}
