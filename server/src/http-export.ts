// An export as the HTTP answer: CSV (with BOM, in the dialect asked) or NDJSON streamed with
// backpressure, named for download. The rows come from a service's TableExport (tables.ts).
import { Readable } from 'node:stream';
import { csvHeader, csvRow } from '@adops/core';
import type { Ctx } from './http.js';
import type { ExportRequest, TableExport } from './tables.js';

/** A source with its first element read (see primed). */
type Primed<T> = AsyncIterable<T> & { release(): void };

/** Where an export's lines come from: CSV bytes the table writes itself, or its rows in chunks. */
type Data<Row> = { bytes: Primed<Uint8Array>; chunks?: undefined } | { bytes?: undefined; chunks: Primed<readonly Row[]> };

/**
 * The export's text: CSV lines in the dialect asked (figures at stored precision without binary
 * noise, so a column's sum is the report's total), or NDJSON lines (the stored doubles exactly,
 * for programs).
 */
async function* lines<Row>(
  { format, csv: dialect = 'standard' }: ExportRequest,
  exp: TableExport<Row>,
  data: Data<Row>,
): AsyncGenerator<string | Uint8Array> {
  if (format === 'csv') yield csvHeader(exp.fields, { dialect });
  if (data.bytes) {
    for await (const bytes of data.bytes) if (bytes.length > 0) yield bytes;
  } else {
    for await (const chunk of data.chunks) {
      let text = '';
      if (format === 'csv') for (const row of chunk) text += csvRow(exp.fields, row, dialect);
      else for (const row of chunk) text += `${JSON.stringify(exp.json ? exp.json(row) : row)}\n`;
      if (text) yield text;
    }
  }
  // A footer follows the lines however they were written.
  if (format === 'csv' && exp.csvFooter) for (const row of exp.csvFooter) yield csvRow(exp.fields, row, dialect);
}

/**
 * The source with its first element already read. A query that fails at once (a filter the engine
 * refuses, its memory limit) throws here, before the answer's head, and is answered as any error
 * is — its status and { detail } — not as a download that breaks before its first row. `release`
 * ends the source (its query, its connection) when the body never read it (the client left first).
 */
async function primed<T>(source: AsyncIterable<T> | Iterable<T>): Promise<Primed<T>> {
  const it = (async function* () {
    yield* source;
  })();
  let head: IteratorResult<T> | null = await it.next();
  const rest: AsyncIterator<T> = {
    next: () => {
      const first = head;
      head = null;
      return first ? Promise.resolve(first) : it.next();
    },
    return: () => {
      head = null;
      return it.return();
    },
  };
  return {
    [Symbol.asyncIterator]: () => rest,
    release: () => {
      it.return().catch(() => {});
    },
  };
}

/**
 * Streams a table export as the response (CSV with BOM in the dialect asked, or NDJSON), named for
 * download. Its first rows are read before the head goes out (see primed).
 */
export async function sendExport<Row>(ctx: Ctx, request: ExportRequest, exp: TableExport<Row>): Promise<void> {
  const { format, csv: dialect = 'standard' } = request;
  const bytes = format === 'csv' ? exp.csvLines?.(dialect) : undefined;
  const data: Data<Row> = bytes ? { bytes: await primed(bytes) } : { chunks: await primed(exp.chunks) };
  const file = format === 'csv' ? exp.file : exp.file.replace(/\.csv$/, '.ndjson');
  ctx.type = format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8';
  ctx.attachment(file);
  ctx.set('Cache-Control', 'no-store');
  // Readable.from pulls the next chunk only when the socket drained the previous one.
  const body = Readable.from(abortOnFailure(ctx, lines(request, exp, data)), { objectMode: false });
  // Closed however it ends (read whole, failed, or destroyed unread when the client left).
  body.once('close', (data.bytes ?? data.chunks).release);
  ctx.body = body;
}

/**
 * A failure half-way (the engine stopped the query, the warehouse closed) closes the connection,
 * so the client sees a broken download at once — never a file that ends short silently, never a
 * download left open. Koa ends the response only when its body itself fails: compressed, the body
 * is the gzip stream the export is piped into, which a failed export never ends, and the client
 * waited for bytes that would not come until its own timeout (5 minutes in Node's fetch); nor did
 * the error reach the log. It goes to the app's error listener here, once, whatever the encoding.
 */
async function* abortOnFailure<T>(ctx: Ctx, source: AsyncIterable<T>): AsyncGenerator<T> {
  try {
    yield* source;
  } catch (e) {
    ctx.app.emit('error', e, ctx);
    ctx.req.socket.destroy();
  }
}
