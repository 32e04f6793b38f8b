// Image and copy suggestions over HTTP: Pixabay (through its sandbox) with validation, the
// 24 h cache and the key's rate limit; copy from the template writer and from an
// OpenAI-compatible endpoint (the chat sandbox); the sandbox's public bundled images.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';
import { ChatSandbox } from '../src/sandbox/chat.js';
import { PixabayClient } from '../src/providers/pixabay/client.js';
import { PixabaySandbox as PixabaySandboxServer } from '../src/sandbox/pixabay.js';
import type { PixabaySandbox } from '../src/sandbox/pixabay.js';

let s: TestServer;
let token: string;
let pixabay: PixabaySandbox;

beforeAll(async () => {
  s = await startTestServer();
  token = (await s.admin()).token;
  pixabay = s.app.services.campaigns.providers.pixabaySandbox!;
});
afterAll(() => s.close());

const get = async (server: TestServer, p: string, t = token) => {
  const res = await server.fetch(p, { headers: { authorization: `Bearer ${t}` } });
  // biome-ignore lint/suspicious/noExplicitAny: a JSON answer of varying shape, asserted field by field below
  return { status: res.status, body: (await res.json()) as any };
};

describe('image suggestions (GET /api/pixabay/)', () => {
  test('answers id, previewURL and largeImageURL that load from this server without a session', async () => {
    const r = await get(s, '/api/pixabay/?query=playa&page=3');
    expect(r.status).toBe(200);
    expect(r.body.length).toBeGreaterThanOrEqual(3);
    for (const hit of r.body) {
      expect(Object.keys(hit).sort()).toEqual(['id', 'largeImageURL', 'previewURL']);
      expect(hit.largeImageURL.startsWith(`${s.url}/api/sandbox/pixabay-images/`)).toBe(true);
    }
    const img = await fetch(r.body[0].previewURL);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toMatch(/^image\/(png|jpeg)$/);
    const bytes = new Uint8Array(await img.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(1000);
    expect(pixabay.searches.at(-1)).toEqual({ q: 'playa', page: 3, per_page: 20 });
  });

  test('the path without the trailing slash works too; page defaults to 1', async () => {
    const r = await get(s, '/api/pixabay?query=montaña');
    expect(r.status).toBe(200);
    expect(pixabay.searches.at(-1)).toEqual({ q: 'montaña', page: 1, per_page: 20 });
  });

  test('the same keyword and page within 24 h is answered from the cache, case-insensitively', async () => {
    const first = await get(s, '/api/pixabay/?query=Zapatillas&page=2');
    const searches = pixabay.searches.length;
    const again = await get(s, '/api/pixabay/?query=zapatillas&page=2');
    expect(again.body).toEqual(first.body);
    expect(pixabay.searches.length).toBe(searches);
    await get(s, '/api/pixabay/?query=zapatillas&page=4');
    expect(pixabay.searches.length).toBe(searches + 1);
  });

  test.each([
    ['/api/pixabay/', 'Búsqueda: es obligatorio'],
    ['/api/pixabay/?query=ab', 'Búsqueda: debe tener más de 2 caracteres'],
    ['/api/pixabay/?query=%20%20ab%20', 'Búsqueda: debe tener más de 2 caracteres'],
    ['/api/pixabay/?query=playa&page=0', 'Página: debe estar entre 1 y 5'],
    ['/api/pixabay/?query=playa&page=6', 'Página: debe estar entre 1 y 5'],
    ['/api/pixabay/?query=playa&page=2.5', 'Página: debe ser un número entero'],
    [`/api/pixabay/?query=${'x'.repeat(101)}`, 'Búsqueda: como mucho 100 caracteres'],
  ])('%s is refused', async (p, detail) => {
    const before = pixabay.searches.length;
    expect(await get(s, p)).toEqual({ status: 400, body: { detail } });
    expect(pixabay.searches.length).toBe(before);
  });

  test('hostile keywords travel as data', async () => {
    const q = encodeURIComponent('a&key=stolen&q=<script>');
    const r = await get(s, `/api/pixabay/?query=${q}`);
    expect(r.status).toBe(200);
    expect(pixabay.searches.at(-1)?.q).toBe('a&key=stolen&q=<script>');
  });

  test('the bundled image route serves only bundled files', async () => {
    for (const p of ['missing.png', '..%2F..%2Fpackage.json', '..%2Fsrc%2Fapp.ts', 'generate.mjs', '.env']) {
      const res = await s.fetch(`/api/sandbox/pixabay-images/${p}`);
      expect(res.status, p).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/json/);
    }
  });
  // Last of this group: it spends the key's rate limit for the rest of the window.
  test('the key’s rate limit read from X-RateLimit headers is respected: no search is sent until the reset', async () => {
    await get(s, '/api/pixabay/?query=cocina&page=1');
    pixabay.allow(1);
    expect((await get(s, '/api/pixabay/?query=ultima&page=1')).status).toBe(200); // answers Remaining: 0
    const calls = pixabay.apiCalls;
    const r = await get(s, '/api/pixabay/?query=otra&page=1');
    expect(r.status).toBe(429);
    expect(r.body.detail).toMatch(/^Se alcanzó el límite de búsquedas de imágenes; vuelve a intentarlo en \d+ s$/);
    expect(pixabay.apiCalls).toBe(calls); // not sent to Pixabay
    // Cached answers are still served meanwhile.
    expect((await get(s, '/api/pixabay/?query=cocina&page=1')).status).toBe(200);
  });
});

