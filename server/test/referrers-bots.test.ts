// Bot and spam traffic apart (issue 11): beacon hits and batch events from known bots (user
// agent), with a referrer on the spam list, from one IP over its rate, or to zones no report
// names are stored flagged (is_bot, reason), left out of the Referrers report, the log and the
// live stream unless include_bots, and counted in the IVT table; admins change the spam list;
// the beacon answers 429 beyond an IP's token bucket.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EventSource } from 'eventsource';
import { buildRequest, contract, type ReferrerLogRecord, type ReferrerStreamQuery } from '@adops/core';
import { failure, type TestServer } from './helpers.js';
import { waitFor } from './wait.js';
import { INGEST_KEY, daysAgo, logRows, postBatch, reportRows, setZoneOwners, startReferrerServer, storedCount } from './referrers-fixture.js';

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const today = new Date().toISOString().slice(0, 10);
/**
 * Yesterday and today, as of the call: the queries' range (their default is today, and a suite run
 * across midnight, or a test posting events two minutes back just after it, would lose yesterday's).
 */
const recent = () => ({ startDate: daysAgo(1).slice(0, 10), endDate: daysAgo(0).slice(0, 10) });

let t: TestServer;
let api: Awaited<ReturnType<TestServer['admin']>>;

beforeAll(async () => {
  t = await startReferrerServer({ botFilter: true, botIpRatePerMinute: 3, trustProxy: 1 });
  api = await t.admin();
  await setZoneOwners(t, [
    { date: today, zone_id: 'b-100', publisher: 'Pub Bots', advertiser: 'Adv Bots' },
    { date: today, zone_id: 'b-200', publisher: 'Pub Bots', advertiser: 'Adv Bots' },
    { date: today, zone_id: 'b-300', publisher: 'Pub Clean', advertiser: 'Adv Bots' },
  ]);
});
afterAll(() => t.close());

let visitor = 0;
/** A beacon hit from a browser (unless `ua` says otherwise) at an address of its own (below the IP rate). */
const hit = (query: string, ua = BROWSER) =>
  t.fetch(`/api/hit?${query}`, { headers: { 'user-agent': ua, 'x-forwarded-for': `192.0.2.${++visitor % 250}` } });

/** The whole log of a zone: by default (humans) and with include_bots. */
async function logOf(zoneId: string) {
  return { human: await logRows(api, { ...recent(), zoneId }), all: await logRows(api, { ...recent(), zoneId, include_bots: true }) };
}

