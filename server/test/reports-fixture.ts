// A small zone-report fixture whose report numbers are worked out by hand in the tests.
//
//  row | date       | advertiser | publisher | zone  | geo | source | domain | impr | m.impr | clicks | revenue | given            | tq
//  R1  | 2026-03-01 | AdNova     | PubA      | Z-100 | ES  | search | a.com  | 1000 |  800   |   20   |   10    | —  (PubA share 0.6) | 0.8
//  R2  | 2026-03-01 | BidSphere  | PubB      | Z-200 | MX  | social | b.com  | 2000 |  —     |   10   |    4    | —  (default 0.7)    | —
//  R3  | 2026-03-02 | AdNova     | PubA      | Z-101 | ES  | social | a.com  |    0 |  0     |    0   |    0    | —  (zero impressions)| 0.5
//  R4  | 2026-03-02 | Clickora   | PubC      | Z-300 | US  | search | c.com  |  500 |  500   |    5   |    2    | p_revenue 3 (loss)  | 0.2
//  R5  | 2026-03-03 | AdNova     | PubB      | Z-201 | MX  | search | b.com  | 3000 | 1500   |   45   |    6    | rate_applied 0.5    | 0.9
//  R6  | 2026-02-28 | AdNova     | PubA      | Z-100 | ES  | search | a.com  | 9999 | 9999   |   99   |   99    | —  (outside 03-01..03-03) | 0.1
//
// Derived at import: R1 p_revenue 10×0.6 = 6, margin 4; R2 p 4×0.7 = 2.8, margin 1.2;
// R3 p 0, margin 0; R4 margin 2 − 3 = −1 (rate 3/2 = 1.5); R5 p 6×0.5 = 3, margin 3;
// R6 p 99×0.6 = 59.4, margin 39.6.
import { afterAll, beforeAll, expect } from 'vitest';
import type { Api } from '@adops/core';
import { startTestServer, type TestServer } from './helpers.js';

export const FIXTURE_CSV = [
  'date,advertiser,publisher,zone_id,geo,source,domain,impressions,monetized_impressions,clicks,revenue,rate_applied,p_revenue,margin,tq',
  '2026-03-01,AdNova,PubA,Z-100,ES,search,a.com,1000,800,20,10,,,,0.8',
  '2026-03-01,BidSphere,PubB,Z-200,MX,social,b.com,2000,,10,4,,,,',
  '2026-03-02,AdNova,PubA,Z-101,ES,social,a.com,0,0,0,0,,,,0.5',
  '2026-03-02,Clickora,PubC,Z-300,US,search,c.com,500,500,5,2,,3,,0.2',
  '2026-03-03,AdNova,PubB,Z-201,MX,search,b.com,3000,1500,45,6,0.5,,,0.9',
  '2026-02-28,AdNova,PubA,Z-100,ES,search,a.com,9999,9999,99,99,,,,0.1',
].join('\n');

export const RANGE = { start_date: '2026-03-01', end_date: '2026-03-03' };

/** POSTs a body to the zone-report ingest with the given token (admin JWT or ingest key). */
export function postZoneReport(s: TestServer, token: string, body: BodyInit, contentType = 'text/csv', extra: Record<string, string> = {}) {
  return s.fetch('/api/ingest/zone-report', {
    method: 'POST',
    headers: { 'content-type': contentType, authorization: `Bearer ${token}`, ...extra },
    body,
  });
}

/** GET with a bearer token; answers status and parsed JSON (or text). */
export async function getJson(s: TestServer, token: string | null, path: string, query: Record<string, string | string[]> = {}) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) for (const item of [v].flat()) q.append(k, item);
  const qs = q.toString();
  const res = await s.fetch(qs ? `${path}?${qs}` : path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: a JSON answer of varying shape, asserted field by field below
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* text */
  }
  return { status: res.status, body, type: res.headers.get('content-type') ?? '', headers: res.headers };
}

/**
 * A test server holding the fixture (PubA's share 0.6, FIXTURE_CSV imported whole), started
 * before the file's tests and closed after them; its server and admin once started.
 */
export function fixtureServer(): { readonly server: TestServer; readonly admin: Api & { token: string } } {
  const state = {} as { server: TestServer; admin: Api & { token: string } };
  beforeAll(async () => {
    state.server = await startTestServer();
    state.admin = await state.server.admin();
    await state.admin.publishers.set({ name: 'PubA', revenue_share: 0.6 });
    const res = await postZoneReport(state.server, state.admin.token, FIXTURE_CSV);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      inserted: 6,
      replaced: 0,
      rejected: [],
      rejected_total: 0,
      duplicates: [],
      duplicates_total: 0,
      days: ['2026-02-28', '2026-03-01', '2026-03-02', '2026-03-03'].map((date) => ({ date, report: 'final' })),
    });
  });
  afterAll(() => state.server?.close());
  return state;
}
