// Machine output of a server table: `--csv` streams the server's CSV export to a file or
// stdout (`--excel`: the Spanish-spreadsheet flavour, ';' and decimal commas), `--json` streams
// its NDJSON export into one JSON document written as it arrives,
// so any number of rows goes through in constant memory; `--limit N` keeps the first N rows
// of the server's order. The CLI never sorts, sums or pages rows itself.
import { offerValues } from './option-values.js';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { Command } from 'commander';
import { MAX_PAGE_SIZE, formatInt, jsonFigures, parseSortText, sortText, type CsvDialect, type TablePage } from '@adops/core/lite';
import type { Cli } from '../context.js';
import { CliError, EXIT } from '../io.js';

/** The flags every table command takes for its machine output. */
export interface TableFlags {
  sort?: string;
  columns?: string;
  limit?: string;
  csv?: string | true;
  /** With --csv: the file for a Spanish spreadsheet (';', decimal commas, dates dd/MM/yyyy). */
  excel?: boolean;
  json?: boolean;
}

/** One page of a server table (the fields the CLI reads). */
export type ServerPage<Row = unknown> = TablePage<Row>;

export interface PageRequest {
  /** 'key:asc|desc'; undefined = the table's default order. */
  sort?: string;
  page: number;
  page_size: number;
}

/** A table on the server: one page as JSON, or every matching row as an export. */
export interface ServerTable<Answer extends ServerPage> {
  page(request: PageRequest): Promise<Answer>;
  /** The raw export response (format=csv|ndjson) in the order `sort`, a CSV in `csv`'s dialect. */
  open(format: 'csv' | 'ndjson', sort: string | undefined, signal: AbortSignal, csv: CsvDialect): Promise<Response>;
}

/** --sort KEY[:asc|desc] checked against a table's sort keys (the contract's), as the server's `sort` text. */
export function parseSortFlag(
  value: string | undefined,
  keys: readonly string[] | ((key: string) => boolean),
  described?: string,
): string | undefined {
  if (value === undefined) return undefined;
  const sort = parseSortText(value);
  const accepts = typeof keys === 'function' ? keys : (key: string) => keys.includes(key);
  if (!sort || !accepts(sort.key)) {
    const names = described ?? (keys as readonly string[]).join(', ');
    throw new CliError(`--sort no válido: ${value} (usa CLAVE[:asc|desc]; claves: ${names})`, EXIT.usage);
  }
  return sortText(sort);
}

/** --limit N: a whole number ≥ 1. */
export function parseLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,9}$/.test(value) || Number(value) < 1) throw new CliError(`--limit no válido: ${value} (un número entero mayor que 0)`, EXIT.usage);
  return Number(value);
}

/** Adds --sort (when the table sorts), --limit, --csv and --json. */
export function addTableOptions(cmd: Command, options: { sortKeys?: string; csvDefaultName?: string } = {}): Command {
  if (options.sortKeys !== undefined) {
    cmd.option('--sort <key>', `ordena en el servidor: CLAVE[:asc|desc] (claves: ${options.sortKeys})`);
    offerValues(cmd, '--sort', options.sortKeys.split(/,\s*/));
  }
  cmd.option('--columns <keys>', 'en pantalla, solo estas columnas y en este orden (claves separadas por comas)');
  cmd.option('--limit <n>', 'solo las primeras N filas del orden pedido (en pantalla: N filas por página, hasta 500)');
  if (options.csvDefaultName !== undefined)
    cmd.option('--csv [file]', `exporta todas las filas en CSV; sin FILE, ${options.csvDefaultName}; "-" = salida estándar (sin BOM)`);
  else cmd.option('--csv <file>', 'exporta todas las filas en CSV a FILE, con BOM para hojas de cálculo ("-" = salida estándar, sin BOM)');
  addExcelOption(cmd);
  return cmd.option('--json', 'exporta todas las filas en JSON');
}

/** --excel: the --csv file for Excel in Spanish. */
export function addExcelOption(cmd: Command): Command {
  return cmd.option('--excel', 'con --csv: CSV para Excel en español (punto y coma, coma decimal, fechas dd/MM/aaaa)');
}

/** The CSV dialect the flags ask for; --excel without --csv is a usage error. */
export function csvDialect(flags: Pick<TableFlags, 'csv' | 'excel'>): CsvDialect {
  if (!flags.excel) return 'standard';
  if (flags.csv === undefined) throw new CliError('--excel va con --csv (p. ej. --csv informe.csv --excel)', EXIT.usage);
  return 'excel-es';
}

