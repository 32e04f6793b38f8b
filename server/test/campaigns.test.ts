// Campaign creation over HTTP against the Meta sandbox: the exact Graph calls, rollback,
// Graph errors and rate-limit retries, image checks and hostile multipart bodies.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { trackingUrl, type CreatedCampaign, type LocalCampaign } from '@adops/core';
import { startTestServer, ADMIN, type TestServer } from './helpers.js';
import type { MetaSandbox } from '../src/sandbox/meta/index.js';
import { DEFAULT_PAGE_ID } from '../src/providers/index.js';

const ASSETS = fileURLToPath(new URL('../assets/sandbox-images/', import.meta.url));
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

let s: TestServer;
let token: string;
let sandbox: MetaSandbox;
let png: Buffer;
let jpeg: Buffer;

beforeAll(async () => {
  s = await startTestServer({ publicSiteUrl: 'https://www.example-news.com' });
  token = (await s.admin()).token;
  sandbox = s.app.services.campaigns.providers.metaSandbox!;
  png = await readFile(path.join(ASSETS, 'forest.png'));
  jpeg = await readFile(path.join(ASSETS, 'city-night.jpg'));
  // The ad account's currency and minimum budget are read from Meta once and kept (campaigns-budget.test.ts):
  // read here, so each test below sees only the calls its creation makes.
  expect((await s.fetch('/api/campaigns/budget-limits', { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
});
afterAll(() => s.close());
beforeEach(() => {
  sandbox.requests.length = 0;
});

const base = { keyword: 'seguros coche', headline: 'Seguros de coche baratos', body: 'Compara y ahorra en tu seguro.', alias: 'seg01' };

function form(fields: Record<string, string>, image?: { bytes: Buffer; name?: string; type?: string }): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  if (image) f.append('image', new Blob([image.bytes], { type: image.type ?? 'image/png' }), image.name ?? 'foto.png');
  return f;
}

const post = (body: BodyInit, headers: Record<string, string> = {}, auth = true) =>
  s.fetch('/api/create-campaign/', {
    method: 'POST',
    headers: { ...(auth ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body,
  });

const localCampaigns = async (): Promise<LocalCampaign[]> =>
  (await s.fetch('/api/campaigns', { headers: { authorization: `Bearer ${token}` } })).json();

/** Sends a raw request body (for malformed multipart that fetch would never produce). */
function rawPost(body: Buffer | string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(`${s.url}/api/create-campaign/`);
    const req = http.request(
      { host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { authorization: `Bearer ${token}`, ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('creating a campaign', () => {
  test('uploads the image and creates campaign, ad set, creative and ad on Meta, all paused, amounts in cents', async () => {
    const res = await post(
      form(
        {
          ...base,
          base_url: 'https://landing.example.com/seguros?lang=es',
          fb_page: '998877665544',
          cta: 'SHOP_NOW',
          daily_budget: '2.50',
          bid_amount: '0.07',
          objective: 'OUTCOME_SALES',
        },
        { bytes: png },
      ),
    );
    expect(res.status).toBe(201);
    const created = (await res.json()) as CreatedCampaign;
    const link = trackingUrl({ baseUrl: 'https://landing.example.com/seguros?lang=es', alias: 'seg01', keyword: 'seguros coche' });
    expect(created.tracking_url).toBe(link);
    expect(created.image_hash).toBe(md5(png));
    expect(created.preview).toMatchObject({ headline: base.headline, body: base.body, cta: 'SHOP_NOW', link });

    expect(sandbox.requests.map((r) => `${r.method} ${r.edge}`)).toEqual([
      'POST adimages',
      'POST campaigns',
      'POST adsets',
      'POST adcreatives',
      'POST ads',
    ]);
    const [, campaign, adset, creative, ad] = sandbox.requests.map((r) => r.params);
    expect(campaign).toEqual({
      name: expect.stringContaining('seg01 | seguros coche'),
      objective: 'OUTCOME_SALES',
      status: 'PAUSED',
      special_ad_categories: [],
      is_adset_budget_sharing_enabled: 'false',
    });
    expect(adset).toEqual({
      name: expect.any(String),
      campaign_id: created.campaign_id,
      daily_budget: '250',
      bid_amount: '7',
      bid_strategy: 'LOWEST_COST_WITH_BID_CAP',
      billing_event: 'IMPRESSIONS',
      optimization_goal: 'LINK_CLICKS',
      targeting: { geo_locations: { countries: ['ES'] }, targeting_automation: { advantage_audience: 0 } },
      status: 'PAUSED',
    });
    expect(creative).toEqual({
      name: expect.any(String),
      object_story_spec: {
        page_id: '998877665544',
        link_data: {
          link,
          message: base.body,
          name: base.headline,
          call_to_action: { type: 'SHOP_NOW', value: { link } },
          image_hash: md5(png),
        },
      },
    });
    expect(ad).toEqual({ name: expect.any(String), adset_id: created.adset_id, creative: { creative_id: created.creative_id }, status: 'PAUSED' });
    // Meta holds the objects, paused.
    for (const id of [created.campaign_id, created.adset_id, created.ad_id]) expect(sandbox.objects.get(id)?.status).toBe('PAUSED');
    expect(sandbox.images.get(md5(png))?.equals(png)).toBe(true);

    const records = await localCampaigns();
    expect(records[0]).toMatchObject({
      campaign_id: created.campaign_id,
      adset_id: created.adset_id,
      ad_id: created.ad_id,
      creative_id: created.creative_id,
      image_hash: md5(png),
      keyword: 'seguros coche',
      objective: 'OUTCOME_SALES',
      daily_budget: 2.5,
      bid_amount: 0.07,
      tracking_url: link,
      created_by: ADMIN.email,
    });
    expect(Date.now() - Date.parse(records[0].created_at)).toBeLessThan(60_000);
    const stored = JSON.parse(await readFile(path.join(s.dataDir, 'adops.json'), 'utf8'));
    expect(stored.campaigns.map((c: LocalCampaign) => c.campaign_id)).toContain(created.campaign_id);
  });

  test('fills the spec defaults and uses a Pixabay suggestion the server downloads itself', async () => {
    const hits = await (await s.fetch('/api/pixabay/?query=viajes&page=2', { headers: { authorization: `Bearer ${token}` } })).json();
    const chosen = hits[0].largeImageURL as string;
    const bytes = Buffer.from(await (await s.fetch(new URL(chosen).pathname)).arrayBuffer());
    sandbox.requests.length = 0;

    const res = await post(form({ ...base, alias: 'vj 2', keyword: 'viajes', image_url: chosen, advantage_audience: '1', countries: 'es, pt' }));
    expect(res.status).toBe(201);
    const created = (await res.json()) as CreatedCampaign;
    expect(created.image_hash).toBe(md5(bytes));
    expect(created.preview.image_url).toBe(chosen);
    expect(created.preview.cta).toBe('LEARN_MORE');
    // Without base_url the tracking URL starts at the public site.
    expect(created.tracking_url).toBe(trackingUrl({ baseUrl: 'https://www.example-news.com', alias: 'vj 2', keyword: 'viajes' }));
    const byEdge = Object.fromEntries(sandbox.requests.map((r) => [r.edge, r.params]));
    expect(byEdge.campaigns.objective).toBe('OUTCOME_TRAFFIC');
    expect(byEdge.adsets).toMatchObject({
      daily_budget: '100',
      bid_amount: '5',
      targeting: { geo_locations: { countries: ['ES', 'PT'] }, targeting_automation: { advantage_audience: 1 } },
    });
    expect(byEdge.adcreatives).toMatchObject({
      object_story_spec: { page_id: DEFAULT_PAGE_ID, link_data: { call_to_action: { type: 'LEARN_MORE' } } },
    });
  });

  test('accepts a JPEG upload and a budget typed with a decimal comma', async () => {
    const res = await post(form({ ...base, daily_budget: '3,75', bid_amount: '0,1' }, { bytes: jpeg, name: 'x.jpg', type: 'image/jpeg' }));
    expect(res.status).toBe(201);
    const adset = sandbox.requestsTo('adsets')[0].params;
    expect(adset).toMatchObject({ daily_budget: '375', bid_amount: '10' });
  });
});

describe('when Meta fails', () => {
  test('a failure at the ad step deletes creative, ad set, campaign and image in reverse order and answers 502 with Meta’s message', async () => {
    const before = await localCampaigns();
    const objectsBefore = new Set(sandbox.objects.keys());
    sandbox.failNext('ads', {
      message: '(#100) Invalid parameter',
      error_subcode: 1487390,
      error_user_title: 'Anuncio no válido',
      error_user_msg: 'El anuncio no cumple las políticas de publicidad.',
    });
    // An image no other campaign uses, so the rollback may delete it too.
    const unique = Buffer.concat([png, Buffer.from('rollback')]);
    const res = await post(form(base, { bytes: unique }));
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ detail: 'El anuncio no cumple las políticas de publicidad.' });

    const posted = Object.fromEntries(sandbox.requests.filter((r) => r.method === 'POST' && r.edge !== 'ads').map((r) => [r.edge, r]));
    expect(Object.keys(posted)).toEqual(['adimages', 'campaigns', 'adsets', 'adcreatives']);
    const idOf = (edge: string) => (posted[edge].answer as { id: string }).id;
    const deletes = sandbox.requests.filter((r) => r.method === 'DELETE');
    // Exactly what was created, newest first, then the image.
    expect(deletes.map((d) => d.path)).toEqual([
      `/${idOf('adcreatives')}`,
      `/${idOf('adsets')}`,
      `/${idOf('campaigns')}`,
      `/${sandbox.requestsTo('adimages')[0].path.split('/')[1]}/adimages`,
    ]);
    expect(deletes[3].params).toEqual({ hash: md5(unique) });
    expect([...sandbox.objects.keys()].filter((id) => !objectsBefore.has(id))).toEqual([]); // nothing left on Meta
    expect(sandbox.images.has(md5(unique))).toBe(false);
    expect(await localCampaigns()).toEqual(before);
  });

  test('a magic name (#fail:adsets) makes the sandbox fail that step, e.g. for browser tests', async () => {
    const res = await post(form({ ...base, keyword: 'fallo #fail:adsets' }, { bytes: png }));
    expect(res.status).toBe(502);
    expect((await res.json()).detail).toContain('adsets');
    expect(sandbox.requests.filter((r) => r.method === 'DELETE' && r.edge === 'delete')).toHaveLength(1);
  });

  test('a Graph error without a user message answers its message', async () => {
    sandbox.failNext('campaigns', { message: '(#2) Service temporarily unavailable', code: 2 });
    const res = await post(form(base, { bytes: png }));
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ detail: '(#2) Service temporarily unavailable' });
  });

  test('a value Meta itself refuses reaches the user as 502 with error_user_msg', async () => {
    sandbox.failNext('adsets', {
      message: '(#100) Invalid parameter',
      error_subcode: 1885272,
      error_user_msg: 'La segmentación elegida es demasiado reducida.',
    });
    const res = await post(form(base, { bytes: png }));
    expect(res.status).toBe(502);
    expect((await res.json()).detail).toBe('La segmentación elegida es demasiado reducida.');
  });

  test('rate-limit error #17 is retried with backoff and the creation then succeeds', async () => {
    sandbox.failNext('campaigns', { message: '(#17) User request limit reached', code: 17, error_subcode: 2446079 }, 2);
    const res = await post(form(base, { bytes: png }));
    expect(res.status).toBe(201);
    expect(sandbox.requestsTo('campaigns')).toHaveLength(3);
    expect(sandbox.requestsTo('ads')).toHaveLength(1);
  });

  test('a rate limit that does not clear gives up after a bounded number of attempts', async () => {
    sandbox.failNext('adsets', { message: '(#613) Calls to this api have exceeded the rate limit.', code: 613 }, 10);
    const res = await post(form(base, { bytes: png }));
    expect(res.status).toBe(502);
    expect((await res.json()).detail).toBe('(#613) Calls to this api have exceeded the rate limit.');
    expect(sandbox.requestsTo('adsets')).toHaveLength(4);
    sandbox.clearFailures();
  });
});

describe('form validation', () => {
  test.each([
    ['keyword', 'Keyword'],
    ['headline', 'Título'],
    ['body', 'Texto principal'],
    ['alias', 'Alias'],
  ])('%s is required, said by its label (%s)', async (field, label) => {
    const res = await post(form({ ...base, [field]: '' }, { bytes: png }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: `${label}: es obligatorio` });
    expect(sandbox.requests).toHaveLength(0);
  });

  // Every field of the form the route can refuse, in the creator's words: never a field key, never cents.
  test.each([
    [
      'daily_budget',
      '1.234',
      'Presupuesto diario: «1.234» es ambiguo: escribe 1234 si son miles, o usa la coma con 2 decimales como mucho (p. ej. 1,50)',
    ],
    [
      'daily_budget',
      '1,505',
      'Presupuesto diario: «1,505» es ambiguo: escribe 1505 si son miles, o usa la coma con 2 decimales como mucho (p. ej. 1,50)',
    ],
    ['daily_budget', 'mil', 'Presupuesto diario: escribe solo cifras con la coma para los decimales (p. ej. 1,50 o 1.500,25)'],
    ['bid_amount', '-1', 'Puja CPC: no puede ser negativo'],
    ['bid_amount', '0,123', 'Puja CPC: admite como máximo 2 decimales'],
    ['objective', 'OUTCOME_LEADS', 'Objetivo: debe ser OUTCOME_TRAFFIC u OUTCOME_SALES'],
    ['cta', 'HACK', 'Botón (CTA): no es un botón de Meta (p. ej. LEARN_MORE)'],
    ['base_url', 'javascript:alert(1)', 'URL base: debe ser una URL http(s) válida'],
    ['fb_page', '12ab', 'Página de Facebook: debe ser el id numérico de una página'],
    ['countries', 'España', 'Países (1.º): «ESPAÑA» no es un código de país de 2 letras (p. ej. ES)'],
    ['advantage_audience', 'quizá', 'Público Advantage+: debe ser 1 o 0'],
    ['keyword', 'k'.repeat(101), 'Keyword: como mucho 100 caracteres'],
    ['image_url', 'x'.repeat(2001), 'Imagen sugerida: como mucho 2.000 caracteres'],
  ])('%s = %s is refused in words', async (field, value, detail) => {
    const res = await post(form({ ...base, [field]: value }, { bytes: png }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail });
    expect(sandbox.requests).toHaveLength(0);
  });

  test('without an image the spec’s message is answered and nothing reaches Meta', async () => {
    const before = await localCampaigns();
    const res = await post(form(base));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: 'Debes subir una imagen o seleccionar una de Pixabay' });
    // An empty file input (what a browser sends when nothing was chosen) is no image either.
    const empty = await post(form(base, { bytes: Buffer.alloc(0), name: '' }));
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ detail: 'Debes subir una imagen o seleccionar una de Pixabay' });
    expect(sandbox.requests).toHaveLength(0);
    expect(await localCampaigns()).toEqual(before);
  });

  test('an image that is not JPEG, PNG or WebP by its bytes is refused, whatever its name says', async () => {
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
    for (const bytes of [gif, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), Buffer.from('#!/bin/sh\nrm -rf /\n')]) {
      const res = await post(form(base, { bytes, name: 'foto.png', type: 'image/png' }));
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ detail: 'La imagen debe ser JPEG, PNG o WebP' });
    }
    const webp = Buffer.concat([Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1'), Buffer.alloc(16)]);
    // WebP passes the server's check; the sandbox then judges it like Meta would.
    const res = await post(form(base, { bytes: webp, name: 'a.webp', type: 'image/webp' }));
    expect(res.status).toBe(201);
  });

  test('an image over 8 MB answers 413 and nothing reaches Meta', async () => {
    const big = Buffer.alloc(8 * 1024 * 1024 + 1, 0);
    png.copy(big);
    const res = await post(form(base, { bytes: big }));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ detail: 'La imagen supera el máximo de 8 MB' });
    expect(sandbox.requests).toHaveLength(0);
    // Exactly 8 MB is still accepted by the server.
    const max = Buffer.alloc(8 * 1024 * 1024, 0);
    png.copy(max);
    const ok = await post(form({ ...base, keyword: 'max size' }, { bytes: max }));
    expect(ok.status).toBe(201);
  });

  test.each([
    ['another host', 'https://evil.example.com/photo.jpg'],
    ['the internal sandbox address', 'INTERNAL'],
    ['a local file', 'file:///etc/passwd'],
    ['a path escaping the image folder', '/api/sandbox/pixabay-images/../../../etc/passwd'],
    ['an encoded escape', '/api/sandbox/pixabay-images/..%2F..%2Fpackage.json'],
    ['the right path on another host', 'https://evil.example.com/api/sandbox/pixabay-images/forest.png'],
    ['a data URL', 'data:image/png;base64,iVBORw0KGgo='],
  ])('a suggestion URL pointing at %s is refused', async (_what, url) => {
    const target = url === 'INTERNAL' ? `${s.app.services.campaigns.providers.pixabaySandbox!.url}/images/forest.png` : url;
    const res = await post(form({ ...base, image_url: target }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: 'La imagen sugerida debe venir de Pixabay' });
    expect(sandbox.requests).toHaveLength(0);
  });

  test('a suggestion that does not exist answers 502 (the provider could not serve it)', async () => {
    const res = await post(form({ ...base, image_url: '/api/sandbox/pixabay-images/missing.png' }));
    expect(res.status).toBe(502);
    expect(sandbox.requests).toHaveLength(0);
  });
});

