// The beacon's lean path builds its head once per scheme and copies it per hit, and normalises a
// plain dotted-quad address without a regular expression: the answers must stay exactly as they
// were — the same headers in the same order for every kind of answer, the same addresses kept.
import http from 'node:http';
import { isIP } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { TestServer } from './helpers.js';
import { normalizeIp } from '../src/services/referrers.js';
import { startReferrerServer } from './referrers-fixture.js';

let t: TestServer;
beforeAll(async () => {
  t = await startReferrerServer({ trustProxy: 1, beaconRatePerSecond: 1, beaconBurst: 1 });
});
afterAll(() => t.close());

/** The answer's header names in the order sent, and its status. */
function rawHead(path: string, headers: Record<string, string> = {}): Promise<{ status: number; names: string[]; values: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${t.url}${path}`, { headers, agent: false }, (res) => {
        res.resume();
        const names: string[] = [];
        const values: Record<string, string> = {};
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          names.push(res.rawHeaders[i]);
          values[res.rawHeaders[i]] = res.rawHeaders[i + 1];
        }
        res.on('end', () => resolve({ status: res.statusCode ?? 0, names, values }));
      })
      .on('error', reject);
  });
}

const SECURITY = ['X-Content-Type-Options', 'X-Frame-Options', 'Referrer-Policy', 'Cross-Origin-Opener-Policy', 'Content-Security-Policy'];
const TRAILER = ['Date', 'Connection'];

test('a hit, a pixel, a refusal and a 429 carry the same headers in the same order as before, each with its own request id', async () => {
  const hit = await rawHead('/api/hit?zone_id=head-1', { 'x-forwarded-for': '203.0.113.1' });
  expect(hit.status).toBe(204);
  expect(hit.names).toEqual(['X-Request-Id', 'Vary', ...SECURITY, 'Cache-Control', 'Access-Control-Allow-Origin', ...TRAILER]);
  expect(hit.values['Cache-Control']).toBe('no-store');

  const pixel = await rawHead('/api/hit?zone_id=head-1&format=gif', { 'x-forwarded-for': '203.0.113.2' });
  expect(pixel.status).toBe(200);
  expect(pixel.names).toEqual([
    'X-Request-Id',
    'Vary',
    ...SECURITY,
    'Cache-Control',
    'Access-Control-Allow-Origin',
    'Content-Type',
    'Content-Length',
    ...TRAILER,
  ]);
  expect(pixel.values['Content-Type']).toBe('image/gif');
  expect(pixel.values['X-Request-Id']).not.toBe(hit.values['X-Request-Id']);

  const given = await rawHead('/api/hit?zone_id=head-1', { 'x-request-id': 'client-chosen-id-1', 'x-forwarded-for': '203.0.113.3' });
  expect(given.values['X-Request-Id']).toBe('client-chosen-id-1');

  // The first hit's address again: its bucket (burst 1) is spent.
  const limited = await rawHead('/api/hit?zone_id=head-1', { 'x-forwarded-for': '203.0.113.1' });
  expect(limited.status).toBe(429);
  expect(limited.names).toEqual(['X-Request-Id', 'Vary', ...SECURITY, 'Content-Type', 'Retry-After', 'Content-Length', ...TRAILER]);
});

test('a plain dotted quad is kept as written, and every other address answered as isIP decides, as before', () => {
  // The normalisation before the fast path, kept here as the reference.
  const reference = (ip: string | null | undefined) => {
    if (!ip) return null;
    const s = ip.trim();
    const v = s.includes(':') ? s.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1') : s;
    return isIP(v) ? v : null;
  };
  let seed = 29;
  const rnd = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  const octet = () => [String(rnd(256)), `0${rnd(10)}`, String(rnd(400)), '', ' 1', '1 '][rnd(12) < 9 ? 0 : rnd(6)];
  const samples = ['', ' 10.0.0.1 ', '::ffff:10.0.0.1', '::1', '1.2.3', '1.2.3.4.5', '01.2.3.4', '255.255.255.255', '256.1.1.1', '1..2.3'];
  for (let i = 0; i < 5000; i++) samples.push(Array.from({ length: rnd(10) < 8 ? 4 : rnd(6) }, octet).join('.'));
  for (const ip of samples) expect(normalizeIp(ip), ip).toBe(reference(ip));
});