/** Writes text and bytes to a stream, waiting for it to drain (memory stays flat however much is written). */
class Sink {
  private pending: Array<string | Uint8Array> = [];
  private size = 0;
  constructor(private readonly stream: Writable) {}

  async write(part: string | Uint8Array): Promise<void> {
    this.pending.push(part);
    this.size += part.length;
    if (this.size >= 64 * 1024) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const parts = this.pending;
    this.pending = [];
    this.size = 0;
    const data = parts.every((p) => typeof p === 'string')
      ? (parts as string[]).join('')
      : Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : p)));
    if (!this.stream.write(data)) await once(this.stream, 'drain');
  }
}

/** Reads a response body chunk by chunk; `stop()` cancels the rest of the download. */
async function* chunks(res: Response): AsyncGenerator<Uint8Array> {
  if (!res.body) return;
  const reader = res.body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      if (value) yield value;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
  }
}

const interrupted = (e: unknown) =>
  e instanceof CliError ? e : new CliError(`La exportación se interrumpió: ${(e as Error)?.message ?? String(e)}`);

function sayCut(cli: Cli, limit: number, total: number | null): void {
  const of = total !== null ? ` de ${formatInt(total)}` : '';
  cli.io.stderr.write(`--limit ${limit}: ${formatInt(limit)}${of} filas, las primeras del orden pedido (el resto se omite)\n`);
}

/** Counts CSV records (newlines outside quotes) and finds where the Nth one ends. */
class CsvRecords {
  private quoted = false;
  count = 0;
  /** Scans a chunk; answers the index just past the record numbered `stopAt`, or -1. */
  scan(chunk: Uint8Array, stopAt: number): number {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (b === 0x22) this.quoted = !this.quoted;
      else if (b === 0x0a && !this.quoted && ++this.count === stopAt) return i + 1;
    }
    return -1;
  }
}

/**
 * Streams the server's CSV export to FILE ('-': stdout), cut after `limit` rows when given.
 * Prints 'N filas → FILE' for a file; a failed download removes the half-written file.
 */
export async function exportCsv<A extends ServerPage>(
  cli: Cli,
  table: Pick<ServerTable<A>, 'open'> & Partial<Pick<ServerTable<A>, 'page'>>,
  file: string,
  options: { sort?: string; limit?: number; dialect?: CsvDialect },
): Promise<void> {
  const { sort, limit, dialect = 'standard' } = options;
  // How many match, for the note when --limit cuts (one row's page is cheap); exports that are not pages have no count.
  const total = limit !== undefined && table.page ? (await table.page({ sort, page: 1, page_size: 1 })).total_rows : null;
  const controller = new AbortController();
  const res = await table.open('csv', sort, controller.signal, dialect);
  const toStdout = file === '-';
  const target = toStdout ? null : path.resolve(file);
  let stream: Writable = cli.io.stdout;
  if (target) {
    const ws = createWriteStream(target);
    try {
      await once(ws, 'open');
    } catch (e) {
      controller.abort();
      throw new CliError(`No se pudo escribir ${target}: ${(e as Error).message}`);
    }
    stream = ws;
  }
  const sink = new Sink(stream);
  const records = new CsvRecords();
  // The header is record 1: stop after the record limit + 1.
  const stopAt = limit === undefined ? Infinity : limit + 1;
  let cut = false;
  // The BOM tells spreadsheets a file is UTF-8; a pipe (`--csv - | …`) gets the text alone.
  let first = toStdout;
  try {
    for await (const raw of chunks(res)) {
      const bom = first && raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf;
      first = false;
      const chunk = bom ? raw.subarray(3) : raw;
      const end = records.scan(chunk, stopAt);
      if (end === -1) {
        await sink.write(chunk);
        continue;
      }
      await sink.write(chunk.subarray(0, end));
      cut = end < chunk.length || (total ?? 0) > (limit ?? Infinity);
      break;
    }
    await sink.flush();
  } catch (e) {
    controller.abort();
    if (target) {
      stream.destroy();
      await rm(target, { force: true });
    }
    throw interrupted(e);
  }
  controller.abort();
  if (target) {
    stream.end();
    await once(stream, 'close');
  }
  const rows = Math.max(0, Math.min(records.count, stopAt) - 1);
  if (cut && limit !== undefined) sayCut(cli, limit, total);
  if (target) cli.say(`${rows} filas → ${target}`);
}