describe('hostile and malformed requests', () => {
  test('every campaign route needs a session', async () => {
    for (const [method, p] of [
      ['POST', '/api/create-campaign/'],
      ['GET', '/api/pixabay/?query=viajes'],
      ['GET', '/api/generate-copy/?keyword=viajes'],
      ['GET', '/api/facebook-campaigns/insights?from_date=2025-01-01&to_date=2025-01-02'],
      ['GET', '/api/campaigns'],
    ]) {
      const res = await s.fetch(p, { method, body: method === 'POST' ? form(base, { bytes: png }) : undefined });
      expect(res.status, p).toBe(401);
      expect((await res.json()).detail).toBeTruthy();
    }
    const forged = await post(form(base, { bytes: png }), { authorization: 'Bearer eyJhbGciOiJub25lIn0.e30.' }, false);
    expect(forged.status).toBe(401);
    expect(sandbox.requests).toHaveLength(0);
  });

  test('a JSON body instead of a multipart form answers 415', async () => {
    const res = await post(JSON.stringify(base), { 'content-type': 'application/json' });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ detail: 'El formulario debe enviarse como multipart/form-data' });
  });

  test('a truncated multipart body answers 400', async () => {
    const body =
      '--XB\r\nContent-Disposition: form-data; name="keyword"\r\n\r\nabc\r\n--XB\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\n\x89PNG';
    const res = await rawPost(body, { 'content-type': 'multipart/form-data; boundary=XB' });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ detail: 'Formulario multipart mal formado' });
  });

  test('garbage with a multipart content type answers 400', async () => {
    const res = await rawPost('not a multipart body at all', { 'content-type': 'multipart/form-data; boundary=XB' });
    expect(res.status).toBe(400);
  });

  test('two images, an image under another field and repeated fields are refused', async () => {
    const two = form(base, { bytes: png });
    two.append('image', new Blob([png]), 'b.png');
    expect((await post(two)).status).toBe(400);

    const other = form(base);
    other.append('avatar', new Blob([png]), 'a.png');
    const r2 = await post(other);
    expect(r2.status).toBe(400);
    expect((await r2.json()).detail).toBe('Archivo no esperado en el campo avatar');

    const repeated = form(base, { bytes: png });
    repeated.append('keyword', 'otra');
    const r3 = await post(repeated);
    expect(r3.status).toBe(400);
    expect((await r3.json()).detail).toBe('Keyword: el campo está repetido');
    expect(sandbox.requests).toHaveLength(0);
  });

  test('an oversized text field and a flood of fields are refused', async () => {
    const long = await post(form({ ...base, headline: 'x'.repeat(9000) }, { bytes: png }));
    expect(long.status).toBe(400);
    expect((await long.json()).detail).toBe('Título: es demasiado largo');

    const flood = form(base, { bytes: png });
    for (let i = 0; i < 40; i++) flood.append(`f${i}`, 'x');
    const r = await post(flood);
    expect(r.status).toBe(400);
    expect((await r.json()).detail).toMatch(/demasiad/);
    expect(sandbox.requests).toHaveLength(0);
  });

  test('a body declared larger than the limit is refused before it is read', async () => {
    const res = await rawPost('x', {
      'content-type': 'multipart/form-data; boundary=XB',
      'content-length': String(50 * 1024 * 1024),
    }).catch((e: Error) => ({ status: -1, body: e.message }));
    // Either the 413 answer arrives or the server closes the connection without reading 50 MB.
    if (res.status !== -1) expect(res.status).toBe(413);
    const health = await s.fetch('/api/health');
    expect(health.status).toBe(200);
  });

  test('a chunked body that grows past the limit is cut off with 413 and nothing reaches Meta', async () => {
    const result = await new Promise<{ status: number; body: string }>((resolve) => {
      const u = new URL(`${s.url}/api/create-campaign/`);
      const req = http.request({
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=XB', 'transfer-encoding': 'chunked' },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', () => resolve({ status: -1, body: '' }));
      req.write('--XB\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n');
      const chunk = Buffer.alloc(256 * 1024, 1);
      let sent = 0;
      const pump = () => {
        while (sent < 40 * 1024 * 1024) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    // The answer is 413, or the connection is closed before 40 MB were taken in.
    if (result.status !== -1) expect(result).toEqual({ status: 413, body: JSON.stringify({ detail: 'La imagen supera el máximo de 8 MB' }) });
    expect(sandbox.requests).toHaveLength(0);
    expect((await s.fetch('/api/health')).status).toBe(200);
  });

  test('hostile field values are stored as text and encoded into the tracking URL', async () => {
    const hostile = { ...base, keyword: '"><script>alert(1)</script>', alias: "a&cid=1'; DROP TABLE x;--" };
    const res = await post(form(hostile, { bytes: png }));
    expect(res.status).toBe(201);
    const created = (await res.json()) as CreatedCampaign;
    const url = new URL(created.tracking_url);
    expect(url.searchParams.get('kw')).toBe(hostile.keyword);
    expect(url.searchParams.get('alias')).toBe(hostile.alias);
    expect(url.searchParams.getAll('cid')).toEqual(['{{campaign.id}}']);
    expect((await localCampaigns()).find((c) => c.campaign_id === created.campaign_id)?.keyword).toBe(hostile.keyword);
  });
});

describe('when Meta cannot be reached', () => {
  test('creation answers 502 and stores nothing', async () => {
    const other = await startTestServer();
    try {
      const t = (await other.admin()).token;
      await other.app.services.campaigns.providers.metaSandbox!.close();
      const res = await other.fetch('/api/create-campaign/', {
        method: 'POST',
        headers: { authorization: `Bearer ${t}` },
        body: form(base, { bytes: png }),
      });
      expect(res.status).toBe(502);
      expect(await res.json()).toEqual({
        detail: 'No se pudo leer la moneda y el presupuesto mínimo de la cuenta publicitaria de Meta: No se pudo conectar con Meta',
      });
      const list = await (await other.fetch('/api/campaigns', { headers: { authorization: `Bearer ${t}` } })).json();
      expect(list).toEqual([]);
    } finally {
      await other.close().catch(() => undefined);
    }
  });
});
