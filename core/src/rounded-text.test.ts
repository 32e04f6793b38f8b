// An export writes its shown figures (CTR, CPM, RS%, TQ…) by putting a point into a whole
// number instead of writing out the rounded double — several times cheaper on a million rows —
// and a noisy stored figure (revenue × rate) from its 15 digits without reading them back.
// The text must be exactly what the plain way writes, for any value and either CSV dialect.
import { describe, expect, it } from 'vitest';
import { csvRow, type CsvField } from './csv.js';
import { TABLE_CSV } from './exports.js';
import { AD_REPORT_COLUMNS } from './metrics/columns.js';
import { METRICS } from './metrics/registry.js';
import { plainDecimal, roundTo, roundedText, shownFigure, shownFigureText, withoutNoise } from './rounding.js';
import { seeded } from './test-seeded.js';

/** Values of every kind a figure takes: ratios, money with noise, halves, large and tiny, negative, whole. */
function values(n: number): number[] {
  const r = seeded(29);
  const out = [0, -0, 0.5, -0.5, 1.005, -1.005, 0.125, 0.285, 52721.404999999999, 0.1 + 0.2, 1e-7, 123456789012.345, 99999999999.99995, 1e15, 1e21];
  for (let i = 0; i < n; i++) {
    const magnitude = 10 ** Math.floor(r() * 16 - 6);
    const sign = r() < 0.2 ? -1 : 1;
    const kind = i % 4;
    if (kind === 0) out.push(sign * r() * magnitude);
    else if (kind === 1)
      out.push((sign * Math.round(r() * 1e6)) / 10 ** Math.floor(r() * 7)); // stored decimals
    else if (kind === 2)
      out.push((sign * (Math.floor(r() * 1e6) + 0.5)) / 10 ** Math.floor(r() * 5)); // halves
    else out.push(sign * (r() * 1000) * (r() * 3) + 0.1 * r()); // a sum's noise
  }
  return out;
}

describe('a rounded figure written without writing out a double', () => {
  const xs = values(100_000);
  it('roundedText is plainDecimal(roundTo) for every value and 0–6 decimals', () => {
    for (const d of [0, 1, 2, 3, 4, 6])
      for (const v of xs) if (roundedText(v, d) !== plainDecimal(roundTo(v, d) as number)) expect([v, d, roundedText(v, d)]).toBe('the plain text');
  });

  it('plainDecimal writes a noisy figure as String(withoutNoise) does, without writing it twice', () => {
    let noisy = 0;
    for (const v of xs) {
      const plain = String(withoutNoise(v));
      if (plain.includes('e')) continue; // exponent notation is plainDecimal's own (tested in rounding.test.ts)
      if (String(v).length > 15) noisy++;
      if (plainDecimal(v) !== plain) expect([v, plainDecimal(v)]).toBe(plain);
    }
    expect(noisy).toBeGreaterThan(10_000);
  });

  it('shownFigureText is plainDecimal(shownFigure), and empty when there is no figure', () => {
    for (const d of [2, 3, 4])
      for (const v of xs) if (shownFigureText(v, d) !== plainDecimal(shownFigure(v, d) as number)) expect([v, d]).toBe('the plain text');
    for (const none of [null, undefined, Number.NaN, Number.POSITIVE_INFINITY, '1.5']) expect(shownFigureText(none, 2)).toBe('');
  });

  it('an Ad Report line is the same with and without the cheap path, in both dialects', () => {
    const fields = TABLE_CSV.zones.fields;
    const plain: CsvField<Record<string, unknown>>[] = fields.map(({ text: _, ...f }) => f);
    expect(fields.filter((f) => f.text).length).toBeGreaterThan(5);
    // Every figure column of the Ad Report, from its column list (its text dimensions are set in each row).
    const figureKeys = AD_REPORT_COLUMNS.map((c) => c.key).filter((k) => METRICS[k].kind !== 'text');
    expect(figureKeys.length).toBe(13);
    const r = seeded(7);
    for (let i = 0; i < 5000; i++) {
      const row: Record<string, unknown> = {
        date: '2026-03-01',
        advertiser: 'AdNova',
        publisher: '=Pub',
        zone_id: 'Z 1',
        geo: 'ES',
        source: 'search',
      };
      for (const f of figureKeys) row[f] = i % 17 === 0 ? null : (r() - 0.1) * 10 ** Math.floor(r() * 8 - 3);
      for (const dialect of ['standard', 'excel-es'] as const) expect(csvRow(fields, row, dialect)).toBe(csvRow(plain, row, dialect));
    }
  });
});
