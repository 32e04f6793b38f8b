// The beacon and batch ingest: what gets stored, who may send, and hostile or broken input.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { ApiError, REFERRER_LIMITS } from '@adops/core';
import type { TestServer } from './helpers.js';
import { ConfigError, loadConfig } from '../src/app.js';
import { INGEST_KEY, logRows, postBatch, reportRows, setZoneOwners, startReferrerServer, storedCount } from './referrers-fixture.js';

let t: TestServer;
let admin: Awaited<ReturnType<TestServer['admin']>>;

beforeAll(async () => {
  // Behind one trusted proxy, as in production: CDN country headers count, X-Forwarded-For's last entry is the client.
  t = await startReferrerServer({ trustProxy: 1 });
  admin = await t.admin();
  await setZoneOwners(t, [
    { date: '2025-01-01', zone_id: '5001', publisher: 'Old Publisher', advertiser: 'Old Advertiser' },
    { date: '2025-02-01', zone_id: '5001', publisher: 'Acme Media', advertiser: 'AdNet One', impressions: 900 },
    { date: '2025-02-01', zone_id: '5001', publisher: 'Acme Media', advertiser: 'Small Buyer', impressions: 10 },
  ]);
});
afterAll(() => t.close());

/** The newest logged events for a zone (today's range, the default). */
async function logsFor(zoneId: string) {
  return logRows(admin, { zoneId });
}

