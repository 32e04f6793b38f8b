// `adops tokens list|create|update|renew|delete|url`: publisher API tokens (admins only) — named
// by id, masked in lists unless --reveal, with expiry, allowed addresses and an hourly limit — and
// the publisher-data URL a publisher pulls its own figures from.
import type { Command } from 'commander';
import {
  formatDateTimeDMY,
  isValidYmd,
  maskToken,
  parseDateDMY,
  presetRange,
  publisherDataUrl,
  type Api,
  type PublisherToken,
  type TokenPolicy,
} from '@adops/core/lite';
import { CliError, EXIT, type CliIO } from '../io.js';
import type { Cli } from '../context.js';
import { reportingTz } from './report-filters.js';
import type { Column } from '../ui/Table.js';
import { zoneNote } from '../text.js';

/** The tokens table, times on the reporting zone's clock (tz). */
export const tokenColumns = (tz: string): Column<PublisherToken>[] => [
  { key: 'id', header: 'Id' },
  { key: 'publisher_name', header: 'Publisher' },
  { key: 'token', header: 'Token' },
  { key: 'expires_at', header: 'Caduca', format: (v, t) => (v ? `${formatDateTimeDMY(v as string, tz)}${t.expired ? ' (caducado)' : ''}` : 'nunca') },
  { key: 'allowed_ips', header: 'IPs permitidas', format: (v) => ((v as string[]).length ? (v as string[]).join(', ') : 'todas') },
  { key: 'effective_rate_limit', header: 'Límite/h', format: (v, t) => `${v}${t.rate_limit === null ? ' (por defecto)' : ''}` },
  { key: 'request_count', header: 'Peticiones' },
  { key: 'last_used_at', header: 'Último uso', format: (v) => formatDateTimeDMY(v as string | null, tz) },
  { key: 'created_at', header: 'Creado', format: (v) => formatDateTimeDMY(v as string, tz) },
];

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

/**
 * The token an argument names: its id, or its publisher. The token itself is refused: on a
 * command line it stays in the shell's history.
 */
