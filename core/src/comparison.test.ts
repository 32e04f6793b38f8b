import { describe, expect, it } from 'vitest';
import { dayComparison, dayComparisonWords, instantComparison, instantComparisonWords, shiftDays } from './comparison.js';
import { presetRange, rangeToInstants, type DayRange } from './presets.js';

const MADRID = 'Europe/Madrid';
const BA = 'America/Argentina/Buenos_Aires';
// 28 November 2026, 03:00 in Madrid (UTC+1): the "▼ 89,99 % at 3 a.m.".
const AT_3AM = new Date('2026-11-28T02:00:00Z');
const range = (from: string, to: string): DayRange => ({ from, to });

describe('dayComparison (daily data: zone reports)', () => {
  const cases: [string, Date, string, DayRange, string, DayRange | null, DayRange | null][] = [
    // [what, now, tz, period, basis, current, previous]
    [
      'a week over is compared whole',
      AT_3AM,
      MADRID,
      range('2026-11-21', '2026-11-27'),
      'whole_days',
      range('2026-11-21', '2026-11-27'),
      range('2026-11-14', '2026-11-20'),
    ],
    [
      'Ayer against the day before',
      AT_3AM,
      MADRID,
      range('2026-11-27', '2026-11-27'),
      'whole_days',
      range('2026-11-27', '2026-11-27'),
      range('2026-11-26', '2026-11-26'),
    ],
    [
      'a week running into today keeps its 6 complete days against the first 6 of the week before',
      AT_3AM,
      MADRID,
      range('2026-11-22', '2026-11-28'),
      'complete_days',
      range('2026-11-22', '2026-11-27'),
      range('2026-11-15', '2026-11-20'),
    ],
    [
      'Mes actual on the 28th compares 1–27 with as many days from the previous period’s start',
      AT_3AM,
      MADRID,
      range('2026-11-01', '2026-11-28'),
      'complete_days',
      range('2026-11-01', '2026-11-27'),
      range('2026-10-04', '2026-10-30'),
    ],
    ['Hoy alone has no complete day to compare', AT_3AM, MADRID, range('2026-11-28', '2026-11-28'), 'none', null, null],
    ['a period in the future has nothing to compare', AT_3AM, MADRID, range('2026-12-01', '2026-12-07'), 'none', null, null],
    // Buenos Aires at 02:00 UTC on 1 March is still 28 February: that day is still running there.
    [
      'the zone decides which day is still running',
      new Date('2026-03-01T02:00:00Z'),
      BA,
      range('2026-02-22', '2026-02-28'),
      'complete_days',
      range('2026-02-22', '2026-02-27'),
      range('2026-02-15', '2026-02-20'),
    ],
    [
      '…while in UTC the same week is over',
      new Date('2026-03-01T02:00:00Z'),
      'UTC',
      range('2026-02-22', '2026-02-28'),
      'whole_days',
      range('2026-02-22', '2026-02-28'),
      range('2026-02-15', '2026-02-21'),
    ],
  ];
  it.each(cases)('%s', (_what, now, tz, period, basis, current, previous) => {
    const c = dayComparison(period, now, tz);
    expect({ basis: c.basis, current: c.current, previous: c.previous }).toEqual({ basis, current, previous });
  });

  it('says which days each side covers', () => {
    expect(dayComparisonWords(dayComparison(range('2026-11-22', '2026-11-28'), AT_3AM, MADRID))).toEqual({
      label: 'días completos, sin hoy',
      note: 'Días completos: 22/11/2026 – 27/11/2026 frente a 15/11/2026 – 20/11/2026 (hoy aún no ha terminado y no cuenta).',
    });
    expect(dayComparisonWords(dayComparison(range('2026-11-27', '2026-11-27'), AT_3AM, MADRID))).toEqual({
      label: 'días completos',
      note: 'Días completos: 27/11/2026 frente a 26/11/2026.',
    });
    expect(dayComparisonWords(dayComparison(range('2026-11-28', '2026-11-28'), AT_3AM, MADRID), 'el informe de zonas es diario')).toEqual({
      label: 'sin comparación',
      note: 'Sin comparación: hoy aún no ha terminado y el informe de zonas es diario.',
    });
  });
});

