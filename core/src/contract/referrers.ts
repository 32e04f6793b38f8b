// Referrer traffic: the ad tag's beacon, batch ingest, the distinct-referrer report, the raw
// log (polling) and its live stream (SSE), and the filter bar's option lists.
import { z } from 'zod';
import { DATE_RANGE_REVERSED, rangeTooLong } from '../voice.js';
import { route, emptyResponse } from './route.js';
import { queryInt, tableFields, tablePage } from './table.js';
import { BOT_REASONS, REFERRER_SORT_KEYS } from './values.js';
import { IVT_FIGURE_FIELDS } from './figures.js';

export { BOT_REASONS, BOT_REASON_LABELS, REFERRER_SORT_KEYS } from './values.js';

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
  /** Longest User-Agent of a batch event (longer ones refused). */
  userAgent: 1024,
  /** Most domains one referrer-spam list change may add or remove. */
  spamChange: 1000,
  /** Longest attribution value of an event: a Meta campaign, ad set or ad id, or a placement. */
  attribution: 64,
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

/**
 * An attribution value of an event (a Meta campaign, ad set or ad id, or a placement, as the
 * tracking URL's macros fill them in): at most 64 printable characters; a number is read as its
 * text. Blank, and a macro Meta left unreplaced ('{{ad.id}}'), are stored as absent.
 */
const attribution = () =>
  z
    // A beacon parameter given twice (?cid=1&cid=2) arrives as a list: said as such, not as "not text".
    .union([z.string(), z.number().int().nonnegative()], {
      error: (iss) => (Array.isArray(iss.input) ? 'debe indicarse una sola vez' : 'debe ser texto'),
    })
    .transform((v) => String(v))
    .pipe(
      z
        .string()
        .max(REFERRER_LIMITS.attribution, `no puede superar ${REFERRER_LIMITS.attribution} caracteres`)
        .regex(/^[^\p{Cc}]*$/u, 'no puede contener caracteres de control'),
    );

const DAY_MS = 86_400_000;

/** An instant: ISO 8601 with offset or Z, a local date-time (read in the reporting time zone),
 *  or a calendar day YYYY-MM-DD (its start for startDate, its end for endDate). */
export const FilterInstant = z
  .string()
  .trim()
  .max(40)
  .refine(
    (v) => z.iso.datetime({ offset: true, local: true }).safeParse(v).success || z.iso.date().safeParse(v).success,
    'debe ser una fecha AAAA-MM-DD o un instante ISO 8601',
  );

/** "Todos", empty, null and absent all mean no filter. */
const choice = (max: number) =>
  z
    .string()
    .max(max)
    .nullish()
    .transform((v) => (v == null || v.trim() === '' || v.trim() === 'Todos' ? undefined : v.trim()));

/**
 * Why an event is invalid traffic (IVT): a known bot or crawler by its user agent, a referrer
 * (or source) on the referrer-spam list, one IP over its hits-per-minute rate, or a zone no
 * zone report has ever named. Flagged events are stored but left out unless `include_bots`.
 */
export const BotReason = z.enum(BOT_REASONS);
export type BotReason = z.infer<typeof BotReason>;

/** `include_bots`: a boolean, or its text in a query string ('true'/'false', '1'/'0'); absent = false. */
const IncludeBots = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])], { error: 'debe ser sí o no (true o false)' })
  .nullish()
  .transform((v) => v === true || v === 'true' || v === '1');

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
  /** Also count events flagged as bots or spam (default: left out). */
  include_bots: IncludeBots,
};