describe('classification at ingest', () => {
  test('a known crawler on the beacon is stored flagged user_agent, left out of the log and the report unless include_bots', async () => {
    expect((await hit('zone_id=b-100&ref=https%3A%2F%2Fnews.example.com%2Fcrawled', GOOGLEBOT)).status).toBe(204);
    expect((await hit('zone_id=b-100&ref=https%3A%2F%2Fnews.example.com%2Fread')).status).toBe(204);
    const log = await logOf('b-100');
    expect(log.human.map((r) => r.referrer)).toEqual(['https://news.example.com/read']);
    expect(log.human[0]).toMatchObject({ is_bot: false, reason: null });
    expect(log.all.find((r) => r.referrer === 'https://news.example.com/crawled')).toMatchObject({ is_bot: true, reason: 'user_agent' });
    expect((await reportRows(api, { ...recent(), zoneId: 'b-100' })).map((r) => r.referrer)).toEqual(['https://news.example.com/read']);
    expect((await reportRows(api, { ...recent(), zoneId: 'b-100', include_bots: true })).map((r) => r.referrer).sort()).toEqual([
      'https://news.example.com/crawled',
      'https://news.example.com/read',
    ]);
  });

  test('a batch line with a bot user_agent is flagged; one from a browser is not', async () => {
    const res = await postBatch(t, [
      { zone_id: 'b-200', referrer: 'https://a.example.com/curl', user_agent: 'curl/8.5.0' },
      { zone_id: 'b-200', referrer: 'https://a.example.com/person', user_agent: BROWSER },
      { zone_id: 'b-200', referrer: 'https://a.example.com/none' },
    ]);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ accepted: 3 });
    const log = await logOf('b-200');
    expect(log.human.map((r) => r.referrer).sort()).toEqual(['https://a.example.com/none', 'https://a.example.com/person']);
    expect(log.all.find((r) => r.referrer?.endsWith('/curl'))).toMatchObject({ is_bot: true, reason: 'user_agent' });
  });

  test('a referrer or source on the shipped spam list (or a subdomain of one) is flagged spam_referrer', async () => {
    await hit('zone_id=b-100&ref=https%3A%2F%2Fsemalt.com%2F');
    await hit('zone_id=b-100&ref=https%3A%2F%2Fwww.buttons-for-website.com%2Fpage');
    await hit('zone_id=b-100&src=semalt.com&ref=https%3A%2F%2Fnot-spam.example.com%2F');
    await hit('zone_id=b-100&ref=https%3A%2F%2Fsemalt.com.example.org%2F'); // only ends like one: not spam
    const log = await logOf('b-100');
    const spam = log.all.filter((r) => r.reason === 'spam_referrer').map((r) => r.referrer);
    expect(spam.sort()).toEqual(['https://not-spam.example.com/', 'https://semalt.com/', 'https://www.buttons-for-website.com/page']);
    expect(log.human.map((r) => r.referrer)).toContain('https://semalt.com.example.org/');
    expect(log.human.some((r) => r.reason !== null)).toBe(false);
  });

  test('hits of one IP beyond ADOPS_BOT_IP_RATE in a minute are flagged ip_rate; other IPs are not', async () => {
    const at = new Date(Date.now() - 120_000);
    at.setUTCSeconds(5, 0);
    const line = (i: number, ip: string) => ({
      zone_id: 'b-300',
      referrer: `https://rate.example.com/${ip}/${i}`,
      ip,
      seen_at: new Date(at.getTime() + i * 1000).toISOString(),
    });
    const res = await postBatch(t, [...Array.from({ length: 5 }, (_, i) => line(i, '203.0.113.50')), line(0, '203.0.113.51')]);
    expect(res.status).toBe(200);
    const log = await logOf('b-300');
    const flagged = log.all.filter((r) => r.reason === 'ip_rate');
    expect(flagged.map((r) => r.referrer).sort()).toEqual(['https://rate.example.com/203.0.113.50/3', 'https://rate.example.com/203.0.113.50/4']);
    expect(log.human.filter((r) => r.ip === '203.0.113.50')).toHaveLength(3);
    expect(log.human.filter((r) => r.ip === '203.0.113.51')).toHaveLength(1);
  });

  test('a hit for a zone no zone report names is flagged unknown_zone; it counts once a report names the zone', async () => {
    await hit('zone_id=b-999&ref=https%3A%2F%2Fnowhere.example.com%2F');
    expect((await logOf('b-999')).human).toEqual([]);
    expect((await logOf('b-999')).all[0]).toMatchObject({ is_bot: true, reason: 'unknown_zone' });
    await setZoneOwners(t, [{ date: today, zone_id: 'b-999', publisher: 'Pub Late', advertiser: 'Adv Bots' }]);
    await hit('zone_id=b-999&ref=https%3A%2F%2Fnamed.example.com%2F');
    expect((await logOf('b-999')).human.map((r) => r.referrer)).toEqual(['https://named.example.com/']);
  });

  test('with ADOPS_BOT_FILTER=0 nothing is classified', async () => {
    const off = await startReferrerServer({ botFilter: false });
    try {
      const admin = await off.admin();
      await off.fetch('/api/hit?zone_id=z-off&ref=https%3A%2F%2Fsemalt.com%2F', { headers: { 'user-agent': GOOGLEBOT } });
      expect(await logRows(admin, { zoneId: 'z-off' })).toEqual([expect.objectContaining({ is_bot: false, reason: null })]);
    } finally {
      await off.close();
    }
  });
});

