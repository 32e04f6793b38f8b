// Shared set-up for the referrer tests: an ingest key, NDJSON posting, zone owners in
// zone_report, and instants relative to today (UTC) so retention never touches fixtures.
import { ensureZoneReportSchema } from '../src/warehouse/zone-report/schema.js';
import { startTestServer, type TestServer } from './helpers.js';

export const INGEST_KEY = 'test-ingest-key-0123456789';

export function startReferrerServer(overrides: Parameters<typeof startTestServer>[0] = {}, keepDataDir?: string) {
  return startTestServer({ ingestKey: INGEST_KEY, ...overrides }, keepDataDir);
}

/** Posts an NDJSON batch (objects are serialised one per line; a string is sent as is). */
export function postBatch(t: TestServer, body: string | object[], headers: Record<string, string> = { 'x-ingest-key': INGEST_KEY }) {
  const text = typeof body === 'string' ? body : body.map((e) => JSON.stringify(e)).join('\n') + '\n';
  return t.fetch('/api/ingest/referrers', { method: 'POST', headers: { 'content-type': 'application/x-ndjson', ...headers }, body: text });
}

/** Start of today (UTC) minus `days`, plus hh:mm, as ISO. */
export function daysAgo(days: number, hh = 0, mm = 0): string {
  const d = new Date();
  d.setUTCHours(0, 0, 0, 0);
  return new Date(d.getTime() - days * 86_400_000 + (hh * 60 + mm) * 60_000).toISOString();
}

/** Stores zone_report rows naming each zone's publisher/advertiser and reloads the zone cache. */
export async function setZoneOwners(
  t: TestServer,
  rows: Array<{ date: string; zone_id: string; publisher: string; advertiser: string; impressions?: number }>,
): Promise<void> {
  const db = t.app.services.db;
  await ensureZoneReportSchema(db);
  for (const r of rows)
    await db.exec(
      `INSERT INTO zone_report (date, advertiser, publisher, zone_id, geo, source, domain, impressions, clicks, revenue, p_revenue, margin)
       VALUES (?::DATE, ?, ?, ?, 'ES', 'web', 'example.com', ?, 0, 1, 0.7, 0.3)`,
      [r.date, r.advertiser, r.publisher, r.zone_id, r.impressions ?? 100],
    );
  await t.app.services.referrers.refreshZones();
}

/** Raw events stored, straight from the warehouse. */
export const storedCount = (t: TestServer) => t.app.services.referrers.warehouse.countEvents();
