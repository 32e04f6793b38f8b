// `adops tokens list|create|renew|delete|url`: publisher API tokens (admins only) and the
// publisher-data URL a publisher pulls its own figures from.
import type { Command } from 'commander';
import { isValidYmd, parseDateDMY, presetRange, publisherDataUrl, type Api, type PublisherToken } from '@adops/core';
import { CliError, EXIT, type CliIO } from '../io.js';
import type { Cli } from '../context.js';
import { reportingTz } from './report-filters.js';
import type { Column } from '../ui/Table.js';
import { formatDateTimeLocal } from '../text.js';

export const TOKEN_COLUMNS: Column<PublisherToken>[] = [
  { key: 'publisher_name', header: 'Publisher' },
  { key: 'token', header: 'Token' },
  { key: 'created_at', header: 'Creado', format: (v) => formatDateTimeLocal(v as string) },
  { key: 'last_used_at', header: 'Último uso', format: (v) => formatDateTimeLocal(v as string | null) },
];

/** The reporting time zone the server uses for calendar days (ADOPS_TZ, default UTC). */

/** 'YYYY-MM-DD' or 'dd/MM/yyyy' → 'YYYY-MM-DD'. */
function parseDay(text: string, flag: string): string {
  const ymd = isValidYmd(text.trim()) ? text.trim() : parseDateDMY(text);
  if (!ymd) throw new CliError(`Fecha no válida en ${flag}: ${text} (usa AAAA-MM-DD o dd/MM/aaaa)`, EXIT.usage);
  return ymd;
}

/** --from/--to (one alone means that single day); default yesterday in the reporting time zone. */
export function urlRange(io: CliIO, from?: string, to?: string, now = new Date()): { from: string; to: string } {
  if (from === undefined && to === undefined) return presetRange('ayer', now, reportingTz(io));
  const start = parseDay((from ?? to)!, from !== undefined ? '--from' : '--to');
  const end = parseDay((to ?? from)!, to !== undefined ? '--to' : '--from');
  if (start > end) throw new CliError('❌ Rango de fechas no válido.', EXIT.usage);
  return { from: start, to: end };
}

const samePublisher = (a: string, b: string) => a.trim().localeCompare(b.trim(), 'es', { sensitivity: 'accent' }) === 0;

async function tokenOf(api: Api, publisher: string): Promise<PublisherToken> {
  const token = (await api.admin.listTokens()).find((t) => samePublisher(t.publisher_name, publisher));
  if (!token) throw new CliError(`No hay token para el publisher "${publisher}"`);
  return token;
}

export function registerTokens(program: Command, cli: Cli): void {
  const tokens = program.command('tokens').description('Tokens de API de publishers (solo administradores)');

  const showToken = (verb: string, token: PublisherToken, server: string, json?: boolean) => {
    const range = urlRange(cli.io);
    const url = publisherDataUrl(server, token.token, range.from, range.to);
    if (cli.machine(json)) return cli.json({ ...token, url });
    cli.say(`Token ${verb} para ${token.publisher_name}\nToken: ${token.token}\nURL (ayer): ${url}`);
  };

  tokens
    .command('list')
    .description('Lista los tokens')
    .option('--json', 'salida JSON')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const { api } = await cli.api(cmd);
      const list = await api.admin.listTokens();
      if (cli.machine(opts.json)) return cli.json(list);
      await cli.table<PublisherToken>({
        columns: TOKEN_COLUMNS,
        rows: list,
        rowKey: (t) => t.token,
        emptyText: 'No hay tokens de publisher.',
      });
    });

  tokens
    .command('create')
    .description('Crea el token de un publisher')
    .argument('<publisher>', 'nombre del publisher')
    .option('--json', 'salida JSON')
    .action(async (publisher: string, opts: { json?: boolean }, cmd: Command) => {
      const { api, server } = await cli.api(cmd);
      showToken('creado', await api.admin.createToken({ publisher_name: publisher }), server, opts.json);
    });

  tokens
    .command('renew')
    .description('Sustituye el token de un publisher por uno nuevo (el anterior deja de valer)')
    .argument('<publisher>', 'nombre del publisher')
    .option('--json', 'salida JSON')
    .action(async (publisher: string, opts: { json?: boolean }, cmd: Command) => {
      const { api, server } = await cli.api(cmd);
      showToken('renovado', await api.admin.renewToken({ publisher_name: publisher }), server, opts.json);
    });

  tokens
    .command('delete')
    .description('Elimina un token; pide confirmación salvo con --yes')
    .argument('<token>', 'el token')
    .option('-y, --yes', 'no pedir confirmación')
    .action(async (token: string, opts: { yes?: boolean }, cmd: Command) => {
      const { api } = await cli.api(cmd);
      const owner = (await api.admin.listTokens()).find((t) => t.token === token)?.publisher_name;
      const label = owner ? `el token de ${owner}` : 'el token';
      if (!opts.yes && !(await cli.prompt.confirm(`¿Eliminar ${label}?`))) throw new CliError('Cancelado', EXIT.cancelled);
      await api.admin.deleteToken({ token });
      cli.say(owner ? `Token de ${owner} eliminado` : 'Token eliminado');
    });

  tokens
    .command('url')
    .description('Muestra la URL de datos de un publisher (por defecto, ayer)')
    .argument('<publisher>', 'nombre del publisher')
    .option('--from <date>', 'primer día (AAAA-MM-DD o dd/MM/aaaa)')
    .option('--to <date>', 'último día (AAAA-MM-DD o dd/MM/aaaa)')
    .option('--json', 'salida JSON')
    .action(async (publisher: string, opts: { from?: string; to?: string; json?: boolean }, cmd: Command) => {
      const range = urlRange(cli.io, opts.from, opts.to);
      const { api, server } = await cli.api(cmd);
      const token = await tokenOf(api, publisher);
      const url = publisherDataUrl(server, token.token, range.from, range.to);
      if (opts.json) return cli.json({ publisher_name: token.publisher_name, start_date: range.from, end_date: range.to, url });
      cli.say(url);
    });
}