describe('include_bots', () => {
  test('is refused with 400 in Spanish when it is not a boolean', async () => {
    for (const call of [
      t.fetch('/api/referrers/', {
        method: 'POST',
        headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ include_bots: 'sí' }),
      }),
      t.fetch(`/api/referrers_logs/stream?include_bots=maybe&access_token=${api.token}`),
    ]) {
      const res = await call;
      expect(res.status).toBe(400);
      expect((await res.json()).detail).toMatch(/^Incluir bots: debe ser sí o no \(true o false\)$/);
    }
  });

  test('the live stream leaves flagged events out unless include_bots=true', async () => {
    const open = (q: ReferrerStreamQuery) => {
      const es = new EventSource(buildRequest(contract.referrers.stream, { access_token: api.token, ...q }, t.url).url);
      const received: ReferrerLogRecord[] = [];
      es.addEventListener('message', (m) => received.push(JSON.parse(m.data) as ReferrerLogRecord));
      const opened = new Promise<void>((resolve) => es.addEventListener('open', () => resolve(), { once: true }));
      return { es, received, opened };
    };
    const human = open({ zoneId: 'b-200' });
    const all = open({ zoneId: 'b-200', include_bots: true });
    await Promise.all([human.opened, all.opened]);
    try {
      await hit('zone_id=b-200&ref=https%3A%2F%2Flive.example.com%2Fbot', GOOGLEBOT);
      await hit('zone_id=b-200&ref=https%3A%2F%2Flive.example.com%2Fperson');
      // A later person's visit: in order on both streams, after the bot's would have been.
      await hit('zone_id=b-200&ref=https%3A%2F%2Flive.example.com%2Flater');
      await waitFor(() => all.received.length >= 3 && human.received.length >= 2, 'the later visit');
      expect(human.received.map((r) => r.referrer)).toEqual(['https://live.example.com/person', 'https://live.example.com/later']);
      expect(all.received.map((r) => [r.referrer, r.reason])).toEqual([
        ['https://live.example.com/bot', 'user_agent'],
        ['https://live.example.com/person', null],
        ['https://live.example.com/later', null],
      ]);
    } finally {
      human.es.close();
      all.es.close();
    }
  });
});