/** '  "key": value' with the value indented as JSON.stringify(…, 2) would inside the document. */
const field = (key: string, value: unknown) => `  ${JSON.stringify(key)}: ${JSON.stringify(value, null, 2).replace(/\n/g, '\n  ')}`;

/**
 * Writes one JSON document `{…head, rows: […], total_rows, totals, limit?, …extra}` to stdout:
 * the rows streamed from the server's NDJSON export (or, for a limit ≤ 500, one page of that
 * size), total_rows and totals from the first page's answer.
 */
export async function exportJson<A extends ServerPage>(
  cli: Cli,
  table: ServerTable<A>,
  options: { sort?: string; limit?: number; head: Record<string, unknown>; extra?: (first: A) => Record<string, unknown> },
): Promise<void> {
  const { sort, limit } = options;
  const small = limit !== undefined && limit <= MAX_PAGE_SIZE;
  const first = await table.page({ sort, page: 1, page_size: small ? limit : 1 });
  const sink = new Sink(cli.io.stdout);
  const tail = (count: number) => {
    const parts = [field('total_rows', first.total_rows), field('totals', jsonFigures(first.totals))];
    if (limit !== undefined) parts.push(field('limit', limit));
    for (const [k, v] of Object.entries(options.extra?.(first) ?? {})) parts.push(field(k, jsonFigures(v)));
    return `${count ? '\n  ]' : ']'},\n${parts.join(',\n')}\n}\n`;
  };
  const head = Object.entries(options.head)
    .map(([k, v]) => `${field(k, v)},\n`)
    .join('');
  await sink.write(`{\n${head}  "rows": [`);
  let count = 0;
  if (small) {
    for (const row of first.rows) await sink.write(`${count++ ? ',' : ''}\n    ${JSON.stringify(jsonFigures(row))}`);
    await sink.write(tail(count));
    await sink.flush();
    if (first.total_rows > limit) sayCut(cli, limit, first.total_rows);
    return;
  }
  const controller = new AbortController();
  const res = await table.open('ndjson', sort, controller.signal, 'standard');
  const decoder = new TextDecoder();
  let rest = '';
  let cut = false;
  const take = async (line: string): Promise<boolean> => {
    const text = line.trim();
    if (!text) return true;
    if (limit !== undefined && count >= limit) {
      cut = true;
      return false;
    }
    await sink.write(`${count++ ? ',' : ''}\n    ${JSON.stringify(jsonFigures(JSON.parse(text)))}`);
    return true;
  };
  try {
    reading: for await (const chunk of chunks(res)) {
      const lines = (rest + decoder.decode(chunk, { stream: true })).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (!(await take(line))) break reading;
    }
    if (!cut) await take(rest + decoder.decode());
  } catch (e) {
    controller.abort();
    throw interrupted(e);
  }
  controller.abort();
  await sink.write(tail(count));
  await sink.flush();
  if (cut && limit !== undefined) sayCut(cli, limit, first.total_rows);
}

/** Every row of a small table (Finance, the Dashboard's days) in pages of 500: each page in the server's order. */
export async function allRows<A extends ServerPage>(fetchPage: (page: number, pageSize: number) => Promise<A>): Promise<A> {
  const first = await fetchPage(1, MAX_PAGE_SIZE);
  const rows = [...first.rows];
  for (let page = 2; page <= first.page_count; page++) rows.push(...(await fetchPage(page, MAX_PAGE_SIZE)).rows);
  return { ...first, rows };
}

/**
 * The machine output a table command gives: --csv, else --json (or stdout not a terminal).
 * Answers false when the command should draw its screen instead.
 */
export async function machineOutput<A extends ServerPage>(
  cli: Cli,
  flags: TableFlags,
  table: ServerTable<A>,
  options: {
    sort?: string;
    limit?: number;
    /** File name when --csv is given without one. */
    csvName?: () => string;
    head: Record<string, unknown>;
    extra?: (first: A) => Record<string, unknown>;
  },
): Promise<boolean> {
  const dialect = csvDialect(flags);
  if (flags.csv !== undefined) {
    const file = flags.csv === true ? (options.csvName?.() ?? '-') : flags.csv;
    await exportCsv(cli, table, file, { ...options, dialect });
    return true;
  }
  if (!cli.machine(flags.json)) return false;
  await exportJson(cli, table, options);
  return true;
}
