// Comparisons of a running period are like with like, on DuckDB and ClickHouse alike. At 03:00
// on 28/11/2026 in Madrid, today's zone report holds 3 hours' worth against yesterday's whole
// day: the Dashboard compares complete days only (zone reports are daily), so a week running
// into today no longer reads "▼ 89,99 %", and Hoy alone has no comparison; visits have instants,
// so the referrers compare up to 03:00 today with up to 03:00 yesterday.
import { describe, expect, test } from 'vitest';
import { addDays } from '@adops/core';
import { ReportService } from '../src/services/reports.js';
import { visitsComparison } from '../src/services/referrers.js';
import type { Warehouse } from '../src/warehouse/index.js';
import { bothWarehouses, zoneReportRow } from './helpers.js';
import { event, importRows } from './warehouse-contract.js';

const MADRID = 'Europe/Madrid';
const NOW = new Date('2026-11-28T02:00:00Z'); // 03:00 in Madrid
const TODAY = '2026-11-28';
const day = (k: number) => addDays(TODAY, -k);

const engines = bothWarehouses('comparisons');

/**
 * Revenue per day: 100 on each of the 13 days before today (14/11 … 27/11 minus one), 10 so far
 * today (a partial report). Impressions 1,000 a day, 100 today.
 */
async function zoneFixture(w: Warehouse): Promise<void> {
  const rows = Array.from({ length: 14 }, (_, k) => zoneReportRow(day(k + 1), 'Z-1', { revenue: 100, margin: 30, p_revenue: 70, impressions: 1000 }));
  rows.push(zoneReportRow(TODAY, 'Z-1', { revenue: 10, margin: 3, p_revenue: 7, impressions: 100, clicks: 5 }));
  await importRows(w, rows);
}

describe.each(engines)('Dashboard comparison on %s', (_name, open) => {
  test('a week running into today compares its 6 complete days with the first 6 of the week before, and says so', async () => {
    const w = await open();
    try {
      await zoneFixture(w);
      const reports = new ReportService(w.zoneReports, MADRID, () => NOW);
      const c = await reports.comparison({ start_date: day(6), end_date: TODAY });
      expect(c.basis).toBe('complete_days');
      expect([c.current?.from, c.current?.to, c.previous?.from, c.previous?.to]).toEqual(['2026-11-22', '2026-11-27', '2026-11-15', '2026-11-20']);
      expect([c.current?.summary.revenue, c.previous?.summary.revenue]).toEqual([600, 600]);
      // Like with like: no change, where today's partial 10 against a whole day would show a fall.
      expect(c.change.revenue).toBe(0);
      expect(c.change.impressions).toBe(0);
      expect(c.label).toBe('días completos, sin hoy');
      expect(c.note).toBe('Días completos: 22/11/2026 – 27/11/2026 frente a 15/11/2026 – 20/11/2026 (hoy aún no ha terminado y no cuenta).');
      // The chart's dashed lines: every day of the previous period.
      expect(c.previous_chart.map((p) => p.date)).toEqual([
        '2026-11-15',
        '2026-11-16',
        '2026-11-17',
        '2026-11-18',
        '2026-11-19',
        '2026-11-20',
        '2026-11-21',
      ]);
    } finally {
      await w.close();
    }
  });

  test('Hoy at 03:00 is not compared with yesterday (no "▼ 90 %"): nothing comparable yet', async () => {
    const w = await open();
    try {
      await zoneFixture(w);
      const c = await new ReportService(w.zoneReports, MADRID, () => NOW).comparison({ start_date: TODAY, end_date: TODAY });
      expect(c.basis).toBe('none');
      expect([c.current, c.previous]).toEqual([null, null]);
      expect(Object.values(c.change)).toEqual([null, null, null, null, null, null]);
      expect(c.note).toBe('Sin comparación: hoy aún no ha terminado y el informe de zonas es diario.');
    } finally {
      await w.close();
    }
  });

  test('a range that is over is compared whole, and the change is current against previous', async () => {
    const w = await open();
    try {
      await zoneFixture(w);
      await importRows(w, [zoneReportRow(day(1), 'Z-1', { revenue: 150, margin: 45, p_revenue: 105, impressions: 1000 })]);
      const c = await new ReportService(w.zoneReports, MADRID, () => NOW).comparison({ start_date: day(1), end_date: day(1) });
      expect(c.basis).toBe('whole_days');
      expect([c.current?.summary.revenue, c.previous?.summary.revenue]).toEqual([150, 100]);
      expect(c.change.revenue).toBe(50);
      expect(c.note).toBe('Días completos: 27/11/2026 frente a 26/11/2026.');
    } finally {
      await w.close();
    }
  });
});

describe.each(engines)('Referrers visits comparison on %s', (_name, open) => {
  // Madrid's 00:00 on the 28th is 23:00 UTC on the 27th.
  const at = (iso: string) => Date.parse(iso);
  const todayStart = at('2026-11-27T23:00:00Z');
  const todayEnd = at('2026-11-28T22:59:59.999Z');

  test('Hoy at 03:00 compares up to 03:00 with yesterday up to 03:00, not with all of yesterday', async () => {
    const w = await open();
    try {
      let id = 0;
      const visits = (n: number, from: string) => Array.from({ length: n }, (_, i) => event(++id, at(from) + i * 60_000, { zone_id: 'Z-1' }));
      await w.referrers.append([
        ...visits(4, '2026-11-27T23:10:00Z'), // today 00:10–00:13
        ...visits(5, '2026-11-26T23:30:00Z'), // yesterday 00:30–00:34
        ...visits(40, '2026-11-27T10:00:00Z'), // yesterday 11:00 onwards: after the cut
      ]);
      const c = await visitsComparison(w.referrers, { from: todayStart, to: todayEnd }, MADRID, NOW);
      expect(c.basis).toBe('same_hours');
      expect([c.current?.hits, c.previous?.hits]).toEqual([4, 5]);
      expect(c.change_percent).toBe(-20);
      expect(c.label).toBe('hasta las 03:00 frente a ayer a la misma hora');
      expect([c.current?.from, c.current?.to, c.previous?.from, c.previous?.to]).toEqual([
        '2026-11-27T23:00:00.000Z',
        '2026-11-28T01:59:59.999Z',
        '2026-11-26T23:00:00.000Z',
        '2026-11-27T01:59:59.999Z',
      ]);
    } finally {
      await w.close();
    }
  });

  test('a day that is over is compared whole; the filter applies to both sides', async () => {
    const w = await open();
    try {
      await w.referrers.append([
        event(1, at('2026-11-27T10:00:00Z'), { zone_id: 'Z-1' }),
        event(2, at('2026-11-27T20:00:00Z'), { zone_id: 'Z-1' }),
        event(3, at('2026-11-26T20:00:00Z'), { zone_id: 'Z-1' }),
        event(4, at('2026-11-26T20:00:00Z'), { zone_id: 'Z-2' }),
      ]);
      const yesterday = { from: at('2026-11-26T23:00:00Z'), to: todayStart - 1, zoneId: 'z-1' };
      const c = await visitsComparison(w.referrers, yesterday, MADRID, NOW);
      expect(c.basis).toBe('whole_days');
      expect([c.current?.hits, c.previous?.hits]).toEqual([2, 1]);
      expect(c.change_percent).toBe(100);
      expect(c.note).toBe('Días completos: 27/11/2026 frente a 26/11/2026.');
    } finally {
      await w.close();
    }
  });
});