describe('the Pixabay client', () => {
  let own: PixabaySandboxServer;
  beforeAll(async () => {
    own = await PixabaySandboxServer.start({ key: 'k1' });
  });
  afterAll(() => own.close());

  test('a cached answer expires after 24 hours', async () => {
    let now = Date.parse('2025-06-01T10:00:00Z');
    const client = new PixabayClient({ apiBase: own.apiBase, key: 'k1', now: () => now });
    const first = await client.search('lago', 1);
    now += 23.9 * 3600_000;
    expect(await client.search('lago', 1)).toEqual(first);
    expect(own.searches.filter((x) => x.q === 'lago')).toHaveLength(1);
    now += 0.2 * 3600_000;
    await client.search('lago', 1);
    expect(own.searches.filter((x) => x.q === 'lago')).toHaveLength(2);
  });

  test('Pixabay’s own 429 is passed on and blocks further searches for a while', async () => {
    const client = new PixabayClient({ apiBase: own.apiBase, key: 'k1' });
    own.allow(0);
    await expect(client.search('rio', 1)).rejects.toMatchObject({ kind: 'too_many' });
    const calls = own.apiCalls;
    await expect(client.search('mar', 1)).rejects.toMatchObject({ kind: 'too_many' });
    expect(own.apiCalls).toBe(calls);
  });

  test('a wrong key is a provider failure (502), not the user’s fault', async () => {
    const client = new PixabayClient({ apiBase: own.apiBase, key: 'wrong' });
    own.allow(100);
    await expect(client.search('rio', 1)).rejects.toMatchObject({ kind: 'upstream' });
  });

  test('downloads only from the provider’s host, at most 8 MB', async () => {
    const client = new PixabayClient({ apiBase: own.apiBase, key: 'k1' });
    const ok = await client.download(new URL(`${own.url}/images/forest.png`));
    expect(ok.subarray(1, 4).toString('latin1')).toBe('PNG');
    await expect(client.download(new URL('https://example.com/x.png'))).rejects.toMatchObject({ kind: 'invalid' });
    await expect(client.download(new URL(`${own.url.replace('127.0.0.1', 'localhost')}/images/forest.png`))).rejects.toMatchObject({
      kind: 'invalid',
    });
    const real = new PixabayClient({ apiBase: 'https://pixabay.com/api/', key: 'k' });
    expect(real.isProviderUrl(new URL('https://cdn.pixabay.com/photo/2020/01/01/x.jpg'))).toBe(true);
    expect(real.isProviderUrl(new URL('https://pixabay.com/get/abc.jpg'))).toBe(true);
    expect(real.isProviderUrl(new URL('http://cdn.pixabay.com/photo/x.jpg'))).toBe(false);
    expect(real.isProviderUrl(new URL('https://pixabay.com.evil.net/x.jpg'))).toBe(false);
    expect(real.isProviderUrl(new URL('https://evilpixabay.com/x.jpg'))).toBe(false);
    expect(real.isProviderUrl(new URL('https://user:pw@pixabay.com/x.jpg'))).toBe(false);
  });
});

