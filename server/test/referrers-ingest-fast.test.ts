// The batch ingest's hot path answers exactly what the slower, general code answers: an NDJSON
// line checked without zod (parseIngestLine) parses to what IngestReferrerEvent parses and is
// refused with zod's own first issue; a referrer's host read without URL parsing is URL's hostname.
import { describe, expect, test } from 'vitest';
import { IngestReferrerEvent } from '@adops/core';
import { zodDetail } from '../src/errors.js';
import { parseIngestLine } from '../src/services/ingest-line.js';
import { EventError, normalizeEvent } from '../src/services/referrers.js';

/** The zod answer, normalised for comparison (absent keys and undefined alike). */
const viaZod = (v: unknown) => {
  const r = IngestReferrerEvent.safeParse(v);
  return r.success ? { ok: JSON.parse(JSON.stringify(r.data)) } : { error: zodDetail(r.error) };
};
/** The fast answer, read as ingest reads it: IngestReferrerEvent's keys only (a line's own object may hold others). */
const viaFast = (v: Record<string, unknown>) => {
  const r = parseIngestLine(v);
  if (!r.success) return { error: zodDetail(r.error) };
  const data = r.data as Record<string, unknown>;
  return { ok: JSON.parse(JSON.stringify(Object.fromEntries(FIELDS.map((k) => [k, data[k]])))) };
};

const VALUES: unknown[] = [
  undefined,
  null,
  '',
  ' ',
  'x',
  'ES',
  'https://www.example.com/a',
  '2026-03-02T10:00:00Z',
  '2026-03-02T10:00:00.123+02:00',
  '2026-03-02',
  'no es fecha',
  '{{ad.id}}',
  'a\u0000b',
  'tab\there',
  'x'.repeat(9),
  'x'.repeat(65),
  'x'.repeat(257),
  'x'.repeat(2049),
  0,
  7,
  -1,
  1.5,
  true,
  [],
  {},
];
const FIELDS = [
  'zone_id',
  'referrer',
  'keyword',
  'parent_domain',
  'ip',
  'country',
  'seen_at',
  'user_agent',
  'event_id',
  'campaign_id',
  'adset_id',
  'ad_id',
  'placement',
];

describe('an NDJSON line checked without zod', () => {
  test('every field × a range of values: the same event, or the same first issue, as IngestReferrerEvent', () => {
    const base = { zone_id: ' z-1 ', referrer: 'https://a.example/x', user_agent: 'Mozilla/5.0' };
    let cases = 0;
    for (const field of FIELDS)
      for (const value of VALUES) {
        const line: Record<string, unknown> = { ...base };
        if (value === undefined) delete line[field];
        else line[field] = value;
        expect(viaFast(line), `${field} = ${JSON.stringify(value)}`).toEqual(viaZod(line));
        cases++;
      }
    expect(cases).toBe(FIELDS.length * VALUES.length);
  });

  test('a valid line with keys of its own: the same event', () => {
    const line = {
      zone_id: 'z-2',
      referrer: 'https://a.example/x',
      ip: '10.0.0.1',
      publisher: 'Otro',
      __proto__x: 1,
      seen_at: '2026-03-02T10:00:00Z',
    };
    expect(viaFast(line)).toEqual(viaZod(line));
  });

  test('random lines mixing fields: the same answer every time', () => {
    let seed = 12345;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let i = 0; i < 3000; i++) {
      const line: Record<string, unknown> = {};
      for (const field of FIELDS) {
        const value = VALUES[rand(VALUES.length)];
        if (value !== undefined && rand(3) > 0) line[field] = value;
      }
      if (rand(2) === 0) line.zone_id = `zone-${rand(50)}`;
      if (rand(5) === 0) line.unknown_field = 'ignored';
      expect(viaFast(line), JSON.stringify(line)).toEqual(viaZod(line));
    }
  });
});

describe("a referrer's host without URL parsing", () => {
  /** What the general path answers: URL's hostname, lower-cased, for http(s) URLs. */
  const viaUrl = (referrer: string): string | null => {
    if (!/^https?:\/\//i.test(referrer)) return null;
    try {
      return new URL(referrer).hostname.toLowerCase() || null;
    } catch {
      return null;
    }
  };
  const parentDomain = (referrer: string): string | null | 'refused' => {
    try {
      return normalizeEvent({ zone_id: 'z', referrer }, Date.now()).parent_domain;
    } catch (e) {
      if (e instanceof EventError) return 'refused';
      throw e;
    }
  };

  test('hosts of every kind: the same as URL', () => {
    const referrers = [
      'https://www.example.com/a?b=c#d',
      'HTTP://WWW.EXAMPLE.COM',
      'http://example.com?x',
      'http://example.com#x',
      'https://localhost/',
      'http://a-b.c-d.example/',
      'http://-a-.example/',
      'http://a..b.example/',
      'http://example.com./',
      'http://example.com:8080/',
      'http://example.com:99999/',
      'http://user:pw@example.com/',
      'http://a.com@b.com/',
      'http://a.com/@b.com',
      'http://a.com\\evil.com/',
      'http:///a.com/',
      'http://1.2.3.4/',
      'http://1.2.3.256/',
      'http://example.123/',
      'http://example.0x1f/',
      'http://0x7f.1/',
      'http://[::1]/',
      'http://xn--nxasmq6b.com/',
      'http://xn--invalid-.com/',
      'http://XN--NXASMQ6B.example/',
      'http://bücher.example/',
      'http://exa\tmple.com/',
      'http://example.com /',
      'http://ex%61mple.com/',
      'http://under_score.example/',
      'https://www.diario7.example.com/noticias/articulo-1234',
      'http://',
      'https://a',
      'https://9a.example',
      'https://a.9b',
      'https://a.b9',
      'ftp://example.com/',
      'example.com',
    ];
    for (const r of referrers) {
      const got = parentDomain(r);
      expect(got, r).toBe(viaUrl(r));
    }
  });
});
