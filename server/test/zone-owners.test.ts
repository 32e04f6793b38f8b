// The zone-owner cache the beacon stamps hits with: after an import it reloads only the zones
// with rows from the import's first day on, merged into what it knew; reloads asked for while
// one runs are run after it (an import's zones are never missed), from the earliest day asked.
// A reload that fails (DuckDB short of memory while a large warehouse starts) is tried again
// soon, not left until the 10-minute timer or the next import: until then hits go without an owner.
import { describe, expect, test, vi } from 'vitest';
import { ZoneOwners } from '../src/services/referrers/zones.js';
import { openDuckDbWarehouse } from '../src/warehouse/duckdb/index.js';
import type { ZoneOwner } from '../src/warehouse/index.js';
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

const OWNERS = new Map<string, ZoneOwner>([['380001', { publisher: 'Publisher 01', advertiser: 'AdNova' }]]);

function failing(times: number) {
  const calls: Array<string | undefined> = [];
  const load = async (since?: string) => {
    calls.push(since);
    if (calls.length <= times) throw new Error('Out of Memory Error: could not allocate block');
    return OWNERS;
  };
  return { load, calls };
}

describe('the zone cache after a failed reload', () => {
  test('is reloaded again by itself, each wait longer, and then stamps hits', async () => {
    const { load, calls } = failing(2);
    const lines: string[] = [];
    const zones = new ZoneOwners(
      load,
      (line) => lines.push(line),
      () => false,
      20,
    );
    await zones.refresh();
    expect(zones.owner('380001')).toEqual({ publisher: null, advertiser: null });
    await vi.waitFor(() => expect(zones.owner('380001')).toEqual({ publisher: 'Publisher 01', advertiser: 'AdNova' }), { timeout: 2000 });
    expect(calls).toEqual([undefined, undefined, undefined]); // the whole list each time
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/zone owners not refreshed \(tried again in 0 s\): Out of Memory Error/);
  });

  test('an import’s partial reload is retried as that partial reload', async () => {
    const { load, calls } = failing(1);
    const zones = new ZoneOwners(
      load,
      () => undefined,
      () => false,
      10,
    );
    await zones.refresh('2026-11-30');
    await vi.waitFor(() => expect(zones.owner('380001').publisher).toBe('Publisher 01'), { timeout: 2000 });
    expect(calls).toEqual(['2026-11-30', '2026-11-30']);
  });

  test('a service closed meanwhile does not reload again', async () => {
    const { load, calls } = failing(5);
    let closed = false;
    const zones = new ZoneOwners(
      load,
      () => undefined,
      () => closed,
      10,
    );
    await zones.refresh();
    closed = true;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(calls).toHaveLength(1);
  });
});