describe('copy suggestions (GET /api/generate-copy/)', () => {
  test('the template writer answers Spanish copy within Meta’s lengths, the same for the same keyword', async () => {
    const a = await get(s, '/api/generate-copy/?keyword=seguros%20de%20coche');
    expect(a.status).toBe(200);
    expect(a.body.cta).toBe('LEARN_MORE');
    expect(a.body.headline.length).toBeLessThanOrEqual(40);
    expect(a.body.body.length).toBeLessThanOrEqual(125);
    expect(`${a.body.headline} ${a.body.body}`.toLowerCase()).toContain('seguros de coche');
    expect(await get(s, '/api/generate-copy/?keyword=Seguros%20de%20coche')).toEqual(a);
  });

  test('a keyword of 100 characters still fits the limits', async () => {
    const long = 'comparador de tarifas de electricidad y gas natural para hogares con placas solares y coche electrico';
    const r = await get(s, `/api/generate-copy/?keyword=${encodeURIComponent(long.slice(0, 100))}`);
    expect(r.status).toBe(200);
    expect(r.body.headline.length).toBeLessThanOrEqual(40);
    expect(r.body.body.length).toBeLessThanOrEqual(125);
  });

  test.each([
    ['/api/generate-copy/', 'Keyword: es obligatorio'],
    ['/api/generate-copy/?keyword=ab', 'Keyword: debe tener más de 2 caracteres'],
    [`/api/generate-copy/?keyword=${'k'.repeat(101)}`, 'Keyword: como mucho 100 caracteres'],
  ])('%s is refused', async (p, detail) => {
    expect(await get(s, p)).toEqual({ status: 400, body: { detail } });
  });
});

describe('copy from an OpenAI-compatible endpoint', () => {
  let chat: ChatSandbox;
  let server: TestServer;
  let t: string;
  beforeAll(async () => {
    chat = await ChatSandbox.start();
    server = await startTestServer({ copy: { apiBase: chat.apiBase, apiKey: 'sk-test', model: 'copy-model' } });
    t = (await server.admin()).token;
  });
  afterAll(async () => {
    await server.close();
    await chat.close();
  });

  test('asks the chat endpoint for JSON copy and answers it', async () => {
    const r = await get(server, '/api/generate-copy/?keyword=vuelos%20baratos', t);
    expect(r.status).toBe(200);
    expect(r.body.headline.length).toBeLessThanOrEqual(40);
    const sent = chat.requests.at(-1)!;
    expect(sent.authorization).toBe('Bearer sk-test');
    expect(sent.body).toMatchObject({ model: 'copy-model', response_format: { type: 'json_object' } });
    const user = (sent.body.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'user')!;
    expect(user.content).toContain('"vuelos baratos"');
  });

  test('over-long copy and a fenced answer are brought within the limits; an unknown CTA becomes LEARN_MORE', async () => {
    chat.replyNext({
      status: 200,
      content:
        '```json\n' +
        JSON.stringify({ headline: 'Un titular larguísimo que no cabe en cuarenta caracteres', body: 'b '.repeat(100), cta: 'BUY_EVERYTHING' }) +
        '\n```',
    });
    const r = await get(server, '/api/generate-copy/?keyword=vuelos', t);
    expect(r.status).toBe(200);
    expect(r.body.headline.length).toBeLessThanOrEqual(40);
    expect(r.body.headline.endsWith('…')).toBe(true);
    expect(r.body.body.length).toBeLessThanOrEqual(125);
    expect(r.body.cta).toBe('LEARN_MORE');
  });

  test('a failing or nonsensical endpoint answers 502 with a clear detail', async () => {
    chat.replyNext({ status: 500 });
    expect(await get(server, '/api/generate-copy/?keyword=vuelos', t)).toEqual({
      status: 502,
      body: { detail: 'El servicio de textos respondió con un error (HTTP 500)' },
    });
    chat.replyNext({ status: 200, content: 'Aquí tienes tu anuncio: ¡compra ya!' });
    expect(await get(server, '/api/generate-copy/?keyword=vuelos', t)).toEqual({
      status: 502,
      body: { detail: 'El servicio de textos devolvió una respuesta no válida' },
    });
  });
});
