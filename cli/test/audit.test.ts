// `adops audit`: the audit trail from the terminal — filtered by the server, as JSON or CSV for
// scripts and as a table on a terminal; bad filters are a usage error in Spanish.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/helpers.js';
import { newConfigDir, runCli } from './helpers.js';

let server: TestServer;
let dir: string;
const cli = (args: string[], options = {}) => runCli(args, dir, server.url, options);

beforeAll(async () => {
  server = await startTestServer();
  dir = await newConfigDir();
  expect((await runCli(['login', '--email', ADMIN.email], dir, server.url, { stdin: `${ADMIN.password}\n` })).code).toBe(0);
  expect(
    (await cli(['users', 'create', '--first-name', 'Ana', '--email', 'ana@example.com', '--password-stdin'], { stdin: 'una-clave-larga-1\n' })).code,
  ).toBe(0);
  // A token is for a publisher the network knows: a revenue share first.
  expect((await cli(['publishers', 'set', 'Diario Norte', '70%'])).code).toBe(0);
  expect((await cli(['tokens', 'create', 'Diario Norte'])).code).toBe(0);
});
afterAll(async () => {
  await server?.close();
});

it('--json prints the matching entries newest first, with who, what and before/after, and no secret', async () => {
  const res = await cli(['audit', '--json']);
  expect(res.code).toBe(0);
  const doc = JSON.parse(res.stdout);
  expect(doc.rows.map((r: { action: string }) => r.action)).toEqual(['token.create', 'publisher.revenue_share', 'user.create', 'user.create']);
  expect(doc.total_rows).toBe(4);
  expect(doc.rows[0]).toMatchObject({ actor_email: ADMIN.email, action: 'token.create', target_label: 'Diario Norte', after: { token: '[oculto]' } });
  expect(doc.rows[3]).toMatchObject({ actor_type: 'system', action: 'user.create', target_label: ADMIN.email });
  expect(res.stdout).not.toMatch(/una-clave-larga|scrypt\$/);
});

it('filters by actor, action, date range and text on the server', async () => {
  const rows = async (args: string[]) =>
    JSON.parse((await cli(['audit', ...args, '--json'])).stdout).rows as Array<{ action: string; target_label: string }>;
  expect((await rows(['--actor', 'system'])).map((r) => r.target_label)).toEqual([ADMIN.email]);
  expect((await rows(['--actor', ADMIN.email, '--action', 'user'])).map((r) => r.target_label)).toEqual(['ana@example.com']);
  expect((await rows(['--action', 'token.create', '--search', 'norte'])).map((r) => r.action)).toEqual(['token.create']);
  const today = new Date().toISOString().slice(0, 10);
  expect(await rows(['--since', today, '--until', today])).toHaveLength(4);
  expect(await rows(['--until', '2020-01-01'])).toEqual([]);
});

it('--csv FILE writes every matching entry with the export columns', async () => {
  const file = path.join(path.dirname(dir), 'audit.csv');
  const res = await cli(['audit', '--action', 'user', '--csv', file]);
  expect(res.code).toBe(0);
  const text = await readFile(file, 'utf8');
  const lines = text
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\n');
  expect(lines[0]).toBe('at,actor,actor_id,ip,action,target_kind,target_id,target_label,before,after,request_id');
  expect(lines).toHaveLength(3);
  expect(lines[1]).toContain('ana@example.com');
});

it('on a terminal, a table: when (dd/MM/yyyy on the reporting zone’s clock, named), who, what, on what and the change', async () => {
  const res = await cli(['audit', '--action', 'user'], { isTTY: true, columns: 200 });
  expect(res.code).toBe(0);
  expect(res.stdout).toContain('Auditoría');
  expect(res.stdout).toContain('horas en UTC');
  expect(res.stdout).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2} +\S/m);
  expect(res.stdout).toContain('Usuario creado');
  expect(res.stdout).toContain('sistema');
  expect(res.stdout).toContain('ana@example.com');
});

it('a bad date or sort key is refused with a Spanish reason and a failing exit code', async () => {
  const bad = await cli(['audit', '--since', 'ayer', '--json']);
  expect(bad.code).not.toBe(0);
  expect(bad.stderr.trim()).toBe('Desde: debe ser una fecha AAAA-MM-DD o un instante ISO 8601');
  const sort = await cli(['audit', '--sort', 'actor', '--json']);
  expect(sort.code).not.toBe(0);
  expect(sort.stderr).toMatch(/--sort no válido/);
});

it('a staff user is refused: No autorizado', async () => {
  const other = await newConfigDir();
  expect((await runCli(['login', '--email', 'ana@example.com'], other, server.url, { stdin: 'una-clave-larga-1\n' })).code).toBe(0);
  const res = await runCli(['audit', '--json'], other, server.url);
  expect(res.code).not.toBe(0);
  expect(res.stderr).toContain('No autorizado');
});
