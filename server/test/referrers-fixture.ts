// Shared set-up for the referrer tests: an ingest key, NDJSON posting, zone owners in
// zone_report, and instants relative to today (UTC) so retention never touches fixtures.
import type { Api, ReferrerFilter } from '@adops/core';
import { startTestServer, type TestServer } from './helpers.js';

export const INGEST_KEY = 'test-ingest-key-0123456789';

export function startReferrerServer(overrides: Parameters<typeof startTestServer>[0] = {}, keepDataDir?: string) {
  return startTestServer({ ingestKey: INGEST_KEY, ...overrides }, keepDataDir);
}

/** Posts an NDJSON batch (objects are serialised one per line; a string is sent as is). */
export function postBatch(t: TestServer, body: string | object[], headers: Record<string, string> = { 'x-ingest-key': INGEST_KEY }) {
  const text = typeof body === 'string' ? body : `${body.map((e) => JSON.stringify(e)).join('\n')}\n`;
  return t.fetch('/api/ingest/referrers', { method: 'POST', headers: { 'content-type': 'application/x-ndjson', ...headers }, body: text });
}

/** Start of today (UTC) minus `days`, plus hh:mm, as ISO. */
export function daysAgo(days: number, hh = 0, mm = 0): string {
  const d = new Date();
  d.setUTCHours(0, 0, 0, 0);
  return new Date(d.getTime() - days * 86_400_000 + (hh * 60 + mm) * 60_000).toISOString();
}

/** Imports zone-report rows naming each zone's publisher/advertiser and reloads the zone cache. */
export async function setZoneOwners(
  t: TestServer,
  rows: Array<{ date: string; zone_id: string; publisher: string; advertiser: string; impressions?: number }>,
): Promise<void> {
  const items = rows.map((r, i) => ({
    line: i + 1,
    values: { ...r, geo: 'ES', source: 'web', domain: 'example.com', impressions: r.impressions ?? 100, clicks: 0, revenue: 1, p_revenue: 0.7 },
  }));
  const result = await t.app.services.ingest.ingest(items);
  if (result.rejected_total > 0) throw new Error(`zone owners refused: ${JSON.stringify(result.rejected)}`);
  await t.app.services.referrers.refreshZones();
}

/** Raw events stored, straight from the warehouse. */
export const storedCount = (t: TestServer) => t.app.services.referrers.warehouse.countEvents();

type ReferrerApi = Pick<Api, 'referrers'>;
/** The whole raw log of a filter (one page of up to 500 events, newest first). */
export const logRows = async (api: ReferrerApi, filter: ReferrerFilter) => (await api.referrers.logs({ ...filter, page_size: 500 })).rows;
/** The whole distinct-referrer report of a filter (one page of up to 500 rows). */
export const reportRows = async (api: ReferrerApi, filter: ReferrerFilter) => (await api.referrers.report({ ...filter, page_size: 500 })).rows;