describe('the beacon (GET /api/hit)', () => {
  test('a hit answers 204 and is in the log right after, with IP, country and source', async () => {
    const res = await t.fetch('/api/hit?zone_id=7001&ref=https%3A%2F%2Fnews.example.com%2Fa%3Fq%3D1&kw=zapatos', {
      headers: { 'CF-IPCountry': 'es' },
    });
    expect(res.status).toBe(204);
    const [event] = await logsFor('7001');
    expect(event).toMatchObject({
      zone_id: '7001',
      referrer: 'https://news.example.com/a?q=1',
      parent_domain: 'news.example.com',
      keyword: 'zapatos',
      ip: '127.0.0.1',
      country: 'ES',
    });
    expect(Math.abs(Date.parse(event.seen_at) - Date.now())).toBeLessThan(60_000);
  });

  test('format=gif answers a 1×1 GIF', async () => {
    const res = await t.fetch('/api/hit?zone_id=7002&format=gif');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/gif');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 6))).toBe('GIF89a');
    expect((await logsFor('7002')).length).toBe(1);
  });

  test('src names the source (host or URL) ahead of the referrer host; X-Country-Code is read too', async () => {
    await t.fetch('/api/hit?zone_id=7003&ref=https://a.example.org/x&src=Publisher-Site.com', { headers: { 'X-Country-Code': 'mx' } });
    await t.fetch('/api/hit?zone_id=7003&src=https://blog.example.net/post/1');
    const events = await logsFor('7003');
    expect(events.map((e) => e.parent_domain).sort()).toEqual(['blog.example.net', 'publisher-site.com']);
    expect(events.find((e) => e.parent_domain === 'publisher-site.com')?.country).toBe('MX');
  });

  test('without ref the Referer header is the referrer; a country header that is not a code is dropped', async () => {
    await t.fetch('/api/hit?zone_id=7004', { headers: { Referer: 'https://tag-page.example.com/p', 'CF-IPCountry': 'XX' } });
    await t.fetch('/api/hit?zone_id=7004&ref=https://other.example.com/', { headers: { 'CF-IPCountry': '<script>' } });
    const events = await logsFor('7004');
    expect(events.map((e) => [e.referrer, e.country])).toEqual(
      expect.arrayContaining([
        ['https://tag-page.example.com/p', null],
        ['https://other.example.com/', null],
      ]),
    );
  });

  test('X-Forwarded-For and CDN country headers count only behind trusted proxies, and only the entries they wrote', async () => {
    // One trusted hop: the right-most entry (our proxy's), whatever the client prepended.
    await t.fetch('/api/hit?zone_id=7005', { headers: { 'X-Forwarded-For': '198.51.100.66, 203.0.113.9' } });
    expect((await logsFor('7005'))[0].ip).toBe('203.0.113.9');
    const direct = await startReferrerServer({ trustProxy: 0 });
    const twoHops = await startReferrerServer({ trustProxy: 2 });
    try {
      // No trusted proxy: the socket's address, and no country from a header anyone can send.
      await direct.fetch('/api/hit?zone_id=7006', { headers: { 'X-Forwarded-For': '203.0.113.9', 'CF-IPCountry': 'KP' } });
      const [untrusted] = await logRows(await direct.admin(), { zoneId: '7006' });
      expect([untrusted.ip, untrusted.country]).toEqual(['127.0.0.1', null]);
      // Two hops (a CDN, then a load balancer): the second entry from the right.
      await twoHops.fetch('/api/hit?zone_id=7007', { headers: { 'X-Forwarded-For': '198.51.100.66, 203.0.113.9, 10.0.0.1' } });
      await twoHops.fetch('/api/hit?zone_id=7008', { headers: { 'X-Forwarded-For': 'not-an-ip, 10.0.0.1' } });
      const a = await twoHops.admin();
      expect((await logRows(a, { zoneId: '7007' }))[0].ip).toBe('203.0.113.9');
      expect((await logRows(a, { zoneId: '7008' }))[0].ip).toBe('127.0.0.1');
    } finally {
      await direct.close();
      await twoHops.close();
    }
  });

  test('ADOPS_TRUST_PROXY takes a number of hops (true = 1), and names itself when it is anything else', () => {
    const hops = (value: string) => loadConfig({ ADOPS_TRUST_PROXY: value }).trustProxy;
    expect([hops(''), hops('0'), hops('false'), hops('1'), hops('true'), hops('3')]).toEqual([0, 0, 0, 1, 1, 3]);
    expect(() => hops('many')).toThrow(/ADOPS_TRUST_PROXY/);
    expect(() => hops('11')).toThrow(ConfigError);
  });

  test('publisher and advertiser come from the zone’s latest, busiest zone_report row', async () => {
    await t.fetch('/api/hit?zone_id=5001&ref=https://owner.example.com/');
    const rows = await logRows(admin, { zoneId: '5001', publisher: 'Acme Media', advertiser: 'AdNet One' });
    expect(rows.map((r) => r.referrer)).toEqual(['https://owner.example.com/']);
    expect(await logRows(admin, { zoneId: '5001', publisher: 'Old Publisher' })).toEqual([]);
  });

  test('a zone-report import gives its new zones owners for the hits that follow, reading only its days on', async () => {
    const csv =
      'date,advertiser,publisher,zone_id,impressions,clicks,revenue\n2026-01-06,AdNet Two,New Media,5778,10,1,1\n2026-01-05,AdNet Two,New Media,5777,10,1,1\n';
    // Watched, not replaced: the real warehouse answers; the test sees what the reload asked for.
    const owners = vi.spyOn(t.app.services.warehouse.zoneReports, 'zoneOwners');
    const res = await t.fetch('/api/ingest/zone-report', {
      method: 'POST',
      headers: { 'content-type': 'text/csv', 'x-ingest-key': INGEST_KEY },
      body: csv,
    });
    expect(res.status).toBe(200);
    // The owners are reloaded in the background right after the import (nothing else asks for it here).
    const referrers = t.app.services.referrers;
    for (let i = 0; i < 100 && referrers.zoneOwner('5777').publisher === null; i++) await new Promise((r) => setTimeout(r, 20));
    const reloads = [...owners.mock.calls];
    owners.mockRestore();
    expect(referrers.zoneOwner('5777')).toEqual({ publisher: 'New Media', advertiser: 'AdNet Two' });
    expect(referrers.zoneOwner('5778')).toEqual({ publisher: 'New Media', advertiser: 'AdNet Two' });
    // One reload, of the rows from the import's first day on (not every stored row), merged into
    // what was known: the zone last seen in 2025 keeps its owner.
    expect(reloads).toEqual([['2026-01-05']]);
    expect(referrers.zoneOwner('5001')).toEqual({ publisher: 'Acme Media', advertiser: 'AdNet One' });
    await t.fetch('/api/hit?zone_id=5777&ref=https://new.example.com/');
    expect((await logRows(admin, { zoneId: '5777', publisher: 'New Media', advertiser: 'AdNet Two' })).map((r) => r.referrer)).toEqual([
      'https://new.example.com/',
    ]);
  });

  test.each([
    ['', 'Zone ID: es obligatorio'],
    ['?ref=https://x.example.com', 'Zone ID: es obligatorio'],
    ['?zone_id=', 'Zone ID: es obligatorio'],
    ['?zone_id=has%20space', 'Zone ID: debe tener de 1 a 64 letras, dígitos o . _ : -'],
    [`?zone_id=${'9'.repeat(65)}`, 'Zone ID: como mucho 64 caracteres'],
    ['?zone_id=1&zone_id=2', 'Zone ID: debe indicarse una sola vez'],
    [`?zone_id=1&ref=https://x.example.com/${'a'.repeat(REFERRER_LIMITS.referrer)}`, 'Referrer: como mucho 2.048 caracteres'],
    [`?zone_id=1&kw=${'k'.repeat(REFERRER_LIMITS.keyword + 1)}`, 'Keyword: como mucho 256 caracteres'],
    ['?zone_id=1&src=not%20a%20host', 'Source: debe ser un dominio o una URL http(s)'],
    ['?zone_id=1&kw=a%00b', 'Keyword: no puede contener caracteres de control'],
    ['?zone_id=1&format=png', 'Formato: debe ser gif'],
  ])('bad beacon %s → 400 saying %s, nothing stored', async (query, detail) => {
    const before = await storedCount(t);
    const res = await t.fetch(`/api/hit${query}`);
    expect(res.status).toBe(400);
    expect((await res.json()).detail).toBe(detail);
    expect(await storedCount(t)).toBe(before);
  });
});

