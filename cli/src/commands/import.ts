// `adops import zone-report FILE | referrers FILE` and `adops seed`: facts sent to the
// server's ingest endpoints with the admin session. Zone reports go whole (CSV, NDJSON or
// JSON, optionally gzip); referrer NDJSON goes in batches the server takes all-or-nothing.
// `seed` loads the server's demo zone reports (its own generator) through the same ingest.
import { createHash } from 'node:crypto';
import { createReadStream, openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { ApiError, daysText, formatDateDMY, formatInt, todayIn, type Api, type IngestResult, type ReportState } from '@adops/core/lite';
import type { Cli } from '../context.js';
import { CliError, EXIT } from '../io.js';
import { reportingTz } from './report-filters.js';

const CONTENT_TYPES = { csv: 'text/csv', ndjson: 'application/x-ndjson', json: 'application/json' } as const;
type ImportFormat = keyof typeof CONTENT_TYPES;

/** Events per referrer batch sent (the server takes at most 100,000 and 16 MB). */
export const REFERRER_BATCH_EVENTS = 10_000;
const REFERRER_BATCH_BYTES = 8 * 1024 * 1024;

/** The format from --format or the file name (.csv, .ndjson/.jsonl, .json, each optionally .gz). */
export function importFormat(file: string, flag?: string): { format: ImportFormat; gzip: boolean } {
  const gzip = /\.gz$/i.test(file);
  if (flag !== undefined) {
    const format = flag.trim().toLowerCase();
    if (!(format in CONTENT_TYPES)) throw new CliError(`--format no válido: ${flag} (usa csv, ndjson o json)`, EXIT.usage);
    return { format: format as ImportFormat, gzip };
  }
  const ext = path.extname(file.replace(/\.gz$/i, '')).toLowerCase();
  const format = ext === '.csv' ? 'csv' : ext === '.ndjson' || ext === '.jsonl' ? 'ndjson' : ext === '.json' ? 'json' : null;
  if (!format) throw new CliError(`No sé el formato de ${file}: usa --format csv|ndjson|json`, EXIT.usage);
  return { format, gzip };
}

async function fileBlob(file: string): Promise<Blob> {
  const full = path.resolve(file);
  try {
    if (!(await stat(full)).isFile()) throw new Error('not a file');
    return await openAsBlob(full);
  } catch {
    throw new CliError(`No se puede leer el archivo: ${full}`, EXIT.usage);
  }
}

/**
 * Prints an import's counts, its refused lines and its repeated keys (stored: the last line of a
 * key wins); exit code 1 when any line was refused.
 */
function reportIngest(cli: Cli, result: IngestResult, json: boolean | undefined): void {
  if (cli.machine(json)) cli.json(result);
  else {
    const repeated = result.duplicates_total > 0 ? ` · claves repetidas: ${result.duplicates_total}` : '';
    cli.say(`Filas nuevas: ${result.inserted} · reemplazadas: ${result.replaced} · rechazadas: ${result.rejected_total}${repeated}`);
    const days = reportDaysText(result.days);
    if (days) cli.say(days);
    for (const r of result.rejected) cli.say(`  línea ${r.line}: ${r.detail}`);
    if (result.rejected_total > result.rejected.length) cli.say(`  … y ${result.rejected_total - result.rejected.length} líneas rechazadas más`);
    for (const d of result.duplicates) cli.say(`  línea ${d.line}: ${d.detail}`);
    if (result.duplicates_total > result.duplicates.length)
      cli.say(`  … y ${result.duplicates_total - result.duplicates.length} líneas con clave repetida más`);
  }
  if (result.rejected_total > 0)
    throw new CliError(`${result.rejected_total} ${result.rejected_total === 1 ? 'línea rechazada' : 'líneas rechazadas'}`, EXIT.error);
}

/** The imported days by what their report now is: 'Informe final: 27/11/2026 · parcial: 28/11/2026 (…)'; '' without days. */
export function reportDaysText(days: IngestResult['days']): string {
  const final = days.filter((d) => d.report === 'final').map((d) => d.date);
  const partial = days.filter((d) => d.report === 'partial').map((d) => d.date);
  const parts = [
    ...(final.length ? [`final: ${daysText(final)}`] : []),
    ...(partial.length ? [`parcial: ${daysText(partial)} (su revenue es una estimación hasta importar el informe final, o con --final)`] : []),
  ];
  return parts.length ? `Informe de zonas ${parts.join(' · ')}` : '';
}

async function sendZoneReport(
  api: Api,
  body: Blob | ReadableStream<Uint8Array>,
  format: ImportFormat,
  gzip: boolean,
  key?: IngestKey,
  report?: ReportState,
): Promise<IngestResult> {
  const headers: Record<string, string> = { 'content-type': CONTENT_TYPES[format], ...keyHeader(key) };
  if (gzip) headers['content-encoding'] = 'gzip';
  return api.ingest.zoneReport(report ? { report } : undefined, { rawBody: body, headers });
}

/** The ingest key (--ingest-key or ADOPS_INGEST_KEY): imports without an admin session. */
type IngestKey = string | undefined;
const keyHeader = (key: IngestKey): Record<string, string> => (key ? { 'x-ingest-key': key } : {});

/** The client an import uses: with an ingest key, no session is needed; otherwise the signed-in one. */
/** A refused ingest key is not an expired session: say which it is. */
async function keyed<T>(key: IngestKey, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (e) {
    if (key && e instanceof ApiError && (e.status === 401 || e.status === 403))
      throw new CliError(`El servidor rechazó la clave de ingesta: ${e.detail}`, EXIT.session);
    throw e;
  }
}

async function importApi(cli: Cli, cmd: Command, flag: string | undefined): Promise<{ api: Api; key: IngestKey }> {
  const key = flag ?? (cli.io.env.ADOPS_INGEST_KEY || undefined);
  if (key !== undefined && key.trim() === '') throw new CliError('--ingest-key vacía', EXIT.usage);
  if (key) return { api: (await cli.anonymousApi(cmd)).api, key };
  return { api: (await cli.api(cmd)).api, key: undefined };
}

const MB = 1024 * 1024;
const seconds = (s: number) => (s >= 90 ? `${Math.round(s / 60)} min` : `${Math.max(1, Math.round(s))} s`);

/**
 * The file as a stream that reports its progress on the terminal (stderr): share sent, rows
 * (lines) and rows/s, and the time left at that rate; then 'procesando' until the server answers.
 */
function withProgress(cli: Cli, file: Blob, gzip: boolean, header: boolean): { body: ReadableStream<Uint8Array>; done: () => void } {
  const out = cli.io.stderr;
  const started = performance.now();
  let bytes = 0;
  let rows = 0;
  let last = 0x0a;
  let shown = 0;
  const show = (final: boolean) => {
    const now = performance.now();
    if (!final && now - shown < 250) return;
    shown = now;
    const elapsed = Math.max(0.001, (now - started) / 1000);
    const share = file.size ? bytes / file.size : 1;
    const left = share > 0 ? (elapsed / share) * (1 - share) : 0;
    const sent = header ? Math.max(0, rows - 1) : rows;
    const what = gzip ? `${(bytes / MB).toFixed(1)} MB` : `${formatInt(sent)} filas · ${formatInt(Math.round(sent / elapsed))} filas/s`;
    const tail = final ? ' · procesando en el servidor…' : ` · quedan ${seconds(left)}`;
    out.write(`\r\u001b[2K  ${(share * 100).toFixed(0).padStart(3)}% · ${what}${tail}`);
  };
  const reader = file.stream().getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        if (last !== 0x0a && bytes > 0) rows++; // a last line without its newline
        show(true);
        controller.close();
        return;
      }
      bytes += value.length;
      if (value.length) last = value[value.length - 1];
      if (!gzip) for (let i = 0; i < value.length; i++) if (value[i] === 0x0a) rows++;
      show(false);
      controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return { body, done: () => out.write('\r\u001b[2K') };
}