/** Bounds that can be checked without the time zone (explicit instants only). */
function checkRange(f: { startDate?: string; endDate?: string }, ctx: z.RefinementCtx): void {
  if (!f.startDate || !f.endDate) return;
  const hasZone = (v: string) => /(Z|[+-]\d{2}:?\d{2})$/i.test(v);
  if (!hasZone(f.startDate) || !hasZone(f.endDate)) return;
  const start = Date.parse(f.startDate);
  const end = Date.parse(f.endDate);
  if (start > end) ctx.addIssue({ code: 'custom', path: ['startDate'], message: DATE_RANGE_REVERSED });
  else if (end - start > (REFERRER_LIMITS.spanDays + 1) * DAY_MS)
    ctx.addIssue({ code: 'custom', path: ['endDate'], message: rangeTooLong(REFERRER_LIMITS.spanDays) });
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
  /** Flagged as invalid traffic (only listed with include_bots). */
  is_bot: z.boolean(),
  /** Why it was flagged (null for human traffic). */
  reason: BotReason.nullable(),
  /**
   * 'Valor': what the visit is worth — its zone's revenue per human visit that day (the trailing
   * 7 reported days' while the day's report has not arrived; the profit query's rule), 0 for
   * flagged traffic, null when the zone has none. Absent from the CSV/NDJSON exports.
   */
  value: z.number().nullable().optional(),
  /** The zone's TQ that day (or its trailing TQ); null when unknown. */
  tq: z.number().nullable().optional(),
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
/** Human visits (hits) between two instants (ISO 8601, both inclusive). */
const VisitSpan = z.object({ from: z.string(), to: z.string(), hits: z.number() });

/**
 * The referrers' visits against the previous period, like with like: visits have instants, so
 * a period still running is compared up to the current minute with the previous period up to
 * the same time of day ('hasta las 03:00 frente a ayer a la misma hora'); a period over is
 * compared whole; one not begun has nothing to compare (basis none).
 */
export const VisitsComparison = z.object({
  basis: z.enum(['whole_days', 'same_hours', 'none']),
  tz: z.string(),
  today: z.string(),
  current: VisitSpan.nullable(),
  previous: VisitSpan.nullable(),
  /** % change of the visits, current against previous; null when nothing compares or the base is 0. */
  change_percent: z.number().nullable(),
  label: z.string(),
  note: z.string(),
});
export type VisitsComparison = z.infer<typeof VisitsComparison>;

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
  zone_id: z.string().trim().min(1, 'es obligatorio').max(REFERRER_LIMITS.zoneId),
  ref: z.string().max(REFERRER_LIMITS.referrer).optional(),
  kw: z.string().max(REFERRER_LIMITS.keyword).optional(),
  src: z.string().max(REFERRER_LIMITS.domain).optional(),
  /** 'gif' answers a 1×1 transparent GIF instead of 204. */
  format: z.enum(['gif']).optional(),
  /** The tag's key for this hit: a hit resent with the same key within 7 days is stored once. */
  event_id: EventId.optional(),
  /** Attribution from the landing URL (the campaign creator's tracking URL): Meta campaign, ad set and ad ids, placement. */
  cid: attribution().optional(),
  asid: attribution().optional(),
  adid: attribution().optional(),
  plc: attribution().optional(),
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
    .pipe(z.string().regex(/^[\w.:-]{1,64}$/, 'debe tener de 1 a 64 letras, dígitos o . _ : -')),
  referrer: z.string().max(REFERRER_LIMITS.referrer).nullish(),
  keyword: z.string().max(REFERRER_LIMITS.keyword).nullish(),
  parent_domain: z.string().max(REFERRER_LIMITS.domain).nullish(),
  ip: z.string().max(64).nullish(),
  country: z.string().max(8).nullish(),
  seen_at: z.iso.datetime({ offset: true }).nullish(),
  /** The visitor's User-Agent (not stored: a known bot or crawler flags the event). */
  user_agent: z.string().max(REFERRER_LIMITS.userAgent).nullish(),
  /** The client's key for this event: the same key within 7 days (in any batch) is stored once. */
  event_id: EventId.nullish(),
  /** Attribution: the Meta campaign, ad set and ad ids and the placement the visit came from (the beacon's cid, asid, adid, plc). */
  campaign_id: attribution().nullish(),
  adset_id: attribution().nullish(),
  ad_id: attribution().nullish(),
  placement: attribution().nullish(),
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

/** The IVT table's grouping: one row per zone (with its publisher) or per publisher. */
export const IVT_GROUPS = ['zone', 'publisher'] as const;
export const IVT_SORT_KEYS = ['zone_id', 'publisher', 'hits', 'bot_hits', 'ivt_rate'] as const;
/** The IVT table's body: the filter (include_bots is ignored: it counts both), the grouping and the table fields (default: most invalid hits first). */
export const IvtQuery = z
  .object({
    ...filterShape,
    by: z.enum(IVT_GROUPS).default('zone'),
    ...tableFields(IVT_SORT_KEYS, REFERRERS_PAGE_SIZE),
  })
  .superRefine(checkRange);
export type IvtQuery = z.input<typeof IvtQuery>;

/**
 * One zone's or publisher's traffic in the range: every hit (human and flagged), the flagged
 * ones, and the IVT rate (metrics registry: `ivt_rate`, flagged over all, in %; null without hits).
 * By publisher, zone_id is null; a zone no report names has a null publisher.
 */
export const IvtRow = z.object({
  zone_id: z.string().nullable(),
  publisher: z.string().nullable(),
  hits: z.number(),
  bot_hits: z.number(),
  ...IVT_FIGURE_FIELDS,
});
export type IvtRow = z.infer<typeof IvtRow>;
export const IvtTable = tablePage(IvtRow, z.object({ hits: z.number(), bot_hits: z.number(), ...IVT_FIGURE_FIELDS }));
export type IvtTable = z.infer<typeof IvtTable>;

/** A domain of the referrer-spam list: a host name (its subdomains match too). */
export const SpamDomain = z
  .string()
  .trim()
  // Whole sentences naming the domain as typed (lower-cased only once accepted): the screen adds
  // one at a time (a list place, "Dominios que añadir (1.º)", would tell it nothing), and a script
  // sending many learns which one.
  .max(REFERRER_LIMITS.domain, {
    error: (iss) => `El dominio «${String(iss.input).slice(0, 40)}…» supera ${REFERRER_LIMITS.domain} caracteres`,
  })
  .regex(/^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)+$/i, {
    error: (iss) => `El dominio «${String(iss.input).slice(0, 80)}» no es un nombre de host como spam.example.com`,
  })
  .toLowerCase();

