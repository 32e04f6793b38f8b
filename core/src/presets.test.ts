import { describe, expect, it } from 'vitest';
import {
  PRESET_LABELS,
  SCREEN_DEFAULT_PRESET,
  SCREEN_PRESETS,
  addDays,
  weekdayIndex,
  daysBetween,
  isInRange,
  isPresetKey,
  isValidTimeZone,
  isValidYmd,
  monthKey,
  monthsBetween,
  presetRange,
  previousRange,
  referrerPresetRange,
  todayIn,
  zonedDayEnd,
  zonedDayStart,
  type PresetKey,
} from './presets.js';

const UTC = 'UTC';
const BA = 'America/Argentina/Buenos_Aires'; // UTC−3, no DST
const TOKYO = 'Asia/Tokyo'; // UTC+9, no DST
const MADRID = 'Europe/Madrid';

describe('presetRange', () => {
  const cases: [string, string, string, PresetKey, string, string][] = [
    // [what, now, tz, preset, from, to]
    ['Hoy is today', '2026-03-15T12:00:00Z', UTC, 'hoy', '2026-03-15', '2026-03-15'],
    ['Ayer is yesterday', '2026-03-15T12:00:00Z', UTC, 'ayer', '2026-03-14', '2026-03-14'],
    ['Últimos 7 días is the 7 complete days ending yesterday', '2026-03-15T12:00:00Z', UTC, 'ultimos7', '2026-03-08', '2026-03-14'],
    ['Últimos 7 días (con hoy) ends today', '2026-03-15T12:00:00Z', UTC, 'ultimos7_hoy', '2026-03-09', '2026-03-15'],
    ['Mes actual runs from the 1st to today', '2026-03-15T12:00:00Z', UTC, 'mes_actual', '2026-03-01', '2026-03-15'],
    ['Mes anterior is the whole previous month', '2026-03-15T12:00:00Z', UTC, 'mes_anterior', '2026-02-01', '2026-02-28'],
    // month ends
    ['Mes anterior on the 31st is the previous month, not a 31-day jump', '2026-03-31T10:00:00Z', UTC, 'mes_anterior', '2026-02-01', '2026-02-28'],
    ['Mes anterior of a 31-day month after a 30-day one', '2026-05-31T10:00:00Z', UTC, 'mes_anterior', '2026-04-01', '2026-04-30'],
    ['Ayer on the 1st is the last day of the previous month', '2026-05-01T10:00:00Z', UTC, 'ayer', '2026-04-30', '2026-04-30'],
    ['Mes actual on the 1st is a single day', '2026-05-01T10:00:00Z', UTC, 'mes_actual', '2026-05-01', '2026-05-01'],
    ['Últimos 7 días on the 3rd reaches into the previous month', '2026-03-03T10:00:00Z', UTC, 'ultimos7', '2026-02-24', '2026-03-02'],
    // leap days
    ['Hoy on a leap day', '2028-02-29T10:00:00Z', UTC, 'hoy', '2028-02-29', '2028-02-29'],
    ['Mes actual on a leap day covers 29 days', '2028-02-29T10:00:00Z', UTC, 'mes_actual', '2028-02-01', '2028-02-29'],
    ['Mes anterior on 1 March of a leap year ends on the 29th', '2024-03-01T10:00:00Z', UTC, 'mes_anterior', '2024-02-01', '2024-02-29'],
    ['Ayer on 1 March of a leap year is the 29th', '2024-03-01T10:00:00Z', UTC, 'ayer', '2024-02-29', '2024-02-29'],
    ['Últimos 7 días across a leap day', '2024-03-03T10:00:00Z', UTC, 'ultimos7', '2024-02-25', '2024-03-02'],
    // year turn
    ['Ayer on New Year is 31 December', '2027-01-01T10:00:00Z', UTC, 'ayer', '2026-12-31', '2026-12-31'],
    ['Mes anterior on New Year is December of the previous year', '2027-01-01T10:00:00Z', UTC, 'mes_anterior', '2026-12-01', '2026-12-31'],
    ['Últimos 7 días on 2 January spans the year turn', '2027-01-02T10:00:00Z', UTC, 'ultimos7_hoy', '2026-12-27', '2027-01-02'],
    // non-UTC zones
    ['Buenos Aires at 02:00 UTC on 1 March is still 28 February', '2026-03-01T02:00:00Z', BA, 'hoy', '2026-02-28', '2026-02-28'],
    ['Buenos Aires Mes actual stays in February before its midnight', '2026-03-01T02:00:00Z', BA, 'mes_actual', '2026-02-01', '2026-02-28'],
    ['Buenos Aires Mes anterior before its midnight is January', '2026-03-01T02:00:00Z', BA, 'mes_anterior', '2026-01-01', '2026-01-31'],
    ['Tokyo at 20:00 UTC on 31 December is already New Year', '2026-12-31T20:00:00Z', TOKYO, 'hoy', '2027-01-01', '2027-01-01'],
    ['Tokyo Ayer at that moment is 31 December', '2026-12-31T20:00:00Z', TOKYO, 'ayer', '2026-12-31', '2026-12-31'],
    ['Tokyo Mes anterior at that moment is December', '2026-12-31T20:00:00Z', TOKYO, 'mes_anterior', '2026-12-01', '2026-12-31'],
    // The week (28 November 2026 at 03:00 in Madrid, still the 28th there; 02:00 UTC).
    ['Madrid at 03:00: Últimos 7 días is 21–27/11', '2026-11-28T02:00:00Z', MADRID, 'ultimos7', '2026-11-21', '2026-11-27'],
    ['Madrid at 03:00: Últimos 7 días (con hoy) is 22–28/11', '2026-11-28T02:00:00Z', MADRID, 'ultimos7_hoy', '2026-11-22', '2026-11-28'],
    [
      'Buenos Aires before its midnight: Últimos 7 días still ends on its yesterday',
      '2026-03-01T02:00:00Z',
      BA,
      'ultimos7',
      '2026-02-21',
      '2026-02-27',
    ],
    [
      'Tokyo after its midnight: Últimos 7 días (con hoy) already ends on its New Year',
      '2026-12-31T20:00:00Z',
      TOKYO,
      'ultimos7_hoy',
      '2026-12-26',
      '2027-01-01',
    ],
  ];
  it.each(cases)('%s', (_what, now, tz, preset, from, to) => {
    expect(presetRange(preset, new Date(now), tz)).toEqual({ from, to });
  });
});

