// The referrers and logs CSV files: BOM, comma, header, 'YYYY-MM-DD HH:mm' dates on the
// screen's clock, empty fields for missing values, and the file names.
import { describe, expect, test } from 'vitest';
import { parseCsv } from '@adops/core';
import { logsCsv, logsCsvName, referrersCsv, referrersCsvName } from './csv';

const row = {
  zone_id: '4501',
  parent_domain: 'news.example',
  referrer: 'https://news.example/a?x=1,2',
  seen_at: '2026-03-05T09:07:30.000Z',
  keyword: 'zapatos, baratos',
  ip: '203.0.113.9',
  country: 'ES',
};

describe('referrers CSV', () => {
  test('starts with a BOM, comma-separated, one line per row with the date to the minute', () => {
    const text = referrersCsv([row, { ...row, parent_domain: null, referrer: null }], 'UTC');
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(text.slice(1).split('\n')[0]).toBe('date,zone_id,source,referrer');
    expect(parseCsv(text)).toEqual([
      ['date', 'zone_id', 'source', 'referrer'],
      ['2026-03-05 09:07', '4501', 'news.example', 'https://news.example/a?x=1,2'],
      ['2026-03-05 09:07', '4501', '', ''],
    ]);
  });

  test("dates follow the screen's time zone", () => {
    expect(parseCsv(referrersCsv([row], 'America/Argentina/Buenos_Aires'))[1][0]).toBe('2026-03-05 06:07');
  });

  test('a referrer that a spreadsheet would run as a formula is neutralised', () => {
    expect(parseCsv(referrersCsv([{ ...row, referrer: '=HYPERLINK("x")' }], 'UTC'))[1][3]).toBe('\'=HYPERLINK("x")');
  });

  test('file name referrers-{start}_to_{end}.csv', () => {
    expect(referrersCsvName('2026-03-01', '2026-03-07')).toBe('referrers-2026-03-01_to_2026-03-07.csv');
  });
});

describe('logs CSV', () => {
  test('adds keyword, ip and country', () => {
    expect(parseCsv(logsCsv([row], 'UTC'))).toEqual([
      ['date', 'zone_id', 'source', 'referrer', 'keyword', 'ip', 'country'],
      ['2026-03-05 09:07', '4501', 'news.example', 'https://news.example/a?x=1,2', 'zapatos, baratos', '203.0.113.9', 'ES'],
    ]);
  });
  test('file name referrers_logs-{start}_to_{end}.csv', () => {
    expect(logsCsvName('2026-03-01', '2026-03-07')).toBe('referrers_logs-2026-03-01_to_2026-03-07.csv');
  });
});
