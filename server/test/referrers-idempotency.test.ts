// Ingest that can be retried: events with an event_id, batches with an Idempotency-Key. A resend
// (the same batch again, or the same events in another batch) within 7 days stores nothing
// twice — also after a restart — publishes nothing twice live, and answers how many events were
// accepted and how many were duplicates. Bad keys are refused before anything is stored.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TestServer } from './helpers.js';
import { INGEST_KEY, postBatch, startReferrerServer, storedCount } from './referrers-fixture.js';
import { loadConfig } from '../src/config.js';
import { ReferrerService, normalizeEvent, runReferrerRetention } from '../src/services/referrers.js';
import { openDuckDbWarehouse } from '../src/warehouse/duckdb/index.js';
import type { ReferrerEvent } from '../src/warehouse/index.js';

let t: TestServer;
beforeAll(async () => {
  t = await startReferrerServer();
});
afterAll(() => t?.close());

/** A batch of `n` events of one zone (no event_id unless `ids`), in NDJSON line order. */
const batch = (zone: string, n: number, ids?: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => ({
    zone_id: zone,
    referrer: `https://retry.example.com/${zone}/${i}`,
    ...(ids ? { event_id: ids(i) } : {}),
  }));

const withKey = (key: string) => ({ 'x-ingest-key': INGEST_KEY, 'idempotency-key': key });

async function send(server: TestServer, body: string | object[], headers?: Record<string, string>) {
  const res = await postBatch(server, body, headers);
  return { status: res.status, body: await res.json() };
}

