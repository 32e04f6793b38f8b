// Zone-report ingest: reads a CSV / NDJSON / JSON-array body as a stream (size-limited),
// validates each line, derives publisher revenue and margin from the revenue share when
// missing, stages the good rows and upserts them on the natural key in one transaction, then
// records each day's report as final or partial. The demo loader and `adops import` go through
// the same path.
import { pipeline, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import {
  DEFAULT_REVENUE_SHARE,
  MAX_INGEST_BYTES,
  MAX_INGEST_JSON_BYTES,
  MAX_REVENUE_SHARE,
  isValidYmd,
  parseCsv,
  CsvParseError,
  type IngestResult,
  type ReportState,
} from '@adops/core';
import { DomainError } from '../domain-errors.js';
import type { Completeness } from './completeness.js';
import type { ZoneReportRecord, ZoneReportWarehouse } from '../warehouse/index.js';
import { figuresDisagree } from './zone-figures.js';

/** One input line: its field values, or why it could not be read at all. */
export type IngestItem = { line: number; values: Record<string, unknown> } | { line: number; error: string };

/** A CSV line's fields beside its header: read into one reused object (no object of its own per line). */
type CsvItem = { line: number; fields: string[]; header: readonly string[] };
/**
 * A plain CSV line (no quote, no carriage return but a final one, no BOM) left where it lies in
 * the text read: its fields are read straight from there when the line is checked, without an
 * array of them, and a value equal to the previous line's (advertiser, publisher, day…) or a
 * plain number without a string of its own — allocation and its garbage collection were most of
 * reading a large file.
 */
type CsvLine = { line: number; text: string; start: number; end: number; header: readonly string[] };
type ReadItem = IngestItem | CsvItem | CsvLine;

/** Refused lines listed in an answer (all are counted in rejected_total); repeated keys likewise. */
export const MAX_LISTED_REJECTS = 1000;

/** Why a line whose key an earlier line had is listed (the warehouse keeps the last line of a key). */
export const repeatedKey = (firstLine: number) =>
  `misma clave (date, advertiser, publisher, zone_id, geo, source) que la línea ${firstLine}: se guarda la última línea de la clave`;

const REQUIRED = ['date', 'advertiser', 'publisher', 'zone_id', 'impressions', 'clicks', 'revenue'] as const;
const TEXT_LIMITS = { advertiser: 200, publisher: 200, zone_id: 100, geo: 100, source: 200, domain: 255 } as const;
const MAX_AMOUNT = 1e12;
const NUMBER_TEXT = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: imported text with control characters is refused
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

class Invalid extends Error {}

/** A line whose figures contradict each other (zone-figures.ts): the whole import is refused. */
export class FiguresDisagree {
  constructor(readonly detail: string) {}
}

/** The date last found valid (isValidYmd is a large share of a line's checks otherwise). */
let lastValidDate = '';

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** Each text column's last accepted value as given and as kept: a file repeats its advertisers, publishers, geos… line after line. */
const lastText: Record<keyof typeof TEXT_LIMITS, { given: unknown; kept: string }> = {
  advertiser: { given: null, kept: '' },
  publisher: { given: null, kept: '' },
  zone_id: { given: null, kept: '' },
  geo: { given: null, kept: '' },
  source: { given: null, kept: '' },
  domain: { given: null, kept: '' },
};

function text(values: Record<string, unknown>, field: keyof typeof TEXT_LIMITS, required: boolean): string {
  const v = values[field];
  const last = lastText[field];
  if (typeof v === 'string' && v === last.given) return last.kept;
  const kept = checkedText(v, field, required);
  if (typeof v === 'string') {
    last.given = v;
    last.kept = kept;
  }
  return kept;
}

function checkedText(v: unknown, field: keyof typeof TEXT_LIMITS, required: boolean): string {
  if (isBlank(v)) {
    if (required) throw new Invalid(`${field}: obligatorio`);
    return '';
  }
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string') throw new Invalid(`${field}: debe ser texto`);
  const t = v.trim();
  if (t.length > TEXT_LIMITS[field]) throw new Invalid(`${field}: más de ${TEXT_LIMITS[field]} caracteres`);
  if (CONTROL.test(t)) throw new Invalid(`${field}: contiene caracteres de control`);
  return t;
}

const POWERS_OF_TEN = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * Digits, with or without one decimal point between digits (what counts and amounts are), short
 * enough to be exact: their value without the regular expression and Number(); -1 otherwise.
 * At most 15 digits, so the digits as a whole number m are exact below 2^53, and 10^k (k digits
 * after the point) is exact too: m / 10^k, rounded once by the division, is the double nearest
 * the text — what Number() answers. At most 12 before the point: below MAX_AMOUNT.
 */
function plainNumber(v: string, from = 0, to = v.length): number {
  const len = to - from;
  if (len <= 0 || len > 16) return -1;
  let n = 0;
  let point = -1;
  for (let k = 0; k < len; k++) {
    const d = v.charCodeAt(from + k) - 48;
    // A digit, or one '.' with digits on both sides.
    if (d >= 0 && d <= 9) n = n * 10 + d;
    else if (d === -2 && point < 0 && k > 0 && k < len - 1) point = k;
    else return -1;
  }
  if (point < 0) return len > 12 ? -1 : n;
  return point > 12 ? -1 : n / POWERS_OF_TEN[len - 1 - point];
}

function num(values: Record<string, unknown>, field: string): number | null {
  const v = values[field];
  if (typeof v === 'string') {
    const n = plainNumber(v);
    if (n >= 0) return n;
  }
  if (isBlank(v)) return null;
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string') {
    const t = v.trim();
    if (!NUMBER_TEXT.test(t)) throw new Invalid(`${field}: debe ser un número (con punto decimal)`);
    n = Number(t);
  } else throw new Invalid(`${field}: debe ser un número (con punto decimal)`);
  if (!Number.isFinite(n) || Math.abs(n) > MAX_AMOUNT) throw new Invalid(`${field}: número fuera de rango`);
  return n;
}

