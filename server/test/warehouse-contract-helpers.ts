// Small helpers of the warehouse contract (warehouse-contract.ts and its parts).
import { expect } from 'vitest';
import type { SortState, Sums } from '@adops/core';
import type { Warehouse, ZoneReportRecord } from '../src/warehouse/index.js';

export const by = (key: string, dir: 'asc' | 'desc' = 'asc'): SortState => ({ key, dir });

/** Sums with floating-point tolerance on money. */
export function expectSums(actual: Sums, expected: Sums): void {
  expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
  for (const [k, v] of Object.entries(expected)) expect(actual[k as keyof Sums], k).toBeCloseTo(v, 9);
}
export const sums = (s: Partial<Sums>): Sums => ({
  rows: 0,
  impressions: 0,
  monetized_impressions: 0,
  ctr_base: 0,
  clicks: 0,
  revenue: 0,
  p_revenue: 0,
  margin: 0,
  tq_weighted: 0,
  tq_weight: 0,
  ...s,
});

export async function importRows(w: Warehouse, rows: readonly ZoneReportRecord[]) {
  const load = await w.zoneReports.beginImport();
  try {
    rows.forEach((r, i) => {
      load.add(r, i);
    });
    return await load.commit();
  } finally {
    await load.close();
  }
}

export async function collect<T>(chunks: AsyncIterable<readonly T[]>): Promise<T[]> {
  const out: T[] = [];
  for await (const chunk of chunks) out.push(...chunk);
  return out;
}

export const zones = (rows: Array<{ zone_id?: string }>) => rows.map((r) => r.zone_id);

export function stripDims(g: Record<string, unknown>): Sums {
  const { date: _d, month: _m, advertiser: _a, publisher: _p, zone_id: _z, geo: _g, source: _s, domain: _o, ...rest } = g;
  return rest as unknown as Sums;
}
