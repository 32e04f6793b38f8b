// Retention: raw events past ADOPS_EVENT_RETENTION_DAYS are deleted, yet the Referrers report
// keeps listing them from the daily rollup, and event ids never repeat.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runReferrerRetention } from '../src/services/referrers.js';
import type { TestServer } from './helpers.js';
import { daysAgo, logRows, postBatch, reportRows, setZoneOwners, startReferrerServer, storedCount } from './referrers-fixture.js';

let t: TestServer;
let api: Awaited<ReturnType<TestServer['admin']>>;
const ymd = (iso: string) => iso.slice(0, 10);

beforeAll(async () => {
  t = await startReferrerServer({ eventRetentionDays: 30 });
  api = await t.admin();
  await setZoneOwners(t, [{ date: ymd(daysAgo(60)), zone_id: '6001', publisher: 'Pub R', advertiser: 'Adv R' }]);
  const res = await postBatch(t, [
    // 40 days ago: past retention
    { zone_id: '6001', referrer: 'https://old.example.com/a', seen_at: daysAgo(40, 8), keyword: 'viejo', ip: '10.1.1.1' },
    { zone_id: '6001', referrer: 'https://old.example.com/a', seen_at: daysAgo(40, 20) },
    { zone_id: '6001', referrer: 'https://old.example.com/b', seen_at: daysAgo(39, 9) },
    { zone_id: '6002', referrer: 'https://other.example.com/', seen_at: daysAgo(39, 10) },
    // 5 days ago: kept
    { zone_id: '6001', referrer: 'https://old.example.com/a', seen_at: daysAgo(5, 12) },
    { zone_id: '6001', referrer: 'https://new.example.com/', seen_at: daysAgo(5, 13) },
  ]);
  expect(res.status).toBe(200);
});
afterAll(() => t.close());

const RANGE = { startDate: ymd(daysAgo(45)), endDate: ymd(daysAgo(1)) };
const OLD_DAYS = { startDate: ymd(daysAgo(40)), endDate: ymd(daysAgo(39)) };

describe('retention of raw referrer events', () => {
  test('deletes raw events past the period; the report still lists them from the rollup', async () => {
    const reportBefore = await reportRows(api, RANGE);
    expect(await storedCount(t)).toBe(6);

    const result = await runReferrerRetention(t.app.services.referrers);
    expect(result.deleted).toBe(4);
    expect(await storedCount(t)).toBe(2);
    expect(await logRows(api, OLD_DAYS)).toEqual([]);
    expect((await logRows(api, RANGE)).map((e) => e.referrer)).toEqual(['https://new.example.com/', 'https://old.example.com/a']);

    // Same rows, hits, first and last seen as before retention.
    expect(await reportRows(api, RANGE)).toEqual(reportBefore);
    expect(reportBefore).toEqual([
      {
        zone_id: '6001',
        parent_domain: 'new.example.com',
        referrer: 'https://new.example.com/',
        seen_at: daysAgo(5, 13),
        first_seen: daysAgo(5, 13),
        hits: 1,
      },
      {
        zone_id: '6001',
        parent_domain: 'old.example.com',
        referrer: 'https://old.example.com/a',
        seen_at: daysAgo(5, 12),
        first_seen: daysAgo(40, 8),
        hits: 3,
      },
      {
        zone_id: '6002',
        parent_domain: 'other.example.com',
        referrer: 'https://other.example.com/',
        seen_at: daysAgo(39, 10),
        first_seen: daysAgo(39, 10),
        hits: 1,
      },
      {
        zone_id: '6001',
        parent_domain: 'old.example.com',
        referrer: 'https://old.example.com/b',
        seen_at: daysAgo(39, 9),
        first_seen: daysAgo(39, 9),
        hits: 1,
      },
    ]);
  });

  test('rolled-up days answer by whole day and keep the filters working', async () => {
    const day40 = ymd(daysAgo(40));
    expect(await reportRows(api, { startDate: day40, endDate: day40, publisher: 'Pub R' })).toEqual([
      {
        zone_id: '6001',
        parent_domain: 'old.example.com',
        referrer: 'https://old.example.com/a',
        seen_at: daysAgo(40, 20),
        first_seen: daysAgo(40, 8),
        hits: 2,
      },
    ]);
    expect(await reportRows(api, { ...OLD_DAYS, parentDomain: 'other.example.com' })).toHaveLength(1);
    expect(await reportRows(api, { ...OLD_DAYS, zoneId: '6002', publisher: 'Pub R' })).toEqual([]);
    const filters = await api.referrers.filters();
    expect(filters.parentDomains).toEqual(['new.example.com', 'old.example.com', 'other.example.com']);
  });

  test('running it again changes nothing (no double counting)', async () => {
    const before = await reportRows(api, RANGE);
    expect((await runReferrerRetention(t.app.services.referrers)).deleted).toBe(0);
    expect(await reportRows(api, RANGE)).toEqual(before);
  });

  test('late events for a rolled-up day are added to it on the next run', async () => {
    const late = await postBatch(t, [{ zone_id: '6001', referrer: 'https://old.example.com/a', seen_at: daysAgo(40, 23) }]);
    expect(late.status).toBe(200);
    await runReferrerRetention(t.app.services.referrers);
    const [row] = await reportRows(api, {
      ...OLD_DAYS,
      zoneId: '6001',
      parentDomain: 'old.example.com',
      startDate: ymd(daysAgo(40)),
      endDate: ymd(daysAgo(40)),
    });
    expect(row).toMatchObject({ hits: 3, seen_at: daysAgo(40, 23), first_seen: daysAgo(40, 8) });
  });
});

test('event ids keep growing after retention emptied the table and the server restarted', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'adops-retention-'));
  try {
    const first = await startReferrerServer({ eventRetentionDays: 1 }, dataDir);
    const res = await postBatch(first, [
      { zone_id: '1', seen_at: daysAgo(10) },
      { zone_id: '1', seen_at: daysAgo(10) },
    ]);
    const { last_id } = await res.json();
    await runReferrerRetention(first.app.services.referrers);
    expect(await storedCount(first)).toBe(0);
    await first.close();
    const again = await startReferrerServer({ eventRetentionDays: 1 }, dataDir);
    try {
      const next = await (await postBatch(again, [{ zone_id: '1' }])).json();
      expect(next.first_id).toBe(last_id + 1);
    } finally {
      await again.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
