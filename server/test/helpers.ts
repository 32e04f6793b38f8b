// Starts the real app on an ephemeral port with a temp data directory (real lowdb and
// DuckDB), for integration, CLI and browser tests.
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApi, type Api } from '@adops/core';
import { createApp, loadConfig, type AdopsApp, type Config } from '../src/app.js';

export const ADMIN = { email: 'admin@test.local', password: 'admin-pass-123' };

export interface TestServer {
  url: string;
  app: AdopsApp;
  dataDir: string;
  /** A client without a session. */
  anon: Api;
  /** Signs in and returns a client carrying that session. */
  as(email: string, password: string): Promise<Api & { token: string }>;
  admin(): Promise<Api & { token: string }>;
  /** Raw fetch against the server. */
  fetch(pathname: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export async function startTestServer(overrides: Partial<Config> = {}, keepDataDir?: string): Promise<TestServer> {
  const dataDir = keepDataDir ?? (await mkdtemp(path.join(tmpdir(), 'adops-test-')));
  const config = loadConfig(
    { ADOPS_LOG: 'silent' },
    {
      dataDir,
      adminEmail: ADMIN.email,
      adminPassword: ADMIN.password,
      scryptLogN: 10,
      demo: false,
      port: 0,
      log: 'silent',
      ...overrides,
    },
  );
  const app = await createApp(config);
  const server = http.createServer(app.koa.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  const as = async (email: string, password: string) => {
    const { access_token } = await createApi({ baseUrl: url }).auth.login({ email, password });
    return Object.assign(createApi({ baseUrl: url, getToken: () => access_token }), { token: access_token });
  };
  return {
    url,
    app,
    dataDir,
    anon: createApi({ baseUrl: url }),
    as,
    admin: () => as(ADMIN.email, ADMIN.password),
    fetch: (pathname, init) => fetch(url + pathname, init),
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await app.close();
      if (!keepDataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