export interface ReferrerImport {
  accepted: number;
  /** Events the server had already stored (a re-run of the same file, or repeated event_ids). */
  duplicates: number;
  first_id: number | null;
  last_id: number | null;
  batches: number;
}

/** A call tried up to 3 times when the server cannot be reached or fails (5xx); refusals (4xx) are final. */
async function withRetries<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (e) {
      const retryable = e instanceof ApiError && (e.status === 0 || e.status >= 500);
      if (!retryable || attempt >= 3) throw e;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

/**
 * A line's key when it brings no `event_id` of its own: the file's first line, the line's
 * position and its text (SHA-256). The same file imported again — or grown by lines at its end —
 * gives its earlier lines the same keys, so the server stores only the new ones (keys are kept
 * REFERRER_LIMITS.idempotencyDays days); another file, a line moved or edited, is new.
 */
export function lineKey(head: string, lineNo: number, line: string): string {
  return `l:${createHash('sha256').update(head).update('\n').update(String(lineNo)).update('\n').update(line).digest('base64url')}`;
}

/** The line with its key as `event_id` when it is a JSON object without one; otherwise as it is (the server judges it). */
export function keyedLine(line: string, key: () => string): string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return line;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return line;
  const own = (value as { event_id?: unknown }).event_id;
  if (own !== undefined && own !== null) return line;
  // Absent: the key goes first and the line's own text follows untouched; null: written out again with it.
  if (own === null) return JSON.stringify({ ...value, event_id: key() });
  const body = line.trimStart().slice(1).trimStart();
  return `{"event_id":${JSON.stringify(key())}${body.startsWith('}') ? '' : ','}${body}`;
}

