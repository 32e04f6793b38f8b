// The export's byte writer (CsvBytes) writes a figure's digits from a whole number instead of
// writing out a double. Its bytes must be the string writers' exactly — plainDecimal at the stored
// precision, shownFigureText at a ratio's decimals — for any double, in both decimal marks, and a
// text cell is written as it stands only when csv.ts would leave it so.
import { describe, expect, it } from 'vitest';
import { CsvBytes } from './csv-bytes.js';
import { csvCellWriter } from './csv.js';
import { plainDecimal, shownFigureText } from './rounding.js';
import { seeded } from './test-seeded.js';

/** Edges first (powers of ten, exponents, halves, 15 and 16 digits, int32's edge), then figures of every kind. */
function values(n: number): number[] {
  const out = [
    0,
    -0,
    1,
    -1,
    0.5,
    -0.5,
    1.5,
    2.5,
    0.125,
    0.005,
    1.005,
    -17.005,
    2.675,
    0.1 + 0.2,
    1 / 3,
    2 / 3,
    1e-6,
    9.99999e-7,
    1e-7,
    5e-324,
    999999999999999.9,
    1e15,
    1e15 - 1,
    123456789012345.6,
    99999999.99999,
    1e21,
    1e22,
    2 ** 31,
    2 ** 31 - 1,
    2 ** 31 + 0.5,
    2 ** 53,
    27.181140000000003,
    0.14127999999999996,
    52721.404999999999,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ];
  const r = seeded(29);
  for (let i = 0; i < n; i++) {
    const sign = r() < 0.25 ? -1 : 1;
    const magnitude = 10 ** Math.floor(r() * 30 - 12);
    const kind = i % 5;
    if (kind === 0) out.push(sign * r() * magnitude);
    else if (kind === 1)
      out.push((sign * Math.round(r() * 1e6)) / 10 ** Math.floor(r() * 8)); // stored decimals
    else if (kind === 2)
      out.push(((sign * Math.round(r() * 1e6)) / 1e4) * [0.6, 0.65, 0.7, 0.3876543211][i % 4]); // revenue × rate
    else if (kind === 3)
      out.push((sign * (Math.floor(r() * 1e7) + 0.5)) / 10 ** Math.floor(r() * 6)); // halves
    else out.push(sign * Math.round(r() * magnitude)); // whole
  }
  return out;
}

const decoder = new TextDecoder();
const MARKS = [
  ['.', 46],
  [',', 44],
] as const;

describe('figures written as bytes', () => {
  const xs = values(200_000);
  const out = new CsvBytes(16); // small: the buffer grows as it is written

  it('a figure at its stored precision is plainDecimal, in either decimal mark', () => {
    for (const [mark, code] of MARKS)
      for (const v of xs) {
        out.stored(v, code);
        const want = Number.isFinite(v) ? plainDecimal(v).replace('.', mark) : '';
        const got = decoder.decode(out.take());
        if (got !== want) expect([v, got]).toEqual([v, want]);
      }
  });

  it('a ratio at 0–6 decimals is shownFigureText, in either decimal mark', () => {
    for (const d of [0, 1, 2, 3, 4, 6])
      for (const [mark, code] of MARKS)
        for (const v of xs) {
          out.shown(v, d, code);
          const want = shownFigureText(v, d).replace('.', mark);
          const got = decoder.decode(out.take());
          if (got !== want) expect([v, d, got]).toEqual([v, d, want]);
        }
  });

  it('figures one after another keep their own bytes (the buffer grows, take starts afresh)', () => {
    const many = new CsvBytes(4);
    let expected = '';
    for (const v of xs.slice(0, 2000)) {
      many.stored(v, 46);
      many.byte(44);
      expected += `${Number.isFinite(v) ? plainDecimal(v) : ''},`;
    }
    expect(decoder.decode(many.take())).toBe(expected);
    expect(many.take()).toHaveLength(0);
  });
});

describe('text cells written as they stand', () => {
  const cell = csvCellWriter('standard');
  const texts = [
    'AdNova',
    'Publisher 10',
    'site10.com',
    '382590',
    '',
    'a b',
    '=SUM(A1)',
    '+34 600',
    '-5',
    '-x',
    '@here',
    'Bid, "Sphere"',
    'a;b',
    'tab\there',
    'línea\nnueva',
    'Clíckora',
    '数据',
    '\r',
  ];

  it('only when csv.ts writes the text unchanged, and then its very characters', () => {
    for (const text of texts) {
      const out = new CsvBytes(2);
      const plain = out.plainText(text);
      const bytes = decoder.decode(out.take());
      if (plain) {
        expect(cell(text)).toBe(text);
        expect(bytes).toBe(text);
      } else expect(bytes).toBe('');
    }
    // The ones that must go through the guard or the quotes, and some that need not.
    expect(texts.filter((t) => new CsvBytes().plainText(t))).toEqual(['AdNova', 'Publisher 10', 'site10.com', '382590', '', 'a b']);
  });
});
