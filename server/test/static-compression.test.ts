// The web UI's files and JSON answers travel compressed for clients that accept it; small
// answers and clients that do not ask get them as they are.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import http from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
let web: string;
const SCRIPT = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{ "zone": "Z-${i}" }`).join(', ')}];\n`;

beforeAll(async () => {
  web = await mkdtemp(path.join(tmpdir(), 'adops-web-'));
  await mkdir(path.join(web, 'assets'));
  await writeFile(path.join(web, 'index.html'), '<!doctype html><title>AdOps</title>');
  await writeFile(path.join(web, 'assets', 'app-1234.js'), SCRIPT);
  s = await startTestServer({ webDist: web });
});
afterAll(async () => {
  await s.close();
  await rm(web, { recursive: true, force: true });
});

/** A raw GET (fetch would decompress and hide the encoding). */
function get(pathname: string, headers: Record<string, string>): Promise<{ encoding?: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(s.url + pathname, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

test('a script of the web UI is sent gzip or brotli when accepted, and plain otherwise', async () => {
  const gz = await get('/assets/app-1234.js', { 'accept-encoding': 'gzip' });
  expect(gz.encoding).toBe('gzip');
  expect(gunzipSync(gz.body).toString()).toBe(SCRIPT);
  expect(gz.body.length).toBeLessThan(SCRIPT.length / 3);
  const br = await get('/assets/app-1234.js', { 'accept-encoding': 'br, gzip' });
  expect(br.encoding).toBe('br');
  expect(brotliDecompressSync(br.body).toString()).toBe(SCRIPT);
  const plain = await get('/assets/app-1234.js', {});
  expect(plain.encoding).toBeUndefined();
  expect(plain.body.toString()).toBe(SCRIPT);
});

test('a small answer is not worth compressing', async () => {
  const health = await get('/api/health', { 'accept-encoding': 'gzip' });
  expect(health.encoding).toBeUndefined();
  expect(JSON.parse(health.body.toString())).toHaveProperty('status');
});