describe('the IVT table (POST /api/referrers/ivt)', () => {
  test('gives each zone and each publisher its hits, flagged hits and IVT rate, flagged ones first', async () => {
    const { rows, totals } = await api.referrers.ivt({ ...recent(), by: 'zone', zoneId: 'b-', page_size: 500 });
    const byZone = Object.fromEntries(rows.map((r) => [r.zone_id, r]));
    const logs = await logRows(api, { ...recent(), zoneId: 'b-', include_bots: true });
    for (const zone of ['b-100', 'b-200', 'b-300']) {
      const events = logs.filter((r) => r.zone_id === zone);
      const bots = events.filter((r) => r.is_bot).length;
      expect(byZone[zone], zone).toMatchObject({ hits: events.length, bot_hits: bots, ivt_rate: Math.round((bots / events.length) * 1e6) / 1e4 });
    }
    expect(byZone['b-100'].publisher).toBe('Pub Bots');
    expect(rows.map((r) => r.bot_hits)).toEqual([...rows.map((r) => r.bot_hits)].sort((a, b) => b - a));
    expect(totals.hits).toBe(logs.length);
    expect(totals.bot_hits).toBe(logs.filter((r) => r.is_bot).length);

    const pubs = await api.referrers.ivt({ ...recent(), by: 'publisher', zoneId: 'b-', sort: 'ivt_rate:asc' });
    const pub = pubs.rows.find((r) => r.publisher === 'Pub Bots')!;
    expect(pub.zone_id).toBeNull();
    expect(pub.hits).toBe(byZone['b-100'].hits + byZone['b-200'].hits);
    expect(pubs.rows.map((r) => r.ivt_rate)).toEqual([...pubs.rows.map((r) => r.ivt_rate)].sort((a, b) => (a ?? 0) - (b ?? 0)));
  });

  test('flags outlive retention: rolled-up days keep bots apart in the report and count in the IVT table', async () => {
    const old = daysAgo(100, 10);
    const res = await postBatch(t, [
      { zone_id: 'b-100', referrer: 'https://old.example.com/bot', user_agent: GOOGLEBOT, seen_at: old },
      { zone_id: 'b-100', referrer: 'https://old.example.com/person', user_agent: BROWSER, seen_at: old },
    ]);
    expect(res.status).toBe(200);
    const retention = await t.app.services.referrers.runRetention();
    expect(retention.deleted).toBeGreaterThanOrEqual(2);
    const range = { zoneId: 'b-100', startDate: daysAgo(101), endDate: daysAgo(99) };
    expect((await reportRows(api, range)).map((r) => r.referrer)).toEqual(['https://old.example.com/person']);
    expect(await reportRows(api, { ...range, include_bots: true })).toHaveLength(2);
    expect((await api.referrers.ivt({ ...range, by: 'zone' })).rows).toEqual([
      { zone_id: 'b-100', publisher: 'Pub Bots', hits: 2, bot_hits: 1, ivt_rate: 50 },
    ]);
  });

  test('exports every row as CSV with the rate at its shown decimals', async () => {
    const res = await t.fetch('/api/referrers/ivt', {
      method: 'POST',
      headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ by: 'publisher', zoneId: 'b-', format: 'csv' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/ivt-publisher-/);
    const text = await res.text();
    expect(text.replace(/^\uFEFF/, '').split(/\r?\n/)[0]).toBe('publisher,hits,bot_hits,ivt_rate');
    // Each rate is bot hits ÷ hits as a percentage, at most two decimals (as on screen).
    const rows = text
      .trim()
      .split(/\r?\n/)
      .slice(1)
      .map((l) => l.split(','));
    expect(rows.map((r) => r[0])).toContain('Pub Bots');
    for (const [, hits, bots, rate] of rows) {
      expect(rate).toMatch(/^\d+(\.\d{1,2})?$/);
      expect(Number(rate)).toBe(Math.round((Number(bots) / Number(hits)) * 10_000) / 100);
    }
    expect(
      rows.some(([, , , rate]) => rate.includes('.')),
      text,
    ).toBe(true);
  });

  test('refuses a bad grouping or sort with 400 in Spanish', async () => {
    expect((await failure(api.referrers.ivt({ by: 'everything' as 'zone' }))).detail).toMatch(/^Agrupar por: debe ser zone o publisher$/);
    expect((await failure(api.referrers.ivt({ sort: 'ip:asc' }))).detail).toMatch(/columna de orden no válida/);
  });
});

describe('the referrer-spam list (admin)', () => {
  test('shows the shipped list; an added domain is flagged from then on, a removed shipped one no more; the change is audited', async () => {
    const list = await api.referrers.spamList();
    expect(list.shipped).toBeGreaterThan(2000);
    expect(list.source).toMatch(/Matomo/);
    const changed = await api.referrers.updateSpamList({ add: ['Spam-Nuevo.example.com'], remove: ['semalt.com'] });
    expect(changed).toMatchObject({ added: ['spam-nuevo.example.com'], removed: ['semalt.com'], total: list.total });
    await hit('zone_id=b-300&ref=https%3A%2F%2Fwww.spam-nuevo.example.com%2Fx');
    await hit('zone_id=b-300&ref=https%3A%2F%2Fsemalt.com%2Fnow-allowed');
    const log = await logOf('b-300');
    expect(log.all.find((r) => r.referrer === 'https://www.spam-nuevo.example.com/x')).toMatchObject({ reason: 'spam_referrer' });
    expect(log.human.map((r) => r.referrer)).toContain('https://semalt.com/now-allowed');
    // Taking them back restores the shipped list.
    expect(await api.referrers.updateSpamList({ add: ['semalt.com'], remove: ['spam-nuevo.example.com'] })).toMatchObject({ added: [], removed: [] });
    const audit = await t.fetch('/api/admin/audit?action=referrer_spam.update', { headers: { authorization: `Bearer ${api.token}` } });
    expect(audit.status).toBe(200);
    const entries = (await audit.json()).rows as Array<{ action: string }>;
    expect(entries.filter((e) => e.action === 'referrer_spam.update')).toHaveLength(2);
  });

  test('is for admins only (403 for staff, 401 without a session)', async () => {
    await api.admin.createUser({ first_name: 'Ana', email: 'ana-bots@test.local', password: 'ana-pass-1234' });
    const ana = await t.as('ana-bots@test.local', 'ana-pass-1234');
    expect((await failure(ana.referrers.spamList())).status).toBe(403);
    expect((await failure(ana.referrers.updateSpamList({ add: ['x.example.com'] }))).status).toBe(403);
    expect((await failure(t.anon.referrers.spamList())).status).toBe(401);
  });

  test.each([
    ['a missing body', undefined, /add|remove|dominio/],
    ['malformed JSON', '{"add": [', /JSON mal formado/],
    ['no domain at all', { add: [], remove: [] }, /^Indica algún dominio que añadir o quitar$/],
    ['a domain that is not a host', { add: ["' OR 1=1 --"] }, /^El dominio «' OR 1=1 --» no es un nombre de host como spam\.example\.com$/],
    ['a path', { add: ['../../etc/passwd'] }, /^El dominio «\.\.\/\.\.\/etc\/passwd» no es un nombre de host como spam\.example\.com$/],
    ['a NUL byte', { add: ['a\u0000b.example.com'] }, 'El dominio «a\u0000b.example.com» no es un nombre de host como spam.example.com'],
    ['a domain that is an object', { remove: [{ $gt: '' }] }, /^Dominios que quitar \(1\.º\): /],
    ['an overlong domain', { add: [`${'a'.repeat(250)}.com`] }, new RegExp(`^El dominio «${'a'.repeat(40)}…» supera 253 caracteres$`)],
    ['too many domains', { add: Array.from({ length: 1001 }, (_, i) => `d${i}.example.com`) }, /como máximo 1000 dominios/],
    ['an unknown field', { add: ['ok.example.com'], is_admin: true }, /is_admin|no reconocid|Unrecognized/i],
    ['the same domain added and removed', { add: ['dup.example.com'], remove: ['dup.example.com'] }, /a la vez/],
  ])('refuses %s with 400 in Spanish and changes nothing', async (_label, body, detail) => {
    const before = await t.storedEntities();
    const listBefore = await api.referrers.spamList();
    const res = await t.fetch('/api/admin/referrer-spam', {
      method: 'POST',
      headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).detail).toMatch(detail);
    expect(await api.referrers.spamList()).toEqual(listBefore);
    expect(await t.storedEntities()).toBe(before);
  });

  test('refuses an oversized body with 413', async () => {
    const res = await t.fetch('/api/admin/referrer-spam', {
      method: 'POST',
      headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ add: ['x'.repeat(11 * 1024 * 1024)] }),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).detail).toBeTruthy();
  });
});