describe('batch ingest (POST /api/ingest/referrers)', () => {
  test('a batch is committed before the answer: every event is in the warehouse with resolved owners', async () => {
    const before = await storedCount(t);
    const res = await postBatch(t, [
      { zone_id: 5001, referrer: 'https://a.example.com/1', keyword: 'uno', ip: '198.51.100.7', country: 'ar' },
      { zone_id: '8001', referrer: 'https://b.example.com/2', ip: '2001:db8::1', parent_domain: 'site.example' },
      { zone_id: '8001', seen_at: new Date(Date.now() - 60_000).toISOString() },
    ]);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ accepted: 3 });
    expect(body.last_id - body.first_id).toBe(2);
    expect(await storedCount(t)).toBe(before + 3);
    const [a] = await logRows(admin, { zoneId: '5001', parentDomain: 'a.example.com' });
    expect(a).toMatchObject({ id: body.first_id, keyword: 'uno', ip: '198.51.100.7', country: 'AR' });
    expect(await logRows(admin, { zoneId: '5001', publisher: 'Acme Media', parentDomain: 'a.example.com' })).toHaveLength(1);
    const b = await logRows(admin, { zoneId: '8001' });
    expect(b.map((e) => e.parent_domain)).toEqual(['site.example', null]);
  });

  test('an admin session may ingest; a regular user may not (403); no key or a wrong key is 401', async () => {
    expect((await postBatch(t, [{ zone_id: '8002' }], { authorization: `Bearer ${admin.token}` })).status).toBe(200);
    await admin.admin.createUser({ first_name: 'Ana', email: 'ana@test.local', password: 'ana-pass-123' });
    const ana = await t.as('ana@test.local', 'ana-pass-123');
    const asUser = await postBatch(t, [{ zone_id: '8002' }], { authorization: `Bearer ${ana.token}` });
    expect(asUser.status).toBe(403);
    const none = await postBatch(t, [{ zone_id: '8002' }], {});
    expect(none.status).toBe(401);
    const wrong = await postBatch(t, [{ zone_id: '8002' }], { 'x-ingest-key': `${INGEST_KEY}x` });
    expect(wrong.status).toBe(401);
    const bearerKey = await postBatch(t, [{ zone_id: '8002' }], { authorization: `Bearer ${INGEST_KEY}` });
    expect(bearerKey.status).toBe(200);
    expect(await logRows(admin, { zoneId: '8002' })).toHaveLength(2);
  });

  test('the typed client sends a batch as raw NDJSON', async () => {
    const api = (await import('@adops/core')).createApi({ baseUrl: t.url, getToken: () => INGEST_KEY });
    const result = await api.referrers.ingest(undefined, { rawBody: '{"zone_id":"8003"}\n{"zone_id":"8003"}' });
    expect(result.accepted).toBe(2);
  });

  const hostile: Array<[string, string, string]> = [
    ['malformed JSON on line 3', '{"zone_id":"1"}\n{"zone_id":"2"}\n{"zone_id":\n', 'línea 3: JSON mal formado'],
    ['a line that is not an object', '{"zone_id":"1"}\n[1,2]\n', 'línea 2: se esperaba un objeto JSON'],
    ['a missing zone', '{"referrer":"https://x.example.com"}\n', 'línea 1: Zone ID: es obligatorio'],
    ['a bad IP', '{"zone_id":"1"}\n{"zone_id":"1","ip":"999.1.1.1"}\n', 'línea 2: IP: no es una dirección IPv4 o IPv6 válida'],
    ['an IP with SQL', `{"zone_id":"1","ip":"1.1.1.1' OR 1=1 --"}\n`, 'línea 1: IP: no es una dirección IPv4 o IPv6 válida'],
    [
      'an overlong referrer',
      JSON.stringify({ zone_id: '1', referrer: `https://x.example.com/${'a'.repeat(2048)}` }),
      'línea 1: Referrer: como mucho 2.048 caracteres',
    ],
    ['an overlong keyword', JSON.stringify({ zone_id: '1', keyword: 'k'.repeat(257) }), 'línea 1: Keyword: como mucho 256 caracteres'],
    [
      'a zone with SQL',
      JSON.stringify({ zone_id: "1'; DROP TABLE referrer_event; --" }),
      'línea 1: Zone ID: debe tener de 1 a 64 letras, dígitos o . _ : -',
    ],
    ['a bad country', JSON.stringify({ zone_id: '1', country: 'Spain' }), 'línea 1: País: debe ser un código de país de 2 letras'],
    [
      'a date in the future',
      JSON.stringify({ zone_id: '1', seen_at: new Date(Date.now() + 86_400_000).toISOString() }),
      'línea 1: Momento de la visita: está en el futuro',
    ],
    [
      'a date that is not ISO',
      JSON.stringify({ zone_id: '1', seen_at: 'yesterday' }),
      'línea 1: Momento de la visita: debe ser una fecha y hora ISO 8601',
    ],
    ['a NUL byte', JSON.stringify({ zone_id: '1', referrer: 'a\u0000b' }), 'línea 1: Referrer: no puede contener caracteres de control'],
    [
      'a source that is not a host',
      JSON.stringify({ zone_id: '1', parent_domain: 'a b/c' }),
      'línea 1: Source: debe ser un dominio o una URL http(s)',
    ],
    ['an empty body', '', 'El lote no contiene eventos'],
    ['blank lines only', '\n \n\r\n', 'El lote no contiene eventos'],
  ];
  test.each(hostile)('%s → 400 with the line, and nothing of the batch is stored', async (_name, body, detail) => {
    const before = await storedCount(t);
    const res = await postBatch(t, body);
    expect(res.status).toBe(400);
    expect((await res.json()).detail).toBe(detail);
    expect(await storedCount(t)).toBe(before);
  });

  test('an oversized body is refused with 413 and nothing stored', async () => {
    const before = await storedCount(t);
    const line = `${JSON.stringify({ zone_id: '9', referrer: `https://big.example.com/${'x'.repeat(1900)}` })}\n`;
    const body = line.repeat(Math.ceil((REFERRER_LIMITS.batchBytes + 1) / line.length));
    const res = await postBatch(t, body);
    expect(res.status).toBe(413);
    expect((await res.json()).detail).toContain('MB');
    expect(await storedCount(t)).toBe(before);
  });

  test('a chunked upload past the limit (no Content-Length) is refused with 413', async () => {
    const before = await storedCount(t);
    const chunk = new TextEncoder().encode(`${JSON.stringify({ zone_id: '9', keyword: 'k'.repeat(200) })}\n`);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > REFERRER_LIMITS.batchBytes + 1024 * 1024) controller.close();
        else {
          controller.enqueue(chunk);
          sent += chunk.length;
        }
      },
    });
    const res = await fetch(`${t.url}/api/ingest/referrers`, {
      method: 'POST',
      headers: { 'x-ingest-key': INGEST_KEY },
      body: stream,
      duplex: 'half',
    } as RequestInit).catch((e: Error) => e);
    // The server answers 413 and closes; some clients see the close before reading the answer.
    if (res instanceof Response) expect(res.status).toBe(413);
    expect(await storedCount(t)).toBe(before);
    expect((await t.fetch('/api/hit?zone_id=9')).status).toBe(204);
  });

  test('more events than a batch may hold → 413', async () => {
    const res = await postBatch(t, '{"zone_id":"1"}\n'.repeat(REFERRER_LIMITS.batchEvents + 1));
    expect(res.status).toBe(413);
    expect((await res.json()).detail).toContain(String(REFERRER_LIMITS.batchEvents));
  });

  test('a compressed body is refused with 415', async () => {
    const res = await postBatch(t, '{"zone_id":"1"}\n', { 'x-ingest-key': INGEST_KEY, 'content-encoding': 'gzip' });
    expect(res.status).toBe(415);
  });

  test('SQL-ish and script strings are stored inert and come back verbatim', async () => {
    const referrer = `https://evil.example.com/?q=');DROP TABLE referrer_event;--`;
    const keyword = `<script>alert("x")</script>' OR '1'='1`;
    const res = await postBatch(t, [{ zone_id: '8666', referrer, keyword }]);
    expect(res.status).toBe(200);
    const [row] = await logRows(admin, { zoneId: '8666' });
    expect(row.referrer).toBe(referrer);
    expect(row.keyword).toBe(keyword);
    const hit = await t.fetch(`/api/hit?zone_id=8666&kw=${encodeURIComponent("'; DELETE FROM referrer_event; --")}`);
    expect(hit.status).toBe(204);
    expect(await logRows(admin, { zoneId: '8666' })).toHaveLength(2);
    const [report] = await reportRows(admin, { zoneId: '8666', parentDomain: 'evil.example.com' });
    expect(report.referrer).toBe(referrer);
  });

  test('ingest is off without an ingest key, except for an admin session', async () => {
    const closed = await startReferrerServer({ ingestKey: undefined });
    try {
      const anyKey = await postBatch(closed, [{ zone_id: '1' }]);
      expect(anyKey.status).toBe(401);
      const a = await closed.admin();
      expect((await postBatch(closed, [{ zone_id: '1' }], { authorization: `Bearer ${a.token}` })).status).toBe(200);
      await expect(closed.anon.referrers.ingest(undefined, { rawBody: '{"zone_id":"1"}' })).rejects.toBeInstanceOf(ApiError);
    } finally {
      await closed.close();
    }
  });
});
