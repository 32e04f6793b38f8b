// Referrer traffic: the ad tag's beacon, batch ingest, the distinct-referrer report, the raw
// log (polling) and its live stream (SSE), and the filter bar's option lists.
import { z } from 'zod';
import { route, emptyResponse } from './route.js';
import { queryInt, tableFields, tablePage } from './table.js';

/** Field limits of a referrer event (ingest rejects longer values with 400). */
export const REFERRER_LIMITS = {
  referrer: 2048,
  keyword: 256,
  zoneId: 64,
  /** A host name (parent domain / source). */
  domain: 253,
  /** Longest span a report or log query may cover, in days. */
  spanDays: 800,
  /** Largest NDJSON batch body, in bytes (413 beyond). */
  batchBytes: 16 * 1024 * 1024,
  /** Most events in one NDJSON batch (413 beyond). */
  batchEvents: 100_000,
  /** Longest client event key (`event_id`). */
  eventId: 64,
  /** Longest `Idempotency-Key` header of a batch. */
  idempotencyKey: 128,
  /** How long a stored event's key (or its batch's) makes a resent copy a duplicate, in days. */
  idempotencyDays: 7,
} as const;

/** Printable ASCII (space to ~), not blank: what an event id and an Idempotency-Key may hold. */
const PRINTABLE = /^[\x20-\x7e]*[\x21-\x7e][\x20-\x7e]*$/;

/**
 * A client's key for one event (a UUID, a sequence number…): an event whose key was stored in
 * the last `idempotencyDays` days is a duplicate and stored no more.
 */
export const EventId = z
  .union([z.string(), z.number().int().nonnegative()])
  .transform((v) => String(v))
  .pipe(
    z
      .string()
      .max(REFERRER_LIMITS.eventId, `no puede superar ${REFERRER_LIMITS.eventId} caracteres`)
      .regex(PRINTABLE, 'debe ser texto ASCII imprimible, no vacío y sin caracteres de control'),
  );

/**
 * The `Idempotency-Key` header of a batch: resending a batch with the same key (within
 * `idempotencyDays` days) stores none of its events again. Absent or empty: no key.
 */
export const IdempotencyKey = z
  .string()
  .max(REFERRER_LIMITS.idempotencyKey, `La cabecera Idempotency-Key no puede superar ${REFERRER_LIMITS.idempotencyKey} caracteres`)
  .regex(PRINTABLE, 'La cabecera Idempotency-Key debe ser texto ASCII imprimible, sin caracteres de control');

const DAY_MS = 86_400_000;

/** An instant: ISO 8601 with offset or Z, a local date-time (read in the reporting time zone),
 *  or a calendar day YYYY-MM-DD (its start for startDate, its end for endDate). */
export const FilterInstant = z
  .string()
  .trim()
  .max(40)
  .refine(
    (v) => z.iso.datetime({ offset: true, local: true }).safeParse(v).success || z.iso.date().safeParse(v).success,
    'debe ser una fecha ISO 8601 (YYYY-MM-DD o YYYY-MM-DDTHH:mm:ssZ)',
  );

/** "Todos", empty, null and absent all mean no filter. */
const choice = (max: number) =>
  z
    .string()
    .max(max)
    .nullish()
    .transform((v) => (v == null || v.trim() === '' || v.trim() === 'Todos' ? undefined : v.trim()));

const filterShape = {
  /** Substring of the zone id (case-insensitive). */
  zoneId: z
    .union([z.string().max(REFERRER_LIMITS.zoneId), z.number()])
    .nullish()
    .transform((v) => (v == null || String(v).trim() === '' ? undefined : String(v).trim())),
  advertiser: choice(200),
  publisher: choice(200),
  /** The Source column: exact parent domain. */
  parentDomain: choice(REFERRER_LIMITS.domain),
  startDate: FilterInstant.nullish().transform((v) => v ?? undefined),
  endDate: FilterInstant.nullish().transform((v) => v ?? undefined),
};

/** Bounds that can be checked without the time zone (explicit instants only). */
function checkRange(f: { startDate?: string; endDate?: string }, ctx: z.RefinementCtx): void {
  if (!f.startDate || !f.endDate) return;
  const hasZone = (v: string) => /(Z|[+-]\d{2}:?\d{2})$/i.test(v);
  if (!hasZone(f.startDate) || !hasZone(f.endDate)) return;
  const start = Date.parse(f.startDate);
  const end = Date.parse(f.endDate);
  if (start > end) ctx.addIssue({ code: 'custom', path: ['startDate'], message: 'la fecha de inicio es posterior a la de fin' });
  else if (end - start > (REFERRER_LIMITS.spanDays + 1) * DAY_MS)
    ctx.addIssue({ code: 'custom', path: ['endDate'], message: `el rango no puede superar ${REFERRER_LIMITS.spanDays} días` });
}

