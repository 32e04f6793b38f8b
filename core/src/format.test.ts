import { describe, expect, it } from 'vitest';
import {
  currencySymbol,
  formatDateDMY,
  formatDateTime,
  formatDateTimeDMY,
  formatInt,
  formatMoney,
  formatMonthName,
  formatNumber,
  formatPercent,
  formatTimeHM,
  parseDateDMY,
  timeZoneLabel,
  type CurrencySymbol,
} from './format.js';

const missing = [null, undefined, NaN, Infinity, -Infinity];

describe('formatMoney', () => {
  it.each<[number, CurrencySymbol, number | undefined, string]>([
    [1234.56, '$', undefined, '$1.234,56'],
    [1234.5, '$', undefined, '$1.234,50'],
    [1234567.891, '$', undefined, '$1.234.567,89'],
    [0, '$', undefined, '$0,00'],
    [999.999, '$', undefined, '$1.000,00'],
    [-1234.5, '$', undefined, '-$1.234,50'],
    [-0.001, '$', undefined, '$0,00'],
    [12.5, '€', undefined, '€12,50'],
    [0.12345, '$', 4, '$0,1235'],
  ])('%d in %s with %s decimals shows %s', (n, currency, decimals, expected) => {
    expect(formatMoney(n, currency, decimals)).toBe(expected);
  });

  it.each(missing)('non-finite money (%s) shows -', (n) => {
    expect(formatMoney(n)).toBe('-');
  });
});

describe('formatNumber, formatInt, formatPercent', () => {
  it('groups four-digit numbers with a dot', () => {
    expect(formatInt(1234)).toBe('1.234');
  });
  it('rounds integers and groups millions', () => {
    expect(formatInt(1234567.6)).toBe('1.234.568');
  });
  it('leaves three-digit numbers ungrouped', () => {
    expect(formatInt(999)).toBe('999');
  });
  it('uses a decimal comma with the requested decimals', () => {
    expect(formatNumber(0.5, 3)).toBe('0,500');
    expect(formatNumber(1234.5)).toBe('1.234,50');
  });
  it('shows a percentage already in percent units with a % sign', () => {
    expect(formatPercent(12.345)).toBe('12,35%');
    expect(formatPercent(-3)).toBe('-3,00%');
  });
  it.each(missing)('shows - for %s', (n) => {
    expect([formatNumber(n), formatInt(n), formatPercent(n)]).toEqual(['-', '-', '-']);
  });
});

