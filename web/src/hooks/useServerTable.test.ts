// What a header click, a page button, 'Mostrar' and new filters ask the server for: core's
// toggle rule, back to page 1 on every change but paging, and the table fields sent.
import { describe, expect, test } from 'vitest';
import { nextView, shownPage, viewFields, type TableView } from './useServerTable';

const start: TableView = { sort: null, page: 3, pageSize: 25 };

describe('nextView', () => {
  test('a new header starts ascending, the same header toggles, and both go back to page 1', () => {
    const first = nextView(start, { type: 'sort', key: 'revenue' });
    expect(first).toEqual({ sort: { key: 'revenue', dir: 'asc' }, page: 1, pageSize: 25 });
    const again = nextView({ ...first, page: 4 }, { type: 'sort', key: 'revenue' });
    expect(again).toEqual({ sort: { key: 'revenue', dir: 'desc' }, page: 1, pageSize: 25 });
    expect(nextView(again, { type: 'sort', key: 'revenue' }).sort).toEqual({ key: 'revenue', dir: 'asc' });
    expect(nextView(again, { type: 'sort', key: 'tq' }).sort).toEqual({ key: 'tq', dir: 'asc' });
  });

  test('a new page size and new filters go back to page 1; the order stays', () => {
    const sorted: TableView = { sort: { key: 'tq', dir: 'desc' }, page: 5, pageSize: 10 };
    expect(nextView(sorted, { type: 'pageSize', pageSize: 100 })).toEqual({ sort: sorted.sort, page: 1, pageSize: 100 });
    expect(nextView(sorted, { type: 'filters' })).toEqual({ ...sorted, page: 1 });
    // Already on page 1: the same view (nothing reloads for it).
    const onFirst = { ...sorted, page: 1 };
    expect(nextView(onFirst, { type: 'filters' })).toBe(onFirst);
  });

  test('paging keeps order and size; a page below 1 or not a number is page 1', () => {
    expect(nextView(start, { type: 'page', page: 4 })).toEqual({ ...start, page: 4 });
    expect(nextView(start, { type: 'page', page: 0 }).page).toBe(1);
    expect(nextView(start, { type: 'page', page: Number.NaN }).page).toBe(1);
    expect(nextView(start, { type: 'page', page: 3 })).toBe(start);
  });
});

test('the table fields sent: sort as key:dir (left out for the default order), page and page_size', () => {
  expect(viewFields(start)).toEqual({ page: 3, page_size: 25 });
  expect(viewFields({ sort: { key: 'revenue', dir: 'desc' }, page: 1, pageSize: 10 })).toEqual({ sort: 'revenue:desc', page: 1, page_size: 10 });
});

test('a failed load of new filters shows no rows; a failed page of the same filters keeps the last page', () => {
  const data = { rows: [1] };
  expect(shownPage({ data, error: new Error('x'), fresh: false })).toBeUndefined();
  expect(shownPage({ data, error: new Error('x'), fresh: true })).toBe(data);
  expect(shownPage({ data, error: null, fresh: false })).toBe(data);
});