describe('instantComparison (timestamped data: visits)', () => {
  const span = (r: DayRange, tz: string) => {
    const i = rangeToInstants(r, tz);
    return { from: Date.parse(i.startDate), to: Date.parse(i.endDate) };
  };
  const iso = (s: { from: number; to: number } | null) => (s ? [new Date(s.from).toISOString(), new Date(s.to).toISOString()] : null);

  it('Hoy at 03:00 is compared with yesterday up to 03:00', () => {
    const c = instantComparison(span(presetRange('hoy', AT_3AM, MADRID), MADRID), AT_3AM, MADRID);
    expect(c.basis).toBe('same_hours');
    // Madrid's midnight is 23:00 UTC the day before.
    expect(iso(c.current)).toEqual(['2026-11-27T23:00:00.000Z', '2026-11-28T01:59:59.999Z']);
    expect(iso(c.previous)).toEqual(['2026-11-26T23:00:00.000Z', '2026-11-27T01:59:59.999Z']);
    expect(instantComparisonWords(c, MADRID).label).toBe('hasta las 03:00 frente a ayer a la misma hora');
  });

  it('the minute cut: at 03:00:40 both sides stop at 03:00', () => {
    const now = new Date('2026-11-28T02:00:40Z');
    const c = instantComparison(span(presetRange('hoy', now, MADRID), MADRID), now, MADRID);
    expect(iso(c.current)?.[1]).toBe('2026-11-28T01:59:59.999Z');
  });

  it('a week with today stops at the same time of day 7 days back', () => {
    const c = instantComparison(span(presetRange('ultimos7_hoy', AT_3AM, MADRID), MADRID), AT_3AM, MADRID);
    expect(c.basis).toBe('same_hours');
    expect(iso(c.current)).toEqual(['2026-11-21T23:00:00.000Z', '2026-11-28T01:59:59.999Z']);
    expect(iso(c.previous)).toEqual(['2026-11-14T23:00:00.000Z', '2026-11-21T01:59:59.999Z']);
    expect(instantComparisonWords(c, MADRID)).toEqual({
      label: 'hasta las 03:00 frente al período anterior a la misma hora',
      note: 'Hasta las 03:00 (Europe/Madrid): 22/11/2026 – 28/11/2026 frente a 15/11/2026 – 21/11/2026 hasta la misma hora.',
    });
  });

  it('a period over is compared whole with the days just before it', () => {
    const c = instantComparison(span(presetRange('ayer', AT_3AM, MADRID), MADRID), AT_3AM, MADRID);
    expect(c.basis).toBe('whole_days');
    expect(iso(c.previous)).toEqual(['2026-11-25T23:00:00.000Z', '2026-11-26T22:59:59.999Z']);
    expect(instantComparisonWords(c, MADRID).note).toBe('Días completos: 27/11/2026 frente a 26/11/2026.');
  });

  it('a period not begun has nothing to compare', () => {
    const c = instantComparison(span(range('2026-11-29', '2026-11-29'), MADRID), AT_3AM, MADRID);
    expect(c.basis).toBe('none');
    expect(instantComparisonWords(c, MADRID).label).toBe('sin comparación');
  });

  it('across a clock change "the same hour" is the same time of day, not 24 hours back', () => {
    // 30 March 2026, 10:00 in Madrid (UTC+2); the day before had 23 hours (the change at 02:00 on the 29th).
    const now = new Date('2026-03-30T08:00:00Z');
    const c = instantComparison(span(presetRange('hoy', now, MADRID), MADRID), now, MADRID);
    // Yesterday's 10:00 was 08:00 UTC too (already UTC+2)...
    expect(iso(c.previous)?.[1]).toBe('2026-03-29T07:59:59.999Z');
    // ...and its midnight 23:00 UTC (still UTC+1).
    expect(iso(c.previous)?.[0]).toBe('2026-03-28T23:00:00.000Z');
  });

  it('shiftDays keeps the time into the local day', () => {
    expect(new Date(shiftDays(Date.parse('2026-11-28T02:00:00Z'), -1, MADRID)).toISOString()).toBe('2026-11-27T02:00:00.000Z');
  });
});