describe('dates', () => {
  it.each([
    ['2026-03-05', '05/03/2026'],
    ['2028-02-29', '29/02/2028'],
    ['2026-02-30', '-'],
    ['', '-'],
    [null, '-'],
  ])('formatDateDMY(%j) is %s', (ymd, expected) => {
    expect(formatDateDMY(ymd)).toBe(expected);
  });

  it.each([
    ['05/03/2026', '2026-03-05'],
    ['5/3/2026', '2026-03-05'],
    [' 31/12/2026 ', '2026-12-31'],
    ['29/02/2026', null],
    ['2026-03-05', null],
    ['32/01/2026', null],
    ['', null],
  ])('parseDateDMY(%j) is %j', (text, expected) => {
    expect(parseDateDMY(text)).toBe(expected);
  });

  it('parseDateDMY reads back what formatDateDMY wrote', () => {
    expect(parseDateDMY(formatDateDMY('2026-11-09'))).toBe('2026-11-09');
  });

  it.each([
    ['2026-03-05T14:07:59Z', 'UTC', '2026-03-05 14:07'],
    ['2026-03-01T02:00:00Z', 'America/Argentina/Buenos_Aires', '2026-02-28 23:00'],
    ['2026-12-31T20:30:00Z', 'Asia/Tokyo', '2027-01-01 05:30'],
    ['2026-07-01T00:00:00Z', 'Europe/Madrid', '2026-07-01 02:00'],
    ['2026-03-05T00:00:00Z', 'UTC', '2026-03-05 00:00'],
  ])('formatDateTime(%s, %s) is %s', (iso, tz, expected) => {
    expect(formatDateTime(iso, tz)).toBe(expected);
  });

  it('formatDateTime accepts a Date and epoch milliseconds', () => {
    const ms = Date.UTC(2026, 2, 5, 9, 4);
    expect(formatDateTime(new Date(ms), 'UTC')).toBe('2026-03-05 09:04');
    expect(formatDateTime(ms, 'UTC')).toBe('2026-03-05 09:04');
  });

  it.each(['not a date', '', null, undefined])('formatDateTime(%j) shows -', (value) => {
    expect(formatDateTime(value, 'UTC')).toBe('-');
  });

  // What people read: dd/MM/yyyy HH:mm on the reporting zone's clock, never the machine's.
  it.each([
    ['2026-03-05T14:07:59Z', 'UTC', '05/03/2026 14:07'],
    ['2026-03-01T02:00:00Z', 'America/Argentina/Buenos_Aires', '28/02/2026 23:00'],
    ['2026-12-31T20:30:00Z', 'Asia/Tokyo', '01/01/2027 05:30'],
    ['2026-07-01T00:00:00Z', 'Europe/Madrid', '01/07/2026 02:00'],
    ['2026-11-28T02:00:00Z', 'Europe/Madrid', '28/11/2026 03:00'],
  ])('formatDateTimeDMY(%s, %s) is %s', (iso, tz, expected) => {
    expect(formatDateTimeDMY(iso, tz)).toBe(expected);
  });

  it('formatDateTimeDMY shows seconds when asked, and - for nothing', () => {
    expect(formatDateTimeDMY('2026-03-05T14:07:59Z', 'America/Bogota', { seconds: true })).toBe('05/03/2026 09:07:59');
    expect([formatDateTimeDMY(null, 'UTC'), formatDateTimeDMY('nope', 'UTC')]).toEqual(['-', '-']);
  });

  it('formatTimeHM is the time of day in the zone', () => {
    expect(formatTimeHM('2026-11-28T02:00:00Z', 'Europe/Madrid')).toBe('03:00');
    expect(formatTimeHM(Date.parse('2026-11-28T02:00:00Z'), 'America/Argentina/Buenos_Aires')).toBe('23:00');
  });

  it.each([
    ['2026-11', 'Nov 2026'],
    ['2025-01', 'Ene 2025'],
    ['2026-13', '2026-13'],
    ['Total', 'Total'],
  ])('formatMonthName(%j) is %s', (month, expected) => {
    expect(formatMonthName(month)).toBe(expected);
  });

  it('timeZoneLabel names the zone with its offset at that moment', () => {
    expect(timeZoneLabel('UTC')).toBe('UTC');
    expect(timeZoneLabel('Europe/Madrid', new Date('2026-11-28T02:00:00Z'))).toBe('Europe/Madrid (UTC+01:00)');
    expect(timeZoneLabel('Europe/Madrid', new Date('2026-07-01T00:00:00Z'))).toBe('Europe/Madrid (UTC+02:00)');
    expect(timeZoneLabel('America/Argentina/Buenos_Aires', new Date('2026-07-01T00:00:00Z'))).toBe('America/Argentina/Buenos_Aires (UTC-03:00)');
    expect(timeZoneLabel('Asia/Kolkata', new Date('2026-07-01T00:00:00Z'))).toBe('Asia/Kolkata (UTC+05:30)');
  });
});

describe('money in a currency named by its ISO code', () => {
  it('shows USD and EUR with their symbols leading, any other code after the number', () => {
    expect(formatMoney(1234.5, 'USD')).toBe('$1.234,50');
    expect(formatMoney(-1234.5, 'EUR')).toBe('-€1.234,50');
    expect(formatMoney(1234.5, 'eur')).toBe('€1.234,50');
    expect(formatMoney(-1234.5, 'GBP')).toBe('-1.234,50 GBP');
    expect(formatMoney(0.5, 'MXN', 4)).toBe('0,5000 MXN');
    expect(formatMoney(null, 'MXN')).toBe('-');
    expect(currencySymbol('EUR')).toBe('€');
    expect(currencySymbol('CHF')).toBe('CHF');
  });
});