/** Runs `steps` on a server, then on a restarted one on the same data directory. */
async function acrossRestart(before: (s: TestServer) => Promise<void>, after: (s: TestServer) => Promise<void>): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'adops-idempotency-'));
  try {
    const first = await startReferrerServer({}, dataDir);
    try {
      await before(first);
    } finally {
      await first.close();
    }
    const again = await startReferrerServer({}, dataDir);
    try {
      await after(again);
    } finally {
      await again.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Events of a zone stored, straight from the warehouse's log. */
async function storedIn(server: TestServer, zone: string): Promise<number> {
  const all = { from: 0, to: Date.now() + 60_000, zoneId: zone.toLowerCase() };
  return (await server.app.services.referrers.warehouse.logs({ filter: all, order: [] })).total;
}

describe('the same batch twice counts once', () => {
  test('under one Idempotency-Key: the resend stores nothing and says every event was a duplicate (also across a server restart)', async () => {
    const events = batch('idem-1', 5);
    await acrossRestart(
      async (first) => {
        const firstAnswer = await send(first, events, withKey('lote-2026-03-10-0001'));
        expect(firstAnswer.status).toBe(200);
        expect(firstAnswer.body).toMatchObject({ accepted: 5, duplicates: 0 });
        expect(firstAnswer.body.last_id - firstAnswer.body.first_id).toBe(4);
        expect(await send(first, events, withKey('lote-2026-03-10-0001'))).toEqual({
          status: 200,
          body: { accepted: 0, duplicates: 5, first_id: null, last_id: null },
        });
        expect(await storedIn(first, 'idem-1')).toBe(5);
      },
      // The keys are in the warehouse, not in the process: a restarted server knows them.
      async (again) => {
        expect((await send(again, events, withKey('lote-2026-03-10-0001'))).body).toMatchObject({ accepted: 0, duplicates: 5 });
        expect(await storedIn(again, 'idem-1')).toBe(5);
        // Another key is another batch.
        expect((await send(again, events, withKey('lote-2026-03-10-0002'))).body).toMatchObject({ accepted: 5, duplicates: 0 });
        expect(await storedIn(again, 'idem-1')).toBe(10);
      },
    );
  });

  test('with event ids: the same events in another batch are duplicates, its new ones are accepted (also across a restart)', async () => {
    const ids = (i: number) => `evt-${i}-4f1c2a`;
    await acrossRestart(
      async (first) => {
        expect((await send(first, batch('idem-2', 4, ids))).body).toMatchObject({ accepted: 4, duplicates: 0 });
      },
      async (again) => {
        // Events 2 and 3 again, events 4 and 5 new, no Idempotency-Key.
        const answer = await send(again, batch('idem-2', 6, ids).slice(2));
        expect(answer.body).toMatchObject({ accepted: 2, duplicates: 2 });
        expect(answer.body.last_id - answer.body.first_id).toBe(1);
        expect(await storedIn(again, 'idem-2')).toBe(6);
      },
    );
  });

  test('an event id repeated within one batch is stored once', async () => {
    const events = [...batch('idem-3', 3, (i) => `dup-${i}`), ...batch('idem-3', 2, () => 'dup-0')];
    expect((await send(t, events)).body).toMatchObject({ accepted: 3, duplicates: 2 });
    expect(await storedIn(t, 'idem-3')).toBe(3);
  });

  test('the same batch sent twice at once counts once', async () => {
    const events = batch('idem-4', 50);
    const answers = await Promise.all([1, 2, 3].map(() => send(t, events, withKey('lote-concurrente'))));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.reduce((n, a) => n + a.body.accepted, 0)).toBe(50);
    expect(answers.reduce((n, a) => n + a.body.duplicates, 0)).toBe(100);
    expect(await storedIn(t, 'idem-4')).toBe(50);
  });

  test('the same batch three times in one commit (the same instant) counts once', async () => {
    const body = `${batch('idem-4b', 20)
      .map((e) => JSON.stringify(e))
      .join('\n')}\n`;
    const referrers = t.app.services.referrers;
    // Called in one tick: the group commit takes the three requests together.
    const answers = await Promise.all([1, 2, 3].map(() => referrers.ingestNdjson(body, Date.now(), 'mismo-instante')));
    expect(answers.map((a) => [a.accepted, a.duplicates])).toEqual([
      [20, 0],
      [0, 20],
      [0, 20],
    ]);
    expect(await storedIn(t, 'idem-4b')).toBe(20);
  });

  test('a different body under a used Idempotency-Key is another batch (nothing silently dropped); event ids hold across keys', async () => {
    const events = batch('idem-5', 3);
    expect((await send(t, events, withKey('reusada'))).body).toMatchObject({ accepted: 3, duplicates: 0 });
    const changed = [events[0], { ...events[1], keyword: 'otra' }, events[2]];
    expect((await send(t, changed, withKey('reusada'))).body).toMatchObject({ accepted: 3, duplicates: 0 });
    expect((await send(t, changed, withKey('reusada'))).body).toMatchObject({ accepted: 0, duplicates: 3 });
    // An event_id is the event's own key, whatever the batch's.
    expect((await send(t, [{ ...events[0], event_id: 'propio-1' }], withKey('reusada'))).body).toMatchObject({ accepted: 1, duplicates: 0 });
    expect((await send(t, [{ ...events[0], event_id: 'propio-1' }], withKey('otra'))).body).toMatchObject({ accepted: 0, duplicates: 1 });
    expect(await storedIn(t, 'idem-5')).toBe(7);
  });

  test('without event ids or an Idempotency-Key a resent batch is stored again, as before', async () => {
    const events = batch('idem-6', 2);
    expect((await send(t, events)).body).toMatchObject({ accepted: 2, duplicates: 0 });
    expect((await send(t, events)).body).toMatchObject({ accepted: 2, duplicates: 0 });
    // An empty Idempotency-Key is no key.
    expect((await send(t, events, withKey(''))).body).toMatchObject({ accepted: 2, duplicates: 0 });
    expect(await storedIn(t, 'idem-6')).toBe(6);
  });

  test('the live bus publishes a duplicate zero times', async () => {
    const published: ReferrerEvent[] = [];
    const stop = t.app.services.referrers.bus.subscribe((events) => published.push(...events.filter((e) => e.zone_id === 'idem-7')));
    try {
      const events = batch('idem-7', 4, (i) => `live-${i}`);
      await send(t, events);
      await send(t, events);
      await send(t, [...events, ...batch('idem-7', 1, () => 'live-new')], withKey('live'));
      await t.fetch('/api/hit?zone_id=idem-7&event_id=live-hit');
      await t.fetch('/api/hit?zone_id=idem-7&event_id=live-hit');
      expect(published.map((e) => e.referrer)).toEqual([...events.map((e) => e.referrer), 'https://retry.example.com/idem-7/0', null]);
      expect(new Set(published.map((e) => e.id)).size).toBe(6);
      // The key stays off the published event.
      expect(Object.keys(published[0]).sort()).toEqual(
        [
          'id',
          'seen_ms',
          'seen_at',
          'zone_id',
          'parent_domain',
          'referrer',
          'keyword',
          'ip',
          'country',
          'publisher',
          'advertiser',
          'is_bot',
          'reason',
          // where a Meta ad sent the visit (null when not from one)
          'campaign_id',
          'adset_id',
          'ad_id',
          'placement',
        ].sort(),
      );
    } finally {
      stop();
    }
  });

  test('keys expire after 7 days: retention forgets them and a resend is stored again', async () => {
    const events = batch('idem-8', 2, (i) => `old-${i}`);
    expect((await send(t, events)).body).toMatchObject({ accepted: 2, duplicates: 0 });
    expect((await send(t, events)).body).toMatchObject({ accepted: 0, duplicates: 2 });
    if (t.app.services.warehouse.engine === 'clickhouse') return; // ClickHouse drops them by TTL (warehouse.clickhouse.test.ts)
    await runReferrerRetention(t.app.services.referrers, Date.now() + 7 * 86_400_000 + 60_000);
    expect((await send(t, events)).body).toMatchObject({ accepted: 2, duplicates: 0 });
    expect(await storedIn(t, 'idem-8')).toBe(4);
  });
});

describe('two instances on one warehouse', () => {
  test('sending the same events at the same instant store them once: the key check and the insert are one DuckDB transaction', async () => {
    const warehouse = await openDuckDbWarehouse(':memory:');
    const config = loadConfig({ ADOPS_LOG: 'silent' });
    const open = () =>
      ReferrerService.open(
        warehouse.referrers,
        async () => new Map(),
        config,
        () => {},
        { lingerMs: 1 },
      );
    const [a, b] = await Promise.all([open(), open()]);
    try {
      const now = Date.now();
      const events = Array.from({ length: 200 }, (_, i) => normalizeEvent({ zone_id: 'race', referrer: `https://race.example/${i}` }, now));
      const keys = events.map((_, i) => `e:race-${i}`);
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, n) => (n % 2 ? a : b).accept(events.slice((n * 37) % 100), keys.slice((n * 37) % 100))),
      );
      const sent = answers.reduce((sum, r) => sum + r.accepted + r.duplicates, 0);
      expect(answers.reduce((sum, r) => sum + r.accepted, 0)).toBe(200);
      expect(sent - 200).toBe(answers.reduce((sum, r) => sum + r.duplicates, 0));
      expect(await warehouse.referrers.countEvents()).toBe(200);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await warehouse.close();
    }
  });
});