/** Impressions, monetized impressions and clicks: whole and never negative (a negative count is refused like a negative revenue). */
function count(values: Record<string, unknown>, field: string, required: boolean): number | null {
  const n = num(values, field);
  if (n === null) {
    if (required) throw new Invalid(`${field}: obligatorio`);
    return null;
  }
  if (n < 0) throw new Invalid(`${field}: no puede ser negativo`);
  if (!Number.isSafeInteger(n)) throw new Invalid(`${field}: debe ser un entero ≥ 0`);
  return n;
}

/**
 * A zone-report row from loose input, or the reason it is refused. Missing money is derived:
 * with neither margin nor p_revenue, rate = the row's rate_applied, else the publisher's
 * configured share, else DEFAULT_REVENUE_SHARE; p_revenue = revenue × rate and
 * margin = revenue − p_revenue. With one of them given the other is revenue minus it.
 */
export function toZoneReportRecord(
  values: Record<string, unknown>,
  shares: ReadonlyMap<string, number>,
): ZoneReportRecord | string | FiguresDisagree {
  try {
    const rawDate = values.date;
    const date = typeof rawDate === 'string' ? rawDate.trim() : '';
    if (isBlank(rawDate)) throw new Invalid('date: obligatorio');
    if (date !== lastValidDate) {
      if (!isValidYmd(date)) throw new Invalid('date: fecha no válida (YYYY-MM-DD)');
      lastValidDate = date; // a file's lines come day by day: each day is checked once
    }
    const advertiser = text(values, 'advertiser', true);
    const publisher = text(values, 'publisher', true);
    const zone_id = text(values, 'zone_id', true);
    const geo = text(values, 'geo', false);
    const source = text(values, 'source', false);
    const domain = text(values, 'domain', false);
    const impressions = count(values, 'impressions', true)!;
    const monetized_impressions = count(values, 'monetized_impressions', false);
    const clicks = count(values, 'clicks', true)!;
    const revenue = num(values, 'revenue');
    if (revenue === null) throw new Invalid('revenue: obligatorio');
    // A negative revenue is a typo or a broken export far more often than a clawback, and one
    // line of −999.999 turns a month negative: refused with its line, like any bad value.
    if (revenue < 0) throw new Invalid('revenue: no puede ser negativo');
    const givenRate = num(values, 'rate_applied');
    if (givenRate !== null && (givenRate < 0 || givenRate > MAX_REVENUE_SHARE))
      throw new Invalid(`rate_applied: debe estar entre 0 y ${MAX_REVENUE_SHARE}`);
    const givenPRevenue = num(values, 'p_revenue');
    if (givenPRevenue !== null && givenPRevenue < 0) throw new Invalid('p_revenue: no puede ser negativo');
    const givenMargin = num(values, 'margin');
    const tq = num(values, 'tq');
    const disagree = figuresDisagree({
      impressions,
      monetized_impressions,
      clicks,
      revenue,
      p_revenue: givenPRevenue,
      margin: givenMargin,
      rate_applied: givenRate,
      tq,
    });
    if (disagree) return new FiguresDisagree(disagree);

    let p_revenue: number;
    let margin: number;
    let rate_applied: number | null = givenRate;
    if (givenPRevenue === null && givenMargin === null) {
      rate_applied = givenRate ?? shares.get(publisher.toLowerCase()) ?? DEFAULT_REVENUE_SHARE;
      p_revenue = revenue * rate_applied;
      margin = revenue - p_revenue;
    } else {
      p_revenue = givenPRevenue ?? revenue - givenMargin!;
      margin = givenMargin ?? revenue - p_revenue;
      if (rate_applied === null && revenue > 0) rate_applied = p_revenue / revenue;
    }
    return {
      date,
      advertiser,
      publisher,
      zone_id,
      geo,
      source,
      domain,
      impressions,
      monetized_impressions,
      clicks,
      revenue,
      rate_applied,
      p_revenue,
      margin,
      tq,
    };
  } catch (e) {
    if (e instanceof Invalid) return e.message;
    throw e;
  }
}

