// `adops tail`: the live referrer log. Shows the latest events, then follows them with core's
// live follower (SSE with Last-Event-ID, polling every 5 s while the stream fails, back to the
// stream once it opens again; see live-tail.ts). NDJSON with --json. With --alerts, the alerts as they fire and resolve instead
// (alert-tail.ts).
import type { Command } from 'commander';
import { LIVE_CAP, type ReferrerFilter } from '@adops/core/lite';
import type { Cli } from '../context.js';
import { CliError, EXIT } from '../io.js';
import { LiveTail, type TailMode } from '../live-tail.js';
import { AlertTail, alertLine } from '../alert-tail.js';
import { keyboardAttached, quitKeys } from '../ui/screen.js';
import { canonicalFilters, reportingTz } from './report-filters.js';
import { loadUi } from '../ui-loader.js';
import { zoneNote } from '../text.js';

interface TailFlags {
  zone?: string;
  advertiser?: string;
  publisher?: string;
  source?: string;
  lines: string;
  json?: boolean;
  bots?: boolean;
  value?: boolean;
  alerts?: boolean;
}

const MODE_TEXT: Record<TailMode, string> = {
  connecting: 'conectando…',
  sse: 'en vivo (SSE)',
  polling: 'consultando cada 5 s (Polling)',
};

export function registerTail(program: Command, cli: Cli): void {
  program
    .command('tail')
    .description(
      'Log de referrers en vivo (SSE; si el flujo falla, consulta cada 5 s y vuelve al flujo en cuanto responde). q, Ctrl-C o SIGTERM terminan',
    )
    .option('--zone <id>', 'zona (coincidencia parcial del Zone ID)')
    .option('--advertiser <name>', 'advertiser')
    .option('--publisher <name>', 'publisher')
    .option('--source <domain>', 'source (dominio padre exacto)')
    .option('-n, --lines <n>', `eventos recientes que se muestran al empezar (0–${LIVE_CAP})`, '10')
    .option('--json', 'un registro JSON por línea (NDJSON) por evento, para tuberías')
    .option('--bots', 'incluye el tráfico marcado como bots o spam (con su motivo en reason)')
    .option('--value', "columnas 'Valor' (revenue por visita de su zona ese día; estimado si no llegó su informe) y 'TQ' de la zona")
    .option('--alerts', 'alertas en vez de referrers: las últimas (-n) y luego cada una que se dispara o se resuelve')
    .action(async (flags: TailFlags, cmd: Command) => {
      if (!/^\d{1,4}$/.test(flags.lines) || Number(flags.lines) > LIVE_CAP)
        throw new CliError(`--lines no válido: ${flags.lines} (de 0 a ${LIVE_CAP})`, EXIT.usage);
      if (flags.alerts) {
        const referrerOnly = (['zone', 'advertiser', 'publisher', 'source', 'bots', 'value'] as const).filter((k) => flags[k] !== undefined);
        if (referrerOnly.length) throw new CliError(`--alerts no admite --${referrerOnly.join(', --')} (son filtros de referrers)`, EXIT.usage);
        return followAlerts(cli, cmd, flags);
      }
      const { api, server, token } = await cli.api(cmd);
      await canonicalFilters(api, flags, ['advertiser', 'publisher']);
      const filter: ReferrerFilter = {
        zoneId: flags.zone,
        advertiser: flags.advertiser,
        publisher: flags.publisher,
        parentDomain: flags.source,
        ...(flags.bots ? { include_bots: true } : {}),
      };
      const tail = new LiveTail({ api, server, token, filter, lines: Number(flags.lines) });

      await untilStopped(cli, tail, () =>
        cli.machine(flags.json) ? followAsNdjson(cli, tail) : followOnScreen(cli, tail, filter, flags.value === true),
      );
    });
}

/**
 * Runs `follow` until it ends or the tail is stopped: by SIGTERM, Ctrl-C, the command's abort
 * signal, or a closed output (`adops tail --json | head` ends quietly); then stops the tail and
 * lets go of every listener.
 */
async function untilStopped(cli: Cli, tail: { stop(): void }, follow: () => Promise<void>): Promise<void> {
  const stop = () => tail.stop();
  const interrupted = () => {
    cli.cancel();
    stop();
  };
  const out = cli.io.stdout;
  process.once('SIGTERM', stop);
  process.once('SIGINT', interrupted);
  cli.io.signal?.addEventListener('abort', stop, { once: true });
  out.on('error', stop);
  out.on('close', stop);
  try {
    await follow();
  } finally {
    tail.stop();
    process.off('SIGTERM', stop);
    process.off('SIGINT', interrupted);
    cli.io.signal?.removeEventListener('abort', stop);
    out.off('error', stop);
    out.off('close', stop);
  }
}

/** `adops tail --alerts`: a line (or an NDJSON record) per alert until stopped. */
async function followAlerts(cli: Cli, cmd: Command, flags: TailFlags): Promise<void> {
  const { api, server, token } = await cli.api(cmd);
  const json = cli.machine(flags.json);
  const out = cli.io.stdout;
  const tail = new AlertTail(
    { api, server, token, lines: Math.min(500, Number(flags.lines)) },
    (lines) => {
      if (out.destroyed || out.writableEnded) return tail.stop();
      out.write(`${lines.map((l) => (json ? JSON.stringify(l) : alertLine(l, cli.tz, out.columns))).join('\n')}\n`);
    },
    (text) => cli.io.stderr.write(`tail: ${text}\n`),
  );
  if (!json) cli.io.stderr.write(`tail: ${zoneNote(cli.tz, true)}\n`);
  // At a terminal with a keyboard, q quits (as the help says), as on every other screen.
  const keys = !json && keyboardAttached(cli.io);
  if (keys) cli.io.stderr.write('tail: q sale\n');
  const release = keys ? quitKeys(cli, () => tail.stop()) : () => {};
  try {
    await untilStopped(cli, tail, async () => {
      await tail.start();
      await tail.done;
    });
  } finally {
    release();
  }
}

async function followAsNdjson(cli: Cli, tail: LiveTail): Promise<void> {
  tail.onEvents((records) => {
    const out = cli.io.stdout;
    if (out.destroyed || out.writableEnded) return tail.stop();
    out.write(`${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  });
  tail.onStatus((s) => cli.io.stderr.write(`tail: ${MODE_TEXT[s.mode]}${s.detail ? ` — ${s.detail}` : ''}\n`));
  await tail.start();
  await tail.done;
}

async function followOnScreen(cli: Cli, tail: LiveTail, filter: ReferrerFilter, value: boolean): Promise<void> {
  const interactive = keyboardAttached(cli.io);
  const [{ createElement }, { Tail }, { showScreen }] = await Promise.all([
    import('react'),
    loadUi(() => import('../ui/Tail.js')),
    loadUi(() => import('../ui/screen.js')),
  ]);
  const screen = showScreen(
    cli,
    createElement(Tail, {
      tail,
      tz: reportingTz(cli.io),
      filter,
      interactive,
      value,
      width: cli.io.stdout.columns ?? 120,
    }),
    true,
  );
  try {
    await tail.start();
  } catch (e) {
    tail.stop();
    await screen;
    throw e;
  }
  const [ended] = await Promise.allSettled([tail.done]);
  await screen;
  if (ended.status === 'rejected') throw ended.reason;
}