describe('referrerPresetRange', () => {
  const cases: [string, string, string, PresetKey, string, string][] = [
    ['Hoy in UTC is the whole day', '2026-03-15T12:00:00Z', UTC, 'hoy', '2026-03-15T00:00:00.000Z', '2026-03-15T23:59:59.999Z'],
    ['Ayer in UTC is the whole previous day', '2026-03-15T12:00:00Z', UTC, 'ayer', '2026-03-14T00:00:00.000Z', '2026-03-14T23:59:59.999Z'],
    [
      'Últimos 7 días runs from 7 days ago to the end of yesterday',
      '2026-03-15T12:00:00Z',
      UTC,
      'ultimos7',
      '2026-03-08T00:00:00.000Z',
      '2026-03-14T23:59:59.999Z',
    ],
    ['Mes actual runs to the end of today', '2026-03-15T12:00:00Z', UTC, 'mes_actual', '2026-03-01T00:00:00.000Z', '2026-03-15T23:59:59.999Z'],
    [
      'Últimos 7 días (con hoy) runs from 6 days ago to the end of today',
      '2026-03-15T12:00:00Z',
      UTC,
      'ultimos7_hoy',
      '2026-03-09T00:00:00.000Z',
      '2026-03-15T23:59:59.999Z',
    ],
    ['Mes anterior is the whole previous month', '2024-03-01T12:00:00Z', UTC, 'mes_anterior', '2024-02-01T00:00:00.000Z', '2024-02-29T23:59:59.999Z'],
    // Buenos Aires midnight is 03:00 UTC.
    [
      'Hoy in Buenos Aires is its local day in UTC instants',
      '2026-03-01T02:00:00Z',
      BA,
      'hoy',
      '2026-02-28T03:00:00.000Z',
      '2026-03-01T02:59:59.999Z',
    ],
    // Tokyo midnight is 15:00 UTC of the day before.
    ['Ayer in Tokyo is its local day in UTC instants', '2026-12-31T20:00:00Z', TOKYO, 'ayer', '2026-12-30T15:00:00.000Z', '2026-12-31T14:59:59.999Z'],
    // Madrid moves from UTC+1 to UTC+2 on 29 March 2026: the month starts at +1 and ends at +2.
    [
      'Mes anterior in Madrid follows the clock change',
      '2026-04-10T12:00:00Z',
      MADRID,
      'mes_anterior',
      '2026-02-28T23:00:00.000Z',
      '2026-03-31T21:59:59.999Z',
    ],
  ];
  it.each(cases)('%s', (_what, now, tz, preset, startDate, endDate) => {
    expect(referrerPresetRange(preset, new Date(now), tz)).toEqual({ startDate, endDate });
  });
});