export interface IngestLimits {
  /** Largest CSV / NDJSON body (decompressed). */
  maxBytes: number;
  /** Largest JSON-array body (parsed whole). */
  maxJsonBytes: number;
}

/** The body as text chunks, refusing more than `limit` bytes (413) as they arrive. */
async function* bodyText(body: Readable, limit: number): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  let bytes = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > limit) throw new DomainError('too_large', 'El cuerpo de la petición es demasiado grande');
    const t = decoder.decode(chunk, { stream: true });
    if (t) yield t;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

/** Items are read and validated a batch at a time (one await per batch, not per line). */
const BATCH = 2048;

/**
 * A record's fields when it is plain — no quote, no carriage return but a final one, no leading
 * BOM — split at the separators (what parseCsv answers for such text, at a fraction of the cost);
 * null when core's parseCsv must read it. An empty record has no fields.
 */
function plainFields(text: string, quoted: boolean): string[] | null {
  if (quoted || text.charCodeAt(0) === 0xfeff) return null;
  let t = text;
  const cr = t.indexOf('\r');
  if (cr >= 0) {
    if (cr !== t.length - 1) return null;
    t = t.slice(0, cr);
  }
  return t === '' ? [] : t.split(',');
}

/**
 * Splits CSV text into records at line ends outside quotes, keeping the physical line each
 * record starts on, and reads every record (plainFields, else core's parseCsv). The first
 * record is the header. Yields the items of each chunk of text at once.
 */
