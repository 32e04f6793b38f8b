// `adops serve`: starts the server in this process (the same `startServer` as `npm start`)
// and stops it cleanly on Ctrl-C / SIGTERM.
import path from 'node:path';
import type { Command } from 'commander';
import type { Config } from '@adops/server';
import type { startServer as StartServer } from '../../../server/src/main.js';
import { CliError, EXIT } from '../io.js';
import type { Cli } from '../context.js';

interface ServeOptions {
  port?: number;
  data?: string;
  demo?: boolean;
}

function parsePort(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new CliError(`Puerto no válido: ${value} (0–65535)`, EXIT.usage);
  return n;
}

/** The server package's entry points, located through its installed package (dist). */
async function loadServer(): Promise<{ startServer: typeof StartServer; ConfigError: new (...a: never[]) => Error }> {
  const app = import.meta.resolve('@adops/server');
  const main = (await import(new URL('./main.js', app).href)) as { startServer: typeof StartServer };
  const config = (await import(new URL('./config.js', app).href)) as { ConfigError: new (...a: never[]) => Error };
  return { startServer: main.startServer, ConfigError: config.ConfigError };
}

function untilStopped(signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      signal?.removeEventListener('abort', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
  });
}

export function registerServe(program: Command, cli: Cli): void {
  program
    .command('serve')
    .description('Arranca el servidor (API y web) en este proceso; Ctrl-C lo detiene')
    .option('--port <port>', 'puerto (por defecto PORT o 8080; 0 = uno libre)', (v) => parsePort(v))
    .option('--data <dir>', 'directorio de datos (por defecto ADOPS_DATA_DIR o ./data)')
    .option('--demo', 'carga datos de demostración si el directorio está vacío (por defecto)')
    .option('--no-demo', 'sin datos de demostración')
    .action(async (opts: ServeOptions) => {
      const overrides: Partial<Config> = {};
      if (opts.port !== undefined) overrides.port = opts.port;
      if (opts.data !== undefined) overrides.dataDir = path.resolve(opts.data);
      if (opts.demo !== undefined) overrides.demo = opts.demo;
      const { startServer, ConfigError } = await loadServer();
      let handle: Awaited<ReturnType<typeof StartServer>>;
      try {
        handle = await startServer(overrides);
      } catch (e) {
        if (e instanceof ConfigError) throw new CliError(`Error de configuración: ${e.message}`);
        if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new CliError(`El puerto ya está en uso: ${(e as Error).message}`);
        throw e;
      }
      await untilStopped(cli.io.signal);
      cli.io.stderr.write('Deteniendo el servidor…\n');
      await handle.close();
    });
}