describe('local day bounds', () => {
  it('a day with a 23-hour clock change is 23 hours long', () => {
    const start = zonedDayStart('2026-03-29', MADRID).getTime();
    const end = zonedDayEnd('2026-03-29', MADRID).getTime();
    expect(end + 1 - start).toBe(23 * 3600_000);
  });
  it('a day whose midnight is skipped by DST starts at 01:00 local (Santiago, 11 Sep 2022)', () => {
    // Santiago went from UTC−4 to UTC−3 at 00:00, so the day began at 01:00 −03 = 04:00 UTC.
    expect(zonedDayStart('2022-09-11', 'America/Santiago').toISOString()).toBe('2022-09-11T04:00:00.000Z');
  });
});

describe('calendar helpers', () => {
  it.each([
    ['2026-03-31', 1, '2026-04-01'],
    ['2026-03-01', -1, '2026-02-28'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2027-01-01', -7, '2026-12-25'],
    ['2026-03-15', 0, '2026-03-15'],
  ])('addDays(%s, %i) is %s', (ymd, n, expected) => {
    expect(addDays(ymd, n)).toBe(expected);
  });

  it.each([
    ['2026-11-23', 0], // a Monday
    ['2026-11-27', 4],
    ['2026-11-29', 6], // a Sunday
    ['2028-02-29', 1],
  ])('weekdayIndex(%s) is %i (Monday first)', (ymd, expected) => {
    expect(weekdayIndex(ymd)).toBe(expected);
  });

  it.each([
    ['2026-03-01', '2026-03-07', 7],
    ['2026-03-01', '2026-03-01', 1],
    ['2026-03-02', '2026-03-01', 0],
    ['2028-02-01', '2028-03-01', 30],
    ['2026-01-01', '2026-12-31', 365],
    ['2026-03-28', '2026-03-30', 3],
  ])('daysBetween(%s, %s) counts %i days inclusive', (a, b, expected) => {
    expect(daysBetween(a, b)).toBe(expected);
  });

  it.each([
    ['2026-03-05', true],
    ['2028-02-29', true],
    ['2026-02-29', false],
    ['2026-13-01', false],
    ['2026-04-31', false],
    ['2026-3-5', false],
    ['05/03/2026', false],
    ['', false],
  ])('isValidYmd(%j) is %s', (value, expected) => {
    expect(isValidYmd(value)).toBe(expected);
  });

  it('isValidYmd rejects non-strings', () => {
    expect(isValidYmd(20260305)).toBe(false);
    expect(isValidYmd(null)).toBe(false);
  });

  it('monthKey is the YYYY-MM of a day', () => {
    expect(monthKey('2026-03-05')).toBe('2026-03');
  });

  it.each([
    ['2025-11-15', '2026-02-01', ['2025-11', '2025-12', '2026-01', '2026-02']],
    ['2026-03-01', '2026-03-31', ['2026-03']],
    ['2026-04-01', '2026-03-31', []],
  ])('monthsBetween(%s, %s) lists each month once', (from, to, expected) => {
    expect(monthsBetween(from, to)).toEqual(expected);
  });

  it('todayIn gives the local calendar date of the zone', () => {
    const now = new Date('2026-03-01T02:00:00Z');
    expect(todayIn(UTC, now)).toBe('2026-03-01');
    expect(todayIn(BA, now)).toBe('2026-02-28');
    expect(todayIn(TOKYO, now)).toBe('2026-03-01');
  });

  it('isInRange includes both ends', () => {
    const range = { from: '2026-03-01', to: '2026-03-07' };
    expect([isInRange('2026-03-01', range), isInRange('2026-03-07', range), isInRange('2026-03-08', range)]).toEqual([true, true, false]);
  });

  it('isValidTimeZone accepts IANA names and rejects others', () => {
    expect(isValidTimeZone('Europe/Madrid')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
  });
});

describe('preset catalogue', () => {
  it('labels every preset in Spanish, one label per reading', () => {
    expect(PRESET_LABELS).toEqual({
      hoy: 'Hoy',
      ayer: 'Ayer',
      ultimos7: 'Últimos 7 días',
      ultimos7_hoy: 'Últimos 7 días (con hoy)',
      mes_actual: 'Mes actual',
      mes_anterior: 'Mes anterior',
    });
    expect(new Set(Object.values(PRESET_LABELS)).size).toBe(Object.keys(PRESET_LABELS).length);
  });
  it('"Últimos 7 días" means the same days on every screen that offers it', () => {
    const now = new Date('2026-11-28T02:00:00Z');
    const screens = Object.entries(SCREEN_PRESETS).filter(([, presets]) => (presets as readonly string[]).includes('ultimos7'));
    expect(screens.map(([screen]) => screen)).toEqual(['dashboard', 'adReport', 'demand', 'referrers', 'profit']);
    for (const [, presets] of screens) {
      const key = (presets as readonly PresetKey[]).find((p) => PRESET_LABELS[p] === 'Últimos 7 días')!;
      expect(presetRange(key, now, MADRID)).toEqual({ from: '2026-11-21', to: '2026-11-27' });
    }
  });
  it('the Dashboard opens on the 7 days with today, under its own label; the other screens keep theirs', () => {
    expect(SCREEN_DEFAULT_PRESET.dashboard).toBe('ultimos7_hoy');
    expect(PRESET_LABELS[SCREEN_DEFAULT_PRESET.dashboard]).toBe('Últimos 7 días (con hoy)');
    expect(SCREEN_DEFAULT_PRESET.adReport).toBe('ultimos7');
    expect(SCREEN_DEFAULT_PRESET.profit).toBe('ultimos7');
  });
  it('the reading with today is offered wherever Hoy is', () => {
    for (const presets of Object.values(SCREEN_PRESETS) as (readonly PresetKey[])[])
      expect(presets.includes('ultimos7_hoy')).toBe(presets.includes('hoy'));
  });
  it('Demand offers no Hoy', () => {
    expect(SCREEN_PRESETS.demand).toEqual(['ayer', 'ultimos7', 'mes_actual', 'mes_anterior']);
  });
  it('isPresetKey accepts only known keys', () => {
    expect([isPresetKey('hoy'), isPresetKey('manana'), isPresetKey('toString')]).toEqual([true, false, false]);
  });
});

describe('previousRange', () => {
  it.each([
    ['2026-03-08', '2026-03-14', '2026-03-01', '2026-03-07'],
    ['2026-03-01', '2026-03-01', '2026-02-28', '2026-02-28'],
    ['2024-03-01', '2024-03-31', '2024-01-30', '2024-02-29'],
    ['2026-01-01', '2026-01-07', '2025-12-25', '2025-12-31'],
  ])('%s..%s → %s..%s (as many days, just before)', (from, to, pFrom, pTo) => {
    expect(previousRange({ from, to })).toEqual({ from: pFrom, to: pTo });
  });
});