async function* csvItems(chunks: AsyncIterable<string>): AsyncGenerator<ReadItem[]> {
  let pending = '';
  let scanned = 0;
  let inQuotes = false;
  let line = 1; // physical line where `pending` starts
  let linesInPending = 0;
  let header: string[] | null = null;
  let out: ReadItem[] = [];

  const read = (text: string, start: number, end: number, at: number, quoted: boolean, cr: number): void => {
    if (header && !quoted && text.charCodeAt(start) !== 0xfeff && (cr < 0 || cr >= end - 1)) {
      const to = cr === end - 1 ? end - 1 : end; // a final CR is the CRLF's
      if (to > start) out.push({ line: at, text, start, end: to, header });
      return; // an empty line
    }
    const recordText = text.slice(start, end);
    let fields = plainFields(recordText, quoted);
    if (fields === null) {
      let records: string[][];
      try {
        records = parseCsv(recordText);
      } catch (e) {
        if (!(e instanceof CsvParseError)) throw e;
        out.push({ line: at, error: 'CSV mal formado: comillas sin cerrar' });
        return;
      }
      if (records.length > 1) {
        out.push({ line: at, error: 'varias filas en una línea (usa finales de línea LF o CRLF)' });
        return;
      }
      fields = records[0] ?? [];
    }
    if (fields.length === 0) return; // empty line
    if (!header) {
      const names = fields.map((f) => f.trim().toLowerCase());
      const missing = REQUIRED.filter((c) => !names.includes(c));
      if (missing.length) throw new DomainError('invalid', `Faltan columnas en la cabecera CSV: ${missing.join(', ')}`);
      const dup = names.find((h, i) => h !== '' && names.indexOf(h) !== i);
      if (dup) throw new DomainError('invalid', `Columna repetida en la cabecera CSV: ${dup}`);
      header = names;
      return;
    }
    if (fields.length !== header.length) {
      out.push({ line: at, error: `tiene ${fields.length} campos y la cabecera ${header.length}` });
      return;
    }
    out.push({ line: at, fields, header });
  };

  for await (const chunk of chunks) {
    pending += chunk;
    let start = 0;
    let i = scanned;
    // The next quote at or after `i` (-1: none in `pending`): found once, not once per line.
    let quote = pending.indexOf('"', i);
    // Whether the record under way (it starts `pending`) had a quote in text already scanned.
    let quoted = scanned > 0 && pending.lastIndexOf('"', scanned - 1) >= 0;
    // The first carriage return at or after the record under way (-1: none).
    let cr = pending.indexOf('\r');
    for (;;) {
      const nl = pending.indexOf('\n', i);
      if (nl < 0) break;
      while (quote >= 0 && quote < nl) {
        inQuotes = !inQuotes;
        quoted = true;
        quote = pending.indexOf('"', quote + 1);
      }
      linesInPending++;
      i = nl + 1;
      if (!inQuotes) {
        if (cr >= 0 && cr < start) cr = pending.indexOf('\r', start);
        read(pending, start, nl, line, quoted, cr);
        line += linesInPending;
        linesInPending = 0;
        start = i;
        quoted = false;
      }
    }
    while (quote >= 0) {
      inQuotes = !inQuotes;
      quote = pending.indexOf('"', quote + 1);
    }
    pending = pending.slice(start);
    scanned = pending.length;
    if (out.length > 0) {
      yield out;
      out = [];
    }
  }
  if (pending.trim() !== '') read(pending, 0, pending.length, line, true, -1);
  if (out.length > 0) yield out;
  if (!header) throw new DomainError('invalid', 'El CSV está vacío: falta la fila de cabecera');
}

function objectItem(line: number, parsed: unknown): IngestItem {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { line, error: 'se esperaba un objeto JSON' };
  return { line, values: parsed as Record<string, unknown> };
}

/** NDJSON: one JSON object per line; blank lines skipped. */
async function* ndjsonItems(chunks: AsyncIterable<string>): AsyncGenerator<IngestItem> {
  let pending = '';
  let line = 1;
  const one = (text: string, at: number): IngestItem | null => {
    if (text.trim() === '') return null;
    try {
      return objectItem(at, JSON.parse(text));
    } catch {
      return { line: at, error: 'JSON mal formado' };
    }
  };
  for await (const chunk of chunks) {
    pending += chunk;
    let start = 0;
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n', start)) {
      const item = one(pending.slice(start, nl), line++);
      if (item) yield item;
      start = nl + 1;
    }
    pending = pending.slice(start);
  }
  const last = one(pending, line);
  if (last) yield last;
}