/** Sends an NDJSON file in batches; a refused batch stops the import with its file line. */
async function importReferrers(api: Api, file: string, key: IngestKey, onBatch: (done: ReferrerImport) => void): Promise<ReferrerImport> {
  await fileBlob(file); // clear message when missing
  const lines = createInterface({ input: createReadStream(path.resolve(file), 'utf8'), crlfDelay: Infinity });
  const total: ReferrerImport = { accepted: 0, duplicates: 0, first_id: null, last_id: null, batches: 0 };
  let batch: string[] = [];
  let bytes = 0;
  let events = 0;
  let firstLine = 1;
  let lineNo = 0;
  const send = async () => {
    if (events > 0) {
      try {
        const body = `${batch.join('\n')}\n`;
        // The batch's Idempotency-Key is its place in the file and its bytes: sent again — a retry
        // after a dropped connection, or the same file imported again — it is stored once.
        const idempotencyKey = `adops-import-${createHash('sha256').update(`${total.batches}\n${body}`).digest('hex')}`;
        const r = await withRetries(() =>
          api.referrers.ingest(undefined, {
            rawBody: body,
            headers: { 'content-type': 'application/x-ndjson', 'idempotency-key': idempotencyKey, ...keyHeader(key) },
          }),
        );
        total.accepted += r.accepted;
        total.duplicates += r.duplicates;
        total.first_id ??= r.first_id;
        total.last_id = r.last_id ?? total.last_id;
        total.batches++;
        onBatch(total);
      } catch (e) {
        // 'línea N: …' counts from the batch's first line: make it the file's line.
        if (e instanceof ApiError && e.status === 400) {
          const detail = e.detail.replace(/^línea (\d+):/, (_, n: string) => `línea ${Number(n) + firstLine - 1}:`);
          const kept = total.accepted ? ` (${total.accepted} eventos de lotes anteriores sí se guardaron)` : ' (no se guardó nada)';
          throw new CliError(`${detail}${kept}`);
        }
        throw e;
      }
    }
    batch = [];
    bytes = 0;
    events = 0;
    firstLine = lineNo + 1;
  };
  /** The file's first non-blank line: what its keys are known by. */
  let head: string | undefined;
  for await (const raw of lines) {
    lineNo++;
    const blank = raw.trim() === '';
    if (!blank) head ??= raw;
    const line = blank ? raw : keyedLine(raw, () => lineKey(head!, lineNo, raw));
    batch.push(line);
    bytes += Buffer.byteLength(line) + 1;
    if (!blank) events++;
    if (events >= REFERRER_BATCH_EVENTS || bytes >= REFERRER_BATCH_BYTES) await send();
  }
  await send();
  if (total.batches === 0) throw new CliError(`${file} no contiene eventos`);
  return total;
}

/** The server package's demo generator (the same data `npm start` loads on an empty store). */
async function loadDemo() {
  const { demoZoneReportItems, demoPublishers } = await import('@adops/server');
  return { demoZoneReportItems, demoPublishers };
}

function positiveInt(value: string, flag: string, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > max) throw new CliError(`${flag} no válido: ${value} (1–${max})`, EXIT.usage);
  return n;
}