/** The referrer-spam list: the shipped list (its source and size) and the admins' changes to it. */
export const SpamList = z.object({
  /** Where the shipped list comes from. */
  source: z.string(),
  /** Domains in the shipped list. */
  shipped: z.number(),
  /** Domains admins added (not in the shipped list), sorted. */
  added: z.array(z.string()),
  /** Shipped domains admins took out (no longer spam), sorted. */
  removed: z.array(z.string()),
  /** Domains the list flags now. */
  total: z.number(),
});
export type SpamList = z.infer<typeof SpamList>;

const spamDomains = z.array(SpamDomain).max(REFERRER_LIMITS.spamChange, `como máximo ${REFERRER_LIMITS.spamChange} dominios por cambio`).default([]);
/** A change of the list: domains to flag from now on, and domains to flag no more (a shipped one is kept out). */
export const SpamListChange = z
  .object({ add: spamDomains, remove: spamDomains })
  .strict()
  .refine((c) => c.add.length + c.remove.length > 0, 'Indica algún dominio que añadir o quitar');
export type SpamListChange = z.input<typeof SpamListChange>;

export const referrersRoutes = {
  /** Distinct referrers in the range, one page (format=csv|ndjson: every row, SPEC's CSV columns). */
  report: route({ method: 'POST', path: '/api/referrers/', access: 'user', heavy: true, body: ReferrerReportQuery, response: ReferrerTable }),
  /** The filter's visits against the previous period, like with like (see VisitsComparison). */
  comparison: route({
    method: 'POST',
    path: '/api/referrers/comparison',
    access: 'user',
    heavy: true,
    body: ReferrerFilter,
    response: VisitsComparison,
  }),
  /** Raw events in the range, one page (newest first by default). The poller's call; format=csv|ndjson: every row. */
  logs: route({ method: 'POST', path: '/api/referrers_logs/', access: 'user', heavy: true, body: ReferrerLogQuery, response: ReferrerLogTable }),
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
  /** Invalid-traffic (IVT) rate per zone or publisher in the range (format=csv|ndjson: every row). */
  ivt: route({ method: 'POST', path: '/api/referrers/ivt', access: 'user', heavy: true, body: IvtQuery, response: IvtTable }),
  /** The referrer-spam list (admin). */
  spamList: route({ method: 'GET', path: '/api/admin/referrer-spam', access: 'admin', response: SpamList }),
  /** Adds domains to the referrer-spam list or takes them out (admin); answers the list. */
  updateSpamList: route({ method: 'POST', path: '/api/admin/referrer-spam', access: 'admin', body: SpamListChange, response: SpamList }),
};

/** One NDJSON body from events (for `adops import referrers` and tests). */
export function toNdjson(events: readonly IngestReferrerEvent[]): string {
  return `${events.map((e) => JSON.stringify(e)).join('\n')}\n`;
}
