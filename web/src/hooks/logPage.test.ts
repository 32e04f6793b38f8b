// The live log's pages: page 1 shows live arrivals on top of the server's newest rows, pages
// 2+ stay pinned to the newest id known when the user left page 1, and the count always adds
// the arrivals the server page does not hold yet.
import { describe, expect, test } from 'vitest';
import type { LiveRecord } from '@adops/core';
import { baselineOf, moveTo, newestKnownId, pendingArrivals, shownLogPage, type LogSnapshot } from './logPage';

const event = (id: number): LiveRecord => ({
  id,
  zone_id: 'Z',
  parent_domain: 'a.example',
  referrer: `https://a.example/${id}`,
  seen_at: new Date(Date.UTC(2026, 2, 5, 0, 0, id)).toISOString(),
  keyword: null,
  ip: null,
  country: null,
});
/** Newest first, as the server and the live list order them. */
const events = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => event(to - i));

/** The server's page 1 of 20 over ids 1..45 (latest stored id 45). */
const page1: LogSnapshot = { rows: events(26, 45), total_rows: 45, page: 1, page_count: 3, latest_id: 45 };

describe('page 1 (live)', () => {
  test('arrivals after the page was read come first and are counted; the page still holds 20 rows', () => {
    const arrivals = events(46, 48);
    const shown = shownLogPage({ page: 1 }, page1, arrivals, 20);
    expect(shown.rows.map((r) => r.id)).toEqual([48, 47, 46, ...Array.from({ length: 17 }, (_, i) => 45 - i)]);
    expect(shown.total).toBe(48);
    expect(shown.pageCount).toBe(3);
    expect(shown.page).toBe(1);
  });

  test('an arrival the server page already holds (same id or same key) shows and counts once', () => {
    const shown = shownLogPage({ page: 1 }, page1, [event(45), event(44)], 20);
    expect(shown.total).toBe(45);
    expect(shown.rows.filter((r) => r.id === 45)).toHaveLength(1);
  });

  test("a poll's newer count wins when more events arrived than a poll brings", () => {
    const shown = shownLogPage({ page: 1 }, page1, events(46, 47), 20, 300);
    expect(shown.total).toBe(300);
    expect(shown.pageCount).toBe(15);
    expect(shownLogPage({ page: 1 }, page1, events(46, 47), 20, 40).total).toBe(47);
  });

  test('with no events: one page and no rows', () => {
    const empty: LogSnapshot = { rows: [], total_rows: 0, page: 1, page_count: 1, latest_id: null };
    expect(shownLogPage({ page: 1 }, empty, [], 20)).toEqual({ rows: [], page: 1, pageCount: 1, total: 0 });
  });
});

describe('pages 2+ (pinned)', () => {
  test('leaving page 1 pins the pages to the newest id known (an arrival newer than the page)', () => {
    const arrivals = events(46, 47);
    expect(newestKnownId(page1, arrivals)).toBe(47);
    const view = moveTo({ page: 1 }, 2, newestKnownId(page1, arrivals));
    expect(view).toEqual({ page: 2, beforeId: 47 });
    // Further pages keep the pin; page 1 follows the live list again.
    expect(moveTo(view, 3, 60)).toEqual({ page: 3, beforeId: 47 });
    expect(moveTo(view, 1, 60)).toEqual({ page: 1 });
  });

  test("the pinned page is the server's; later arrivals only add to the count", () => {
    const pinned: LogSnapshot = { rows: events(8, 27), total_rows: 47, page: 2, page_count: 3, latest_id: 50 };
    const view = { page: 2, beforeId: 47 };
    const shown = shownLogPage(view, pinned, [event(49), event(48), event(46)], 20);
    expect(shown.rows).toBe(pinned.rows);
    expect(shown.page).toBe(2);
    expect(shown.pageCount).toBe(3);
    expect(shown.total).toBe(49);
  });
});

test('the baseline is the pin, else the newest stored id; events without an id always count as new', () => {
  expect(baselineOf({ page: 2, beforeId: 30 }, page1)).toBe(30);
  expect(baselineOf({ page: 1 }, page1)).toBe(45);
  expect(baselineOf({ page: 1 }, null)).toBe(0);
  const noId = { ...event(1), id: undefined };
  expect(pendingArrivals([event(44), event(46), noId], 45)).toEqual([event(46), noId]);
});