/** A JSON array, parsed whole; an element's "line" is its 1-based position. */
async function* jsonArrayItems(chunks: AsyncIterable<string>): AsyncGenerator<IngestItem> {
  let body = '';
  for await (const chunk of chunks) body += chunk;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new DomainError('invalid', 'JSON mal formado');
  }
  if (!Array.isArray(parsed)) throw new DomainError('invalid', 'Se esperaba un array JSON de filas');
  for (let i = 0; i < parsed.length; i++) yield objectItem(i + 1, parsed[i]);
}

/** The values of a CSV line by column name, in an object reused for every line (validation keeps none of it). */
let csvView: { header: readonly string[] | null; values: Record<string, unknown> } = { header: null, values: {} };
function csvValues(item: CsvItem): Record<string, unknown> {
  if (csvView.header !== item.header) csvView = { header: item.header, values: {} };
  const { values } = csvView;
  const { header, fields } = item;
  for (let i = 0; i < header.length; i++) if (header[i] !== '') values[header[i]] = fields[i];
  return values;
}

type FieldKind = 'date' | 'text' | 'number' | 'unused';
const NUMERIC = new Set(['impressions', 'monetized_impressions', 'clicks', 'revenue', 'rate_applied', 'p_revenue', 'margin', 'tq']);
const kindOf = (name: string): FieldKind =>
  name === 'date' ? 'date' : Object.hasOwn(TEXT_LIMITS, name) ? 'text' : NUMERIC.has(name) ? 'number' : 'unused';
let lineView: { header: readonly string[] | null; kinds: FieldKind[] } = { header: null, kinds: [] };

/** Whether text[from, to) is `v`, compared in place. */
const isAt = (text: string, from: number, to: number, v: unknown): v is string =>
  typeof v === 'string' && v.length === to - from && text.startsWith(v, from);

/**
 * One field of a plain line as toZoneReportRecord reads it: the previous line's value itself when
 * equal (its checks are then skipped as for the same string), a plain number as a number (what
 * num() answers for its text), else its text.
 */
function fieldAt(kind: FieldKind, name: string, text: string, from: number, to: number): unknown {
  if (kind === 'date') return isAt(text, from, to, lastValidDate) ? lastValidDate : text.slice(from, to);
  if (kind === 'text') {
    const given = lastText[name as keyof typeof TEXT_LIMITS].given;
    return isAt(text, from, to, given) ? given : text.slice(from, to);
  }
  const n = plainNumber(text, from, to);
  return n >= 0 ? n : text.slice(from, to);
}

/** The values of a plain CSV line by column name (in the object csvValues reuses), or why it is refused. */
function csvLineValues(item: CsvLine): Record<string, unknown> | string {
  const { text, end, header } = item;
  if (csvView.header !== header) csvView = { header, values: {} };
  if (lineView.header !== header) lineView = { header, kinds: header.map(kindOf) };
  const { values } = csvView;
  const { kinds } = lineView;
  let from = item.start;
  let n = 0;
  for (;;) {
    let comma = text.indexOf(',', from);
    if (comma < 0 || comma > end) comma = end;
    if (n < header.length && kinds[n] !== 'unused') values[header[n]] = fieldAt(kinds[n], header[n], text, from, comma);
    n++;
    if (comma === end) break;
    from = comma + 1;
  }
  return n === header.length ? values : `tiene ${n} campos y la cabecera ${header.length}`;
}

/** Items in arrays of up to BATCH. */
async function* batched(items: AsyncIterable<IngestItem> | Iterable<IngestItem>): AsyncGenerator<IngestItem[]> {
  let out: IngestItem[] = [];
  for await (const item of items) {
    out.push(item);
    if (out.length >= BATCH) {
      yield out;
      out = [];
    }
  }
  if (out.length > 0) yield out;
}