describe('the beacon’s event_id', () => {
  test('a hit sent again with its event_id is stored once; the beacon cannot claim a batch event’s id', async () => {
    for (let i = 0; i < 3; i++) expect((await t.fetch('/api/hit?zone_id=idem-9&event_id=hit-abc-1')).status).toBe(204);
    expect((await t.fetch('/api/hit?zone_id=idem-9&event_id=hit-abc-1&format=gif')).status).toBe(200);
    expect(await storedIn(t, 'idem-9')).toBe(1);
    // The public beacon and the keyed batch ingest have their own key spaces.
    expect(
      (
        await send(
          t,
          batch('idem-9', 1, () => 'hit-abc-1'),
        )
      ).body,
    ).toMatchObject({ accepted: 1, duplicates: 0 });
    expect(await storedIn(t, 'idem-9')).toBe(2);
  });
});

describe('bad keys are refused before anything is stored', () => {
  const cases: Array<[string, string | object[], Record<string, string> | undefined, string]> = [
    [
      'an event_id over 64 characters',
      [
        { zone_id: 'bad-1', event_id: 'ok' },
        { zone_id: 'bad-1', event_id: 'x'.repeat(65) },
      ],
      undefined,
      'línea 2: Id del evento: no puede superar 64 caracteres',
    ],
    [
      'an event_id with a control character',
      [{ zone_id: 'bad-1', event_id: 'a\u0007b' }],
      undefined,
      'línea 1: Id del evento: debe ser texto ASCII imprimible',
    ],
    ['an event_id beyond ASCII', [{ zone_id: 'bad-1', event_id: 'clave-ñ' }], undefined, 'línea 1: Id del evento: debe ser texto ASCII imprimible'],
    ['an empty event_id', [{ zone_id: 'bad-1', event_id: '' }], undefined, 'línea 1: Id del evento: debe ser texto ASCII imprimible'],
    ['an event_id that is an object', [{ zone_id: 'bad-1', event_id: { $ne: null } }], undefined, 'línea 1: Id del evento'],
    [
      'an Idempotency-Key over 128 characters',
      batch('bad-1', 2),
      withKey('k'.repeat(129)),
      'La cabecera Idempotency-Key no puede superar 128 caracteres',
    ],
    ['an Idempotency-Key with a tab inside', batch('bad-1', 2), withKey('a\tb'), 'La cabecera Idempotency-Key debe ser texto ASCII imprimible'],
  ];
  test.each(cases)('%s → 400 with a Spanish detail, nothing stored', async (_name, body, headers, detail) => {
    const before = await storedCount(t);
    const res = await postBatch(t, body, headers);
    expect(res.status).toBe(400);
    expect((await res.json()).detail).toContain(detail);
    expect(await storedCount(t)).toBe(before);
  });

  test('a numeric event_id is its text; 64 printable characters are fine', async () => {
    expect((await send(t, [{ zone_id: 'bad-2', event_id: 12345 }])).body).toMatchObject({ accepted: 1 });
    expect((await send(t, [{ zone_id: 'bad-2', event_id: '12345' }])).body).toMatchObject({ accepted: 0, duplicates: 1 });
    expect((await send(t, [{ zone_id: 'bad-2', event_id: ` ~!"#$%&'()*+,-./:;<=>?@[\\]^_\`{|}${'z'.repeat(31)}` }])).body).toMatchObject({
      accepted: 1,
    });
  });

  test('the beacon refuses a bad event_id with 400 and stores nothing', async () => {
    const before = await storedCount(t);
    for (const bad of ['x'.repeat(65), '%07', '%C3%B1', '']) {
      const res = await t.fetch(`/api/hit?zone_id=bad-3&event_id=${bad}`);
      expect(res.status, bad).toBe(400);
      expect((await res.json()).detail, bad).toMatch(/^Id del evento: /);
    }
    expect(await storedCount(t)).toBe(before);
  });
});