/**
 * The referrer filter object (SPEC §3). Dates left out default to today in the reporting
 * time zone (start to end of day) for the report and the log; the stream has no date bound
 * unless given.
 */
export const ReferrerFilter = z.object(filterShape).superRefine(checkRange);
export type ReferrerFilter = z.input<typeof ReferrerFilter>;
export type ReferrerFilterParsed = z.output<typeof ReferrerFilter>;

/** Referrers and Logs show 20 rows a page (SPEC §9). */
export const REFERRERS_PAGE_SIZE = 20;

export const REFERRER_SORT_KEYS = ['seen_at', 'first_seen', 'zone_id', 'parent_domain', 'referrer', 'hits'] as const;
/** The referrers report's body: the filter plus sort/page/page_size/format (default order: last seen, newest first). */
export const ReferrerReportQuery = z.object({ ...filterShape, ...tableFields(REFERRER_SORT_KEYS, REFERRERS_PAGE_SIZE) }).superRefine(checkRange);
export type ReferrerReportQuery = z.input<typeof ReferrerReportQuery>;

export const LOG_SORT_KEYS = ['seen_at', 'zone_id', 'parent_domain', 'referrer', 'keyword', 'ip', 'country'] as const;
/**
 * The log's body: the filter, the table fields (default order: newest first) and `before_id`,
 * which pins the pages to the events up to that id so new arrivals never shift them.
 */
export const ReferrerLogQuery = z
  .object({
    ...filterShape,
    ...tableFields(LOG_SORT_KEYS, REFERRERS_PAGE_SIZE),
    before_id: queryInt(0, Number.MAX_SAFE_INTEGER)
      .nullish()
      .transform((v) => v ?? undefined),
  })
  .superRefine(checkRange);
export type ReferrerLogQuery = z.input<typeof ReferrerLogQuery>;

/** The stream's query: the same filter plus resume point and the session token for EventSource. */
export const ReferrerStreamQuery = z
  .object({
    ...filterShape,
    /** Resume after this event id (alternative to the Last-Event-ID header). */
    lastEventId: z.coerce.number().int().min(0).optional(),
    /** The session token (browsers' EventSource cannot send headers). */
    access_token: z.string().max(4096).optional(),
  })
  .superRefine(checkRange);
export type ReferrerStreamQuery = z.input<typeof ReferrerStreamQuery>;

/** One raw event as the log and the stream show it (SPEC §3 Referrer record, plus its id). */
export const ReferrerLogRecord = z.object({
  id: z.number(),
  zone_id: z.string(),
  parent_domain: z.string().nullable(),
  referrer: z.string().nullable(),
  seen_at: z.string(),
  keyword: z.string().nullable(),
  ip: z.string().nullable(),
  country: z.string().nullable(),
});
export type ReferrerLogRecord = z.infer<typeof ReferrerLogRecord>;

/** One distinct (zone_id, parent_domain, referrer) in the range: last and first time seen, hits. */
export const ReferrerRow = z.object({
  zone_id: z.string(),
  parent_domain: z.string().nullable(),
  referrer: z.string().nullable(),
  /** Last time seen in the range (ISO, UTC). */
  seen_at: z.string(),
  first_seen: z.string(),
  hits: z.number(),
});
export type ReferrerRow = z.infer<typeof ReferrerRow>;

/** Referrers table: total hits of every matching referrer. */
export const ReferrerTable = tablePage(ReferrerRow, z.object({ hits: z.number() }));
export type ReferrerTable = z.infer<typeof ReferrerTable>;

/** Log table: the newest event id when the page was read (the next call's before_id keeps pages still). */
export const ReferrerLogTable = tablePage(ReferrerLogRecord, z.object({ latest_id: z.number().nullable() }));
export type ReferrerLogTable = z.infer<typeof ReferrerLogTable>;

export const ReferrerFilters = z.object({
  parentDomains: z.array(z.string()),
  publishers: z.array(z.string()),
  advertisers: z.array(z.string()),
});
export type ReferrerFilters = z.infer<typeof ReferrerFilters>;

