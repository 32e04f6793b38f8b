#!/usr/bin/env node
// Reads the configuration, builds the app and listens. `adops serve` and `npm start` run this.
import http from 'node:http';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createApp } from './app.js';
import { loadConfig, ConfigError, type Config } from './config.js';

/**
 * Every request must arrive whole within config.requestTimeoutMs (headers within 30 s), else
 * 408. The live stream is a GET whose request is complete at once, so it stays open (its
 * socket's idle timeout is turned off by the stream itself).
 *
 * An idle connection stays open KEEP_ALIVE_MS after an answer, longer than the clients and
 * proxies that reuse it wait (undici, the CLI's fetch: the server's hint less 2 s; nginx and
 * cloud load balancers: 60 s). With Node's 5 s, a client still reading the end of a large export
 * when the server's clock started could send its next request as the server closed the
 * connection, and get ECONNRESET (seen in CI: a download right after a 200,000-row export).
 */
export const KEEP_ALIVE_MS = 65_000;

export function createHttpServer(handler: http.RequestListener, config: Pick<Config, 'requestTimeoutMs'>): http.Server {
  // Node checks the timeouts this often (30 s by default, far above a short timeout).
  const server = http.createServer({ connectionsCheckingInterval: Math.min(30_000, Math.max(250, config.requestTimeoutMs / 4)) }, handler);
  server.requestTimeout = config.requestTimeoutMs;
  server.headersTimeout = Math.min(30_000, config.requestTimeoutMs);
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  return server;
}

export async function startServer(overrides: Partial<Config> = {}): Promise<{ server: http.Server; url: string; close: () => Promise<void> }> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const web = path.resolve(here, '../../web/dist');
  const config = loadConfig(process.env, { webDist: existsSync(path.join(web, 'index.html')) ? web : null, ...overrides });
  const app = await createApp(config);
  if (app.bootstrap?.password) {
    console.log('');
    console.log(`  Admin created: ${app.bootstrap.email}`);
    console.log(`  Generated password (shown once): ${app.bootstrap.password}`);
    console.log('');
  }
  const server = createHttpServer(app.listener, config);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://localhost:${port}`;
  console.log(`AdOps Console listening on ${url} (data: ${config.dataDir}${config.webDist ? '' : ', web UI not built'})`);
  const close = async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    await app.close();
  };
  return { server, url, close };
}

/** Starts from the environment; exits with a clear message on bad configuration. */
export function runMain(): void {
  startServer()
    .then(({ close }) => {
      const stop = () => {
        close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    })
    .catch((e: unknown) => {
      if (e instanceof ConfigError) console.error(`Configuration error: ${e.message}`);
      else if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') console.error(`Port already in use: ${(e as Error).message}`);
      else console.error(e);
      process.exit(1);
    });
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) runMain();
