// adops' fetch over node:http answers what Node's fetch answers — status, headers and body, a
// compressed body decoded, a redirect followed, a 204 empty, an upload sent, a stopped download
// aborted, an unreachable server a TypeError — against one small real server.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync, brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpFetch } from '../src/http-fetch.js';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (c: Buffer) => body.push(c));
    req.on('end', () => {
      const accepts = String(req.headers['accept-encoding'] ?? '');
      if (req.url === '/gzip' && accepts.includes('gzip')) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        return res.end(gzipSync(JSON.stringify({ año: 2026, filas: 'x'.repeat(5000) })));
      }
      if (req.url === '/br') {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'br' });
        return res.end(brotliCompressSync('comprimido con brotli'));
      }
      if (req.url === '/moved') {
        res.writeHead(302, { location: '/echo' });
        return res.end();
      }
      if (req.url === '/empty') {
        res.writeHead(204, { 'x-adops-tz': 'Europe/Madrid' });
        return res.end();
      }
      if (req.url === '/slow') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.write('primera parte\n');
      }
      res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'application/json', 'x-adops-currency': 'EUR' });
      res.end(JSON.stringify({ method: req.method, url: req.url, agent: req.headers['user-agent'], body: Buffer.concat(body).toString() }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** What a command can see of an answer. */
async function seen(res: Response) {
  return { status: res.status, ok: res.ok, type: res.headers.get('content-type'), text: await res.text() };
}

describe('httpFetch', () => {
  it('answers as Node’s fetch does: bodies, compressed ones, redirects, errors and empty answers', async () => {
    const calls: Array<[string, RequestInit?]> = [
      ['/echo', { headers: { 'user-agent': 'adops-cli' } }],
      ['/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ nombre: 'Peña' }) }],
      ['/echo', { method: 'PUT', body: new TextEncoder().encode('bytes') }],
      ['/gzip'],
      ['/br'],
      ['/moved'],
      ['/missing'],
    ];
    for (const [path, init] of calls)
      expect(await seen(await httpFetch(`${base}${path}`, init)), path).toEqual(await seen(await fetch(`${base}${path}`, init)));
    const empty = await httpFetch(`${base}/empty`);
    expect([empty.status, empty.body, empty.headers.get('x-adops-tz')]).toEqual([204, null, 'Europe/Madrid']);
  });

  it('stops a download when its signal aborts, and fails as fetch does on an unreachable server', async () => {
    const controller = new AbortController();
    const res = await httpFetch(`${base}/slow`, { signal: controller.signal });
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('primera parte\n');
    controller.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
    await expect(httpFetch('http://127.0.0.1:9/')).rejects.toBeInstanceOf(TypeError);
    await expect(fetch('http://127.0.0.1:9/')).rejects.toBeInstanceOf(TypeError);
  });
});
