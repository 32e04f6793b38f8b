import { describe, expect, it } from 'vitest';
import {
  PAGE_SIZES,
  barPercent,
  minMax,
  nextSort,
  pageLabel,
  pageWindow,
  parseSortText,
  sortText,
  rankColor,
  sortRows,
  type SortState,
} from './table.js';

describe('nextSort', () => {
  it.each<[string, SortState | null, string, SortState]>([
    ['a first click sorts ascending', null, 'revenue', { key: 'revenue', dir: 'asc' }],
    ['clicking the same header turns ascending into descending', { key: 'revenue', dir: 'asc' }, 'revenue', { key: 'revenue', dir: 'desc' }],
    ['clicking it again turns descending into ascending', { key: 'revenue', dir: 'desc' }, 'revenue', { key: 'revenue', dir: 'asc' }],
    ['a new header starts ascending', { key: 'revenue', dir: 'desc' }, 'clicks', { key: 'clicks', dir: 'asc' }],
  ])('%s', (_what, current, key, expected) => {
    expect(nextSort(current, key)).toEqual(expected);
  });
});

describe('sortRows', () => {
  type Row = { id: string; v: number | string | null | undefined };
  const rows: Row[] = [
    { id: 'a', v: 10 },
    { id: 'b', v: null },
    { id: 'c', v: 2 },
    { id: 'd', v: NaN },
    { id: 'e', v: undefined },
    { id: 'f', v: 33 },
  ];
  const ids = (r: Row[]) => r.map((x) => x.id).join('');

  it.each<[string, 'asc' | 'desc', string]>([
    ['ascending sorts numbers numerically with missing values last', 'asc', 'cafbde'],
    ['descending keeps missing values last too', 'desc', 'facbde'],
  ])('%s', (_what, dir, expected) => {
    expect(ids(sortRows(rows, { key: 'v', dir }))).toBe(expected);
  });

  it('sorts text in Spanish order (ñ after n, accents and case only break ties), digit by digit as every engine does', () => {
    const text: Row[] = [
      { id: '1', v: 'zona10' },
      { id: '2', v: 'Ñandú' },
      { id: '3', v: 'zona9' },
      { id: '4', v: 'nube' },
      { id: '5', v: 'Árbol' },
      { id: '6', v: '' },
    ];
    // árbol < nube < ñandú < zona10 < zona9 (ICU 'es', no numeric ordering); the empty value last
    expect(ids(sortRows(text, { key: 'v', dir: 'asc' }))).toBe('542136');
  });

  it('sorts YYYY-MM-DD dates chronologically', () => {
    const dates: Row[] = [
      { id: 'x', v: '2026-03-10' },
      { id: 'y', v: '2025-12-31' },
      { id: 'z', v: '2026-03-02' },
    ];
    expect(ids(sortRows(dates, { key: 'v', dir: 'desc' }))).toBe('xzy');
  });

  it('returns a copy and leaves the input untouched', () => {
    const before = ids(rows);
    const sorted = sortRows(rows, { key: 'v', dir: 'asc' });
    expect(sorted).not.toBe(rows);
    expect(ids(rows)).toBe(before);
  });

  it('keeps the original order without a sort', () => {
    expect(ids(sortRows(rows, null))).toBe('abcdef');
  });
});

describe('page labels', () => {
  it('writes the page label in Spanish', () => {
    expect(pageLabel(2, 7)).toBe('Página 2 de 7');
  });

  it('offers page sizes 10, 25, 50 and 100', () => {
    expect(PAGE_SIZES).toEqual([10, 25, 50, 100]);
  });
});

describe('rankColor', () => {
  it.each<[number, number | null]>([
    // min 100, max 200: position = (value − 100) / 100
    [200, 5],
    [190, 5],
    [189, 4],
    [170, 4],
    [150, 3],
    [130, 2],
    [110, 1],
    [109, 0],
    [100, 0],
  ])('%d between 100 and 200 is level %s', (value, level) => {
    expect(rankColor(value, 100, 200)).toBe(level);
  });

  it('ranks negative margins between a negative min and a positive max', () => {
    expect(rankColor(-50, -100, 100)).toBe(1); // position 0.25
  });

  it.each<[string, unknown, number, number]>([
    ['a missing value', null, 0, 10],
    ['a NaN value', NaN, 0, 10],
    ['a list where every value is the same', 5, 5, 5],
  ])('gives no level for %s', (_what, value, min, max) => {
    expect(rankColor(value, min, max)).toBeNull();
  });

  it('minMax finds the bounds over finite values only', () => {
    expect(minMax([{ r: 3 }, { r: null }, { r: -2 }, { r: NaN }, { r: 8 }], 'r')).toEqual({ min: -2, max: 8 });
    expect(minMax([{ r: null }], 'r')).toBeNull();
  });
});

describe('barPercent', () => {
  it.each<[number, number, number]>([
    [25, 50, 50],
    [50, 50, 100],
    [0, 50, 0],
    [10, 0, 0],
  ])('a bar for %d against a largest of %d is %d%% wide', (value, largest, expected) => {
    expect(barPercent(value, largest)).toBe(expected);
  });
});

describe('sortRows with tie-breakers', () => {
  it('breaks ties by the given keys so the order is total', () => {
    const rows = [
      { id: 'b', v: 1 },
      { id: 'a', v: 1 },
      { id: 'c', v: 0 },
    ];
    expect(sortRows(rows, { key: 'v', dir: 'desc' }, [{ key: 'id', dir: 'asc' }]).map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(sortRows(rows, null, [{ key: 'id', dir: 'desc' }]).map((r) => r.id)).toEqual(['c', 'b', 'a']);
  });
});

describe('the sort parameter', () => {
  it.each([
    ['revenue:desc', { key: 'revenue', dir: 'desc' }],
    ['revenue', { key: 'revenue', dir: 'asc' }],
    [' CTR : ASC ', { key: 'ctr', dir: 'asc' }],
    ['2026-03:desc', { key: '2026-03', dir: 'desc' }],
  ])('reads %j', (text, expected) => {
    expect(parseSortText(text)).toEqual(expected);
  });

  it.each(['revenue:up', 'a:b:c', '', 'revenue;drop table', 'x'.repeat(41)])('refuses %j', (text) => {
    expect(parseSortText(text)).toBeNull();
  });

  it('writes what it reads', () => {
    expect(sortText({ key: 'revenue', dir: 'desc' })).toBe('revenue:desc');
  });
});

describe('pageWindow', () => {
  it.each([
    ['the first page', 95, 1, 25, { page: 1, page_count: 4, offset: 0 }],
    ['a middle page', 95, 3, 25, { page: 3, page_count: 4, offset: 50 }],
    ['a page past the last is the last', 95, 9, 25, { page: 4, page_count: 4, offset: 75 }],
    ['no rows is one empty page', 0, 5, 25, { page: 1, page_count: 1, offset: 0 }],
  ] as const)('%s', (_what, total, page, size, expected) => {
    expect(pageWindow(total, page, size)).toEqual(expected);
  });
});