export function registerImport(program: Command, cli: Cli): void {
  const imp = program.command('import').description('Carga datos en el servidor (administradores o clave de ingesta)');

  imp
    .command('zone-report')
    .description('Importa informes de zona (CSV con cabecera, NDJSON o array JSON; .gz admitido); reimportar un día lo reemplaza')
    .argument('<file>', 'archivo .csv, .ndjson/.jsonl o .json (opcionalmente .gz)')
    .option('--format <format>', 'csv, ndjson o json (por defecto, por la extensión)')
    .option('--ingest-key <key>', 'clave de ingesta del servidor en lugar de una sesión de administrador (o ADOPS_INGEST_KEY)')
    .option('--final', 'el informe de sus días está completo (aunque el día no haya terminado)')
    .option('--partial', 'el informe de sus días está incompleto (aunque el día ya haya terminado): su revenue sigue estimado')
    .option('--json', 'salida JSON')
    .addHelpText(
      'after',
      '\nEn una terminal muestra el avance (filas, filas/s, tiempo restante).\nSale con código 1 si alguna línea se rechazó (las demás se guardan).\n' +
        'Sin --final ni --partial, el informe de un día ya terminado (ADOPS_TZ) es final y el de un día en curso, parcial;\n' +
        'una importación posterior, con el día terminado, lo deja final.',
    )
    .action(
      async (file: string, flags: { format?: string; json?: boolean; ingestKey?: string; final?: boolean; partial?: boolean }, cmd: Command) => {
        if (flags.final && flags.partial) throw new CliError('Usa --final o --partial, no ambos', EXIT.usage);
        const report: ReportState | undefined = flags.final ? 'final' : flags.partial ? 'partial' : undefined;
        const { format, gzip } = importFormat(file, flags.format);
        const blob = await fileBlob(file);
        const { api, key } = await importApi(cli, cmd, flags.ingestKey);
        const progress = cli.machine(flags.json) ? null : withProgress(cli, blob, gzip, format === 'csv');
        let result: IngestResult;
        try {
          result = await keyed(key, () => sendZoneReport(api, progress?.body ?? blob, format, gzip, key, report));
        } finally {
          progress?.done();
        }
        reportIngest(cli, result, flags.json);
      },
    );

  imp
    .command('referrers')
    .description(`Importa eventos de referrers (NDJSON, un evento por línea) en lotes de ${formatInt(REFERRER_BATCH_EVENTS)}`)
    .argument('<file>', 'archivo NDJSON')
    .option('--ingest-key <key>', 'clave de ingesta del servidor en lugar de una sesión de administrador (o ADOPS_INGEST_KEY)')
    .option('--json', 'salida JSON')
    .addHelpText(
      'after',
      '\nCada lote se guarda entero o nada; una línea mal formada detiene la importación en su lote. Cada línea sin event_id\n' +
        'lleva una clave (la primera línea del archivo, su posición y su texto): volver a importar el mismo archivo, o el\n' +
        'mismo con líneas añadidas al final, guarda solo las nuevas (en 7 días); los eventos con event_id no se duplican\n' +
        'entre archivos.',
    )
    .action(async (file: string, flags: { json?: boolean; ingestKey?: string }, cmd: Command) => {
      const { api, key } = await importApi(cli, cmd, flags.ingestKey);
      const machine = cli.machine(flags.json);
      const result = await keyed(key, () =>
        importReferrers(api, file, key, (done) => {
          if (!machine)
            cli.io.stderr.write(
              `  lote ${done.batches}: ${done.accepted} eventos guardados${done.duplicates ? `, ${done.duplicates} ya estaban` : ''}\n`,
            );
        }),
      );
      if (machine) return cli.json(result);
      const ids = result.first_id === null ? '' : ` (ids ${result.first_id}–${result.last_id})`;
      const repeated = result.duplicates ? ` · ya guardados antes (no se duplican): ${result.duplicates}` : '';
      cli.say(`Eventos guardados: ${result.accepted}${ids}${repeated}`);
    });

  program
    .command('seed')
    .description('Carga los informes de zona de demostración (90 días, los mismos que `npm start`) a través de la ingesta')
    .option('--days <n>', 'días hasta hoy', '90')
    .option('--zones <n>', 'zonas', '2000')
    .option('--json', 'salida JSON')
    .addHelpText(
      'after',
      '\nReimportar reemplaza los mismos días (no duplica). El tráfico de referrers de demostración lo genera el\n' +
        'servidor con ADOPS_DEMO activo; para cargar eventos propios usa `adops import referrers FILE`.',
    )
    .action(async (flags: { days: string; zones: string; json?: boolean }, cmd: Command) => {
      const days = positiveInt(flags.days, '--days', 800);
      const zones = positiveInt(flags.zones, '--zones', 20_000);
      const { api } = await cli.api(cmd);
      const demo = await loadDemo();
      // The demo publishers' revenue shares first (kept when already configured), as the server does.
      const configured = new Set((await api.publishers.list()).filter((p) => p.configured).map((p) => p.name.trim().toLowerCase()));
      let shares = 0;
      for (const p of demo.demoPublishers()) {
        if (configured.has(p.name.trim().toLowerCase())) continue;
        await api.publishers.set({ name: p.name, revenue_share: p.revenue_share });
        shares++;
      }
      const tz = reportingTz(cli.io);
      const lines: string[] = [];
      for (const item of demo.demoZoneReportItems(tz, { days, zones })) if ('values' in item) lines.push(`${JSON.stringify(item.values)}\n`);
      const result = await sendZoneReport(api, new Blob(lines), 'ndjson', false);
      if (cli.machine(flags.json)) return cli.json({ ...result, revenue_shares_set: shares, days, zones, until: todayIn(tz) });
      cli.say(`Datos de demostración: ${days} días hasta ${formatDateDMY(todayIn(tz))}, ${zones} zonas; ${shares} revenue shares configurados`);
      reportIngest(cli, result, false);
    });
}