async function tokenByIdOrPublisher(api: Api, what: string): Promise<PublisherToken> {
  const list = await api.admin.listTokens();
  const token = list.find((t) => t.id === what) ?? list.find((t) => samePublisher(t.publisher_name, what));
  if (token) return token;
  if (list.some((t) => t.token === what))
    throw new CliError('Nombra el token por su id o su publisher, no por el token (adops tokens list)', EXIT.usage);
  throw new CliError('Token no encontrado');
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

interface PolicyFlags {
  expires?: string;
  allowIp?: string[];
  limit?: string;
}

/** --expires DATE|never, --allow-ip LIST (repeatable)|any, --limit N|default → the API's fields. */
export function policyOf(flags: PolicyFlags): TokenPolicy {
  const policy: TokenPolicy = {};
  if (flags.expires !== undefined)
    policy.expires_at = ['never', 'nunca'].includes(flags.expires.trim().toLowerCase()) ? null : parseDay(flags.expires, '--expires');
  if (flags.allowIp !== undefined) {
    const entries = flags.allowIp
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter(Boolean);
    policy.allowed_ips = entries.length === 1 && ['any', 'todas'].includes(entries[0].toLowerCase()) ? [] : entries;
  }
  if (flags.limit !== undefined) {
    const text = flags.limit.trim().toLowerCase();
    if (['default', 'defecto'].includes(text)) policy.rate_limit = null;
    else if (/^\d+$/.test(text) && Number(text) >= 1) policy.rate_limit = Number(text);
    else throw new CliError(`--limit debe ser un número entero de peticiones por hora (o default): ${flags.limit}`, EXIT.usage);
  }
  return policy;
}

/** The token as a list shows it: masked unless --reveal. */
const shown = (t: PublisherToken, reveal?: boolean): PublisherToken => (reveal ? t : { ...t, token: maskToken(t.token) });

export function registerTokens(program: Command, cli: Cli): void {
  const tokens = program.command('tokens').description('Tokens de API de publishers (solo administradores)');

  const showToken = (verb: string, token: PublisherToken, server: string, json?: boolean) => {
    const range = urlRange(cli.io);
    const url = publisherDataUrl(server, token.token, range.from, range.to);
    if (cli.machine(json)) return cli.json({ ...token, url });
    cli.say(`Token ${verb} para ${token.publisher_name}\nId: ${token.id}\nToken: ${token.token}\nURL (ayer): ${url}`);
  };

  tokens
    .command('list')
    .description('Lista los tokens: id, caducidad, IPs permitidas, límite, peticiones y último uso (el token, enmascarado)')
    .option('--reveal', 'muestra los tokens enteros')
    .option('--json', 'salida JSON')
    .action(async (opts: { json?: boolean; reveal?: boolean }, cmd: Command) => {
      const { api } = await cli.api(cmd);
      const list = (await api.admin.listTokens()).map((t) => shown(t, opts.reveal));
      if (cli.machine(opts.json)) return cli.json(list);
      await cli.table<PublisherToken>({
        columns: tokenColumns(cli.tz),
        rows: list,
        rowKey: (t) => t.id,
        emptyText: 'No hay tokens de publisher.',
      });
      if (list.length) cli.say(zoneNote(cli.tz));
    });

  const policyOptions = (command: Command, forUpdate: boolean) =>
    command
      .option(
        '--expires <date>',
        `día en que caduca (AAAA-MM-DD o dd/MM/aaaa; deja de valer a las 00:00 de la zona horaria de los informes)${forUpdate ? '; never: no caduca' : ''}`,
      )
      .option(
        '--allow-ip <list>',
        `IPs o rangos CIDR (IPv4/IPv6) desde los que vale, separados por comas o repitiendo la opción${forUpdate ? '; any: desde cualquiera' : ''}`,
        collect,
      )
      .option(
        '--limit <n>',
        `peticiones por hora${forUpdate ? '; default: el límite por defecto del servidor' : ' (por defecto, el del servidor: 600)'}`,
      );

  policyOptions(
    tokens
      .command('create')
      .description('Crea el token de un publisher (muestra el token entero una vez)')
      .argument('<publisher>', 'nombre del publisher'),
    false,
  )
    .option('--json', 'salida JSON')
    .action(async (publisher: string, opts: PolicyFlags & { json?: boolean }, cmd: Command) => {
      const policy = policyOf(opts);
      const { api, server } = await cli.api(cmd);
      showToken('creado', await api.admin.createToken({ publisher_name: publisher, ...policy }), server, opts.json);
    });

  policyOptions(
    tokens
      .command('update')
      .description('Cambia la caducidad, las IPs permitidas o el límite de un token (el token no cambia)')
      .argument('<id|publisher>', 'id del token (adops tokens list) o nombre del publisher'),
    true,
  )
    .option('--json', 'salida JSON')
    .action(async (what: string, opts: PolicyFlags & { json?: boolean }, cmd: Command) => {
      const policy = policyOf(opts);
      if (Object.keys(policy).length === 0) throw new CliError('Nada que cambiar: usa --expires, --allow-ip o --limit', EXIT.usage);
      const { api } = await cli.api(cmd);
      const token = await tokenByIdOrPublisher(api, what);
      const updated = await api.admin.updateToken({ id: token.id, ...policy });
      if (cli.machine(opts.json)) return cli.json(shown(updated));
      cli.say(`Token de ${updated.publisher_name} actualizado`);
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
    .alias('revoke')
    .description('Revoca un token (deja de valer en el acto); pide confirmación salvo con --yes')
    .argument('<id|publisher>', 'id del token (adops tokens list) o nombre del publisher')
    .option('-y, --yes', 'no pedir confirmación')
    .action(async (what: string, opts: { yes?: boolean }, cmd: Command) => {
      const { api } = await cli.api(cmd);
      const token = await tokenByIdOrPublisher(api, what);
      if (!opts.yes && !(await cli.prompt.confirm(`¿Eliminar el token de ${token.publisher_name}?`))) throw new CliError('Cancelado', EXIT.cancelled);
      await api.admin.deleteToken({ id: token.id });
      cli.say(`Token de ${token.publisher_name} eliminado`);
    });

  tokens
    .command('url')
    .description('Muestra la URL de datos de un publisher (por defecto, ayer)')
    .argument('<publisher>', 'nombre del publisher')
    .option('--from <date>', 'primer día (AAAA-MM-DD o dd/MM/aaaa)')
    .option('--to <date>', 'último día (AAAA-MM-DD o dd/MM/aaaa)')
    .option('--json', 'salida JSON')
    .action(async (publisher: string, opts: { from?: string; to?: string; json?: boolean }, cmd: Command) => {
      urlRange(cli.io, opts.from, opts.to); // wrong dates: a usage error before any request
      const { api, server } = await cli.api(cmd, { zone: true });
      const range = urlRange(cli.io, opts.from, opts.to); // 'ayer' of the server's current zone
      const token = await tokenOf(api, publisher);
      const url = publisherDataUrl(server, token.token, range.from, range.to);
      if (opts.json) return cli.json({ publisher_name: token.publisher_name, start_date: range.from, end_date: range.to, url });
      cli.say(url);
    });
}