export type IngestFormat = 'csv' | 'ndjson' | 'json';

/** The input format from a Content-Type (parameters ignored), or null when unsupported. */
export function formatOf(contentType: string): IngestFormat | null {
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (type === 'text/csv' || type === 'application/csv') return 'csv';
  if (type === 'application/x-ndjson' || type === 'application/ndjson' || type === 'application/jsonl') return 'ndjson';
  if (type === 'application/json') return 'json';
  return null;
}

export class ZoneReportIngest {
  readonly limits: IngestLimits = { maxBytes: MAX_INGEST_BYTES, maxJsonBytes: MAX_INGEST_JSON_BYTES };

  constructor(
    private readonly warehouse: ZoneReportWarehouse,
    /** Configured revenue shares by lower-case publisher name. */
    private readonly shares: () => Promise<ReadonlyMap<string, number>>,
    /** Called after rows were committed (caches of filter lists are dropped), with the first day the import touched. */
    private readonly onCommitted: (firstDay: string) => void,
    /** Where the imported days' reports are recorded final or partial (without it, none is). */
    private readonly finality?: Pick<Completeness, 'recordImport'>,
  ) {}

  /**
   * Validates and upserts items; refused lines are reported, good ones kept — unless a line's
   * figures contradict each other (zone-figures.ts): then nothing is stored and the answer is 400
   * naming that line, with every refused line listed. Each day stored is then recorded final or
   * partial: as `options.report` says, else by the clock (a day over is final).
   */
  ingest(items: AsyncIterable<IngestItem> | Iterable<IngestItem>, options: { report?: ReportState } = {}): Promise<IngestResult> {
    return this.ingestBatches(batched(items), options);
  }

  private async ingestBatches(batches: AsyncIterable<readonly ReadItem[]>, options: { report?: ReportState }): Promise<IngestResult> {
    const shares = await this.shares();
    const rejected: IngestResult['rejected'] = [];
    let rejectedTotal = 0;
    const reject = (line: number, detail: string) => {
      rejectedTotal++;
      if (rejected.length < MAX_LISTED_REJECTS) rejected.push({ line, detail });
    };
    const batch = await this.warehouse.beginImport();
    try {
      // The line orders the rows of a key (the last wins) and names them in `duplicates`; items
      // out of order (a caller's own) get the next seq, and their line is kept beside it.
      let seq = 0;
      const lineOf = new Map<number, number>();
      const days = new Set<string>();
      let lastDay = '';
      const disagreeing: Array<{ line: number; detail: string }> = [];
      for await (const items of batches)
        for (const item of items) {
          if ('error' in item) {
            reject(item.line, item.error);
            continue;
          }
          const values = 'text' in item ? csvLineValues(item) : 'fields' in item ? csvValues(item) : item.values;
          if (typeof values === 'string') {
            reject(item.line, values);
            continue;
          }
          const record = toZoneReportRecord(values, shares);
          if (typeof record === 'string') reject(item.line, record);
          else if (record instanceof FiguresDisagree) {
            disagreeing.push({ line: item.line, detail: record.detail });
            reject(item.line, record.detail);
          } else if (disagreeing.length === 0) {
            seq = Math.max(seq + 1, item.line);
            if (seq !== item.line) lineOf.set(seq, item.line);
            if (record.date !== lastDay) {
              lastDay = record.date; // lines come day by day: each day is added once
              days.add(lastDay);
            }
            const full = batch.add(record, seq);
            if (full) await full; // the warehouse holds as many rows as it may: wait until it took some
          }
        }
      if (disagreeing.length > 0) throw figuresRefusal(disagreeing, rejected, rejectedTotal);
      const { inserted, replaced, repeated, repeated_total } = await batch.commit(MAX_LISTED_REJECTS);
      // Before the caches are dropped, so their next read sees each day as final or partial.
      const recorded = this.finality ? await this.finality.recordImport(days, options.report) : [];
      if (inserted + replaced > 0 || recorded.length > 0) this.onCommitted(firstOf(days));
      const line = (s: number) => lineOf.get(s) ?? s;
      const duplicates = repeated.map((r) => ({ line: line(r.seq), first_line: line(r.first_seq), detail: repeatedKey(line(r.first_seq)) }));
      return { inserted, replaced, rejected, rejected_total: rejectedTotal, duplicates, duplicates_total: repeated_total, days: recorded };
    } finally {
      await batch.close();
    }
  }

