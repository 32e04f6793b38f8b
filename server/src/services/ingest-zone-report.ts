// Zone-report ingest: reads a CSV / NDJSON / JSON-array body as a stream (size-limited),
// validates each line, derives publisher revenue and margin from the revenue share when
// missing, stages the good rows and upserts them on the natural key in one transaction, then
// records each day's report as final or partial. The demo loader and `adops import` go through
// the same path.
import { pipeline, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { MAX_INGEST_BYTES, MAX_INGEST_JSON_BYTES, parseCsv, CsvParseError, type IngestResult, type ReportState } from '@adops/core';
import { DomainError } from '../domain-errors.js';
import type { Completeness } from './completeness.js';
import type { ZoneReportWarehouse } from '../warehouse/index.js';
import { type IngestItem, TEXT_LIMITS, FiguresDisagree, lastValidDate, lastText, plainNumber, toZoneReportRecord } from './ingest-zone-record.js';

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

export interface IngestLimits {
  /** Largest CSV / NDJSON body (decompressed). */
  maxBytes: number;
  /** Largest JSON-array body (parsed whole). */
  maxJsonBytes: number;
}

/** The body as text chunks, refusing more than `limit` bytes (413, `tooLarge` in words) as they arrive. */
async function* bodyText(body: Readable, limit: number, tooLarge: string): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  let bytes = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > limit) throw new DomainError('too_large', tooLarge);
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
    const chunks = bodyText(source, limit, bodyTooLarge(limit, format));
    const batches = format === 'csv' ? csvItems(chunks) : batched(format === 'ndjson' ? ndjsonItems(chunks) : jsonArrayItems(chunks));
    try {
      return await this.ingestBatches(batches, options);
    } catch (e) {
      const err = e as { code?: string; message?: string };
      if (err.code === 'Z_DATA_ERROR' || err.code === 'Z_BUF_ERROR') throw new DomainError('invalid', 'El cuerpo gzip está dañado');
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