describe('the beacon limit', () => {
  test('answers 429 with Retry-After beyond an IP token bucket, stores nothing for it, and other IPs go on', async () => {
    const s = await startReferrerServer({ botFilter: true, beaconRatePerSecond: 1, beaconBurst: 3, trustProxy: 1 });
    try {
      const from = (ip: string) => ({ 'x-forwarded-for': ip, 'user-agent': BROWSER });
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await s.fetch(`/api/hit?zone_id=lim&ref=https%3A%2F%2Fa.example.com%2F${i}`, { headers: from('198.51.100.7') })).status);
      expect(statuses).toEqual([204, 204, 204, 429, 429]);
      const limited = await s.fetch('/api/hit?zone_id=lim', { headers: from('198.51.100.7') });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await limited.json()).detail).toMatch(/Demasiadas visitas desde esta dirección/);
      expect(await storedCount(s)).toBe(3);
      expect((await s.fetch('/api/hit?zone_id=lim', { headers: from('198.51.100.8') })).status).toBe(204);
      // The refill at its rate is the bucket's own test (token-bucket.test.ts, on its clock).
    } finally {
      await s.close();
    }
  });

  test('the ingest key batch route is not limited by the beacon bucket', async () => {
    const s = await startReferrerServer({ botFilter: true, beaconRatePerSecond: 1, beaconBurst: 1 });
    try {
      for (let i = 0; i < 3; i++) expect((await postBatch(s, [{ zone_id: 'lim' }], { 'x-ingest-key': INGEST_KEY })).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