  /** Reads an HTTP body of the given Content-Type (and optional gzip Content-Encoding). */
  async ingestBody(
    body: Readable,
    headers: { contentType: string; contentEncoding?: string; contentLength?: number },
    options: { report?: ReportState } = {},
  ): Promise<IngestResult> {
    const format = formatOf(headers.contentType);
    if (!format) throw new DomainError('unsupported', 'Tipo de contenido no soportado: usa text/csv, application/x-ndjson o application/json');
    const limit = format === 'json' ? this.limits.maxJsonBytes : this.limits.maxBytes;
    const encoding = (headers.contentEncoding ?? 'identity').trim().toLowerCase();
    if (encoding !== 'identity' && encoding !== 'gzip') throw new DomainError('unsupported', 'Codificación no soportada: usa gzip o ninguna');
    if (encoding === 'identity' && headers.contentLength !== undefined && headers.contentLength > limit)
      throw new DomainError('too_large', bodyTooLarge(limit, format));
    // pipeline destroys both streams on an error; the reader below sees it as a rejection.
    const source = encoding === 'gzip' ? pipeline(body, createGunzip(), () => undefined) : body;
    const chunks = bodyText(source, limit);
    const batches = format === 'csv' ? csvItems(chunks) : batched(format === 'ndjson' ? ndjsonItems(chunks) : jsonArrayItems(chunks));
    try {
      return await this.ingestBatches(batches, options);
    } catch (e) {
      const err = e as { code?: string; message?: string };
      if (err.code === 'Z_DATA_ERROR' || err.code === 'Z_BUF_ERROR') throw new DomainError('invalid', 'El cuerpo gzip está dañado');
      if (e instanceof DomainError && e.kind === 'too_large') throw new DomainError('too_large', bodyTooLarge(limit, format));
      if (err.code === 'ECONNRESET' || err.message === 'aborted') throw new DomainError('invalid', 'Petición interrumpida');
      throw e;
    }
  }
}

/** The earliest of YYYY-MM-DD days (text order is date order). */
function firstOf(days: Iterable<string>): string {
  let first = '';
  for (const d of days) if (first === '' || d < first) first = d;
  return first;
}

/**
 * The 400 of an import with figures that disagree: the first such line in words, how many more,
 * that nothing was stored; every refused line listed as an import's answer lists them.
 */
function figuresRefusal(disagreeing: ReadonlyArray<{ line: number; detail: string }>, rejected: IngestResult['rejected'], rejectedTotal: number) {
  const [first] = disagreeing;
  const more = disagreeing.length - 1;
  const others = more === 0 ? '' : ` (y ${more} ${more === 1 ? 'línea más' : 'líneas más'} con cifras que no cuadran: ver rejected)`;
  return new DomainError(
    'invalid',
    `Línea ${first.line}: ${first.detail}${others}. No se ha importado nada: cifras que se contradicen suelen ser columnas cambiadas de sitio; corrige el archivo e impórtalo de nuevo.`,
    { fields: { rejected, rejected_total: rejectedTotal } },
  );
}

function bodyTooLarge(limit: number, format: IngestFormat): string {
  const size = limit >= 1024 * 1024 ? `${Math.round(limit / 1024 / 1024)} MB` : `${limit} bytes`;
  return format === 'json'
    ? `El cuerpo supera el máximo de ${size} para un array JSON; usa CSV o NDJSON para cargas grandes`
    : `El cuerpo supera el máximo de ${size}`;
}
