// The warehouse contract on the embedded engine (DuckDB), with its rollup on (as it runs) and
// off (every aggregate from the stored rows), and the proof that the rollup is never a second
// truth: after random imports that replace rows, every aggregate answers what the rows answer.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { openDuckDbWarehouse } from '../src/warehouse/duckdb/index.js';
import type { ReferrerEvent } from '../src/warehouse/index.js';
import { describeSameAnswers, describeWarehouseContract, event } from './warehouse-contract.js';

describeWarehouseContract('DuckDB', () => openDuckDbWarehouse(':memory:'));
describeWarehouseContract('DuckDB without its rollup', () => openDuckDbWarehouse(':memory:', { rollup: false }));

describeSameAnswers(
  'the rollup answers what the stored rows answer',
  () => openDuckDbWarehouse(':memory:'),
  () => openDuckDbWarehouse(':memory:', { rollup: false }),
);

describe('DuckDB: idempotency keys', () => {
  const DAY = 86_400_000;
  const keyedEvent = (id: number): ReferrerEvent => event(id, Date.parse('2026-03-02T10:00:00Z') + id, { zone_id: '9' });

  test('a data dir made before them gains their table at the next start; its events stay', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'adops-duck-'));
    try {
      const old = await openDuckDbWarehouse(dir);
      await old.referrers.append([keyedEvent(1), keyedEvent(2)]);
      await old.db.exec('DROP TABLE referrer_event_key'); // as a data dir from before this table
      await old.close();
      const w = await openDuckDbWarehouse(dir);
      try {
        expect(await w.referrers.countEvents()).toBe(2);
        await w.referrers.append([keyedEvent(3)], { keys: ['e:after-upgrade'], since: Date.now() - 7 * DAY });
        expect(await w.referrers.seenKeys(['e:after-upgrade'], Date.now() - 7 * DAY)).toEqual(new Set(['e:after-upgrade']));
      } finally {
        await w.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('expiring forgets the keys stored before the instant, and only those', async () => {
    const w = await openDuckDbWarehouse(':memory:');
    try {
      await w.referrers.append([keyedEvent(1), keyedEvent(2)], { keys: ['e:a', 'e:b'], since: 0 });
      expect(await w.referrers.expireKeys(Date.now() - DAY)).toBe(0);
      expect(await w.referrers.expireKeys(Date.now() + 1000)).toBe(1); // one stored batch of keys
      expect(await w.referrers.seenKeys(['e:a', 'e:b'], 0)).toEqual(new Set());
      expect(await w.referrers.countEvents()).toBe(2);
    } finally {
      await w.close();
    }
  });
});
