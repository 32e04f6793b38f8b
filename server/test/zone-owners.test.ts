// The zone-owner cache the beacon stamps hits with: after an import it reloads only the zones
// with rows from the import's first day on, merged into what it knew; reloads asked for while
// one runs are run after it (an import's zones are never missed), from the earliest day asked.
import { expect, test } from 'vitest';
import { ZoneOwners } from '../src/services/referrers/zones.js';
import { openDuckDbWarehouse } from '../src/warehouse/duckdb/index.js';
import { ZONE_FIXTURE, importRows } from './warehouse-contract.js';

const row = (date: string, zone_id: string, publisher: string) => ({ ...ZONE_FIXTURE[0], date, zone_id, publisher });

test('imports while a full reload runs: their reloads run after it, once, from the earliest first day, and keep every other zone', async () => {
  const w = await openDuckDbWarehouse(':memory:');
  try {
    await importRows(w, [row('2026-03-01', 'Z-1', 'PubA')]);
    const asked: Array<string | undefined> = [];
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    // The real warehouse answers; the first (full) reload is held after its query, so imports land meanwhile.
    const zones = new ZoneOwners(
      async (since) => {
        asked.push(since);
        const owners = await w.zoneReports.zoneOwners(since);
        if (asked.length === 1) await held;
        return owners;
      },
      () => {},
      () => false,
    );
    const full = zones.refresh();
    await importRows(w, [row('2026-03-05', 'Z-2', 'PubB')]);
    const second = zones.refresh('2026-03-05');
    await importRows(w, [row('2026-03-04', 'Z-3', 'PubC'), row('2026-03-06', 'Z-1', 'PubD')]);
    const third = zones.refresh('2026-03-04');
    release();
    await Promise.all([full, second, third]);
    expect(asked).toEqual([undefined, '2026-03-04']);
    expect(['Z-1', 'Z-2', 'Z-3', 'Z-4'].map((z) => zones.owner(z).publisher)).toEqual(['PubD', 'PubB', 'PubC', null]);
    expect(zones.known('Z-4')).toBe(false);
  } finally {
    await w.close();
  }
});

test('a reload from a day on leaves the zones last seen before it as they were', async () => {
  const w = await openDuckDbWarehouse(':memory:');
  try {
    await importRows(w, [row('2026-03-01', 'Z-1', 'PubA'), row('2026-03-02', 'Z-2', 'PubB')]);
    const asked: Array<string | undefined> = [];
    const zones = new ZoneOwners(
      (since) => {
        asked.push(since);
        return w.zoneReports.zoneOwners(since);
      },
      () => {},
      () => false,
    );
    await zones.refresh();
    await importRows(w, [row('2026-03-03', 'Z-2', 'PubC')]);
    await zones.refresh('2026-03-03');
    expect(asked).toEqual([undefined, '2026-03-03']);
    expect([zones.owner('Z-1').publisher, zones.owner('Z-2').publisher]).toEqual(['PubA', 'PubC']);
  } finally {
    await w.close();
  }
});