/** The beacon's query: zone, referrer URL, keyword, source (parent domain or its URL). */
export const HitQuery = z.object({
  zone_id: z.string({ error: 'zone_id es obligatorio' }).trim().min(1, 'zone_id es obligatorio').max(REFERRER_LIMITS.zoneId),
  ref: z.string().max(REFERRER_LIMITS.referrer).optional(),
  kw: z.string().max(REFERRER_LIMITS.keyword).optional(),
  src: z.string().max(REFERRER_LIMITS.domain).optional(),
  /** 'gif' answers a 1×1 transparent GIF instead of 204. */
  format: z.enum(['gif']).optional(),
  /** The tag's key for this hit: a hit resent with the same key within 7 days is stored once. */
  event_id: EventId.optional(),
});
export type HitQuery = z.input<typeof HitQuery>;

/**
 * One line of an NDJSON ingest batch. parent_domain defaults to the referrer URL's host;
 * seen_at defaults to the time of arrival; publisher and advertiser are resolved from the zone.
 * The server also checks that ip is a valid IPv4/IPv6 address.
 */
export const IngestReferrerEvent = z.object({
  zone_id: z
    .union([z.string(), z.number().int().nonnegative()])
    .transform((v) => String(v).trim())
    .pipe(z.string().regex(/^[\w.:-]{1,64}$/, 'zone_id debe tener de 1 a 64 letras, dígitos o . _ : -')),
  referrer: z.string().max(REFERRER_LIMITS.referrer).nullish(),
  keyword: z.string().max(REFERRER_LIMITS.keyword).nullish(),
  parent_domain: z.string().max(REFERRER_LIMITS.domain).nullish(),
  ip: z.string().max(64).nullish(),
  country: z.string().max(8).nullish(),
  seen_at: z.iso.datetime({ offset: true }).nullish(),
  /** The client's key for this event: the same key within 7 days (in any batch) is stored once. */
  event_id: EventId.nullish(),
});
export type IngestReferrerEvent = z.input<typeof IngestReferrerEvent>;

/**
 * What a batch ingest answers once its events are committed (the whole batch or nothing):
 * how many were stored now (`accepted`, ids first_id…last_id) and how many were duplicates of
 * events already stored (same `event_id`, or the same batch under the same `Idempotency-Key`).
 */
export const IngestReferrersResult = z.object({
  accepted: z.number(),
  duplicates: z.number(),
  first_id: z.number().nullable(),
  last_id: z.number().nullable(),
});
export type IngestReferrersResult = z.infer<typeof IngestReferrersResult>;

export const referrersRoutes = {
  /** Distinct referrers in the range, one page (format=csv|ndjson: every row, SPEC's CSV columns). */
  report: route({ method: 'POST', path: '/api/referrers/', access: 'user', body: ReferrerReportQuery, response: ReferrerTable }),
  /** Raw events in the range, one page (newest first by default). The poller's call; format=csv|ndjson: every row. */
  logs: route({ method: 'POST', path: '/api/referrers_logs/', access: 'user', body: ReferrerLogQuery, response: ReferrerLogTable }),
  filters: route({ method: 'GET', path: '/api/referrers/filters', access: 'user', response: ReferrerFilters }),
  /**
   * text/event-stream: `id:` the event id, `data:` one ReferrerLogRecord as JSON, a comment
   * heartbeat every 15 s. Resume with the Last-Event-ID header or lastEventId. Build its URL
   * with `buildRequest(contract.referrers.stream, {...filter, access_token}, baseUrl).url`.
   */
  stream: route({
    method: 'GET',
    path: '/api/referrers_logs/stream',
    access: 'user',
    query: ReferrerStreamQuery,
    response: z.string(),
    responseType: 'text',
  }),
  /** The ad tag's beacon (public): 204, or a 1×1 GIF with format=gif. */
  hit: route({ method: 'GET', path: '/api/hit', access: 'public', query: HitQuery, response: emptyResponse, responseType: 'none' }),
  /**
   * NDJSON batch of IngestReferrerEvent (send it as the raw body). A bad line rejects the whole
   * batch with 400 {detail: "línea N: …"} and stores nothing. An `Idempotency-Key` header
   * (IdempotencyKey) makes a resend of the same batch store nothing again.
   */
  ingest: route({ method: 'POST', path: '/api/ingest/referrers', access: 'ingest', response: IngestReferrersResult }),
};

/** One NDJSON body from events (for `adops import referrers` and tests). */
export function toNdjson(events: readonly IngestReferrerEvent[]): string {
  return `${events.map((e) => JSON.stringify(e)).join('\n')}\n`;
}
