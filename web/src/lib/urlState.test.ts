// The view in the query string: what a link says is what the screen shows, defaults are left
// out, anything unreadable falls back to the default, and new filters send tables to page 1.
import { describe, expect, test } from 'vitest';
import { SCREEN_PRESETS } from '@adops/core';
import { clearPages, readRange, readTableView, sameParams, searchText, writeRange, writeTableView } from './urlState';
import { initialReportFilters, readReportFilters, writeReportFilters } from '../components/ReportFilterBar';
import { readReferrerFilters, writeReferrerFilters } from '../components/referrers/useReferrerFilters';
import { readExplorerSearch, writeExplorerSearch } from '../pages/ApiExplorer';
import { readFinanceView, shownMonths, writeFinanceView } from '../pages/Finance';
import { readCampaignFilters } from '../pages/FbCampaigns';

const NOW = new Date('2026-03-10T12:00:00Z');
const TZ = 'Europe/Madrid';
const q = (text: string) => new URLSearchParams(text);
const AD_REPORT = { preset: 'ultimos7' as const, presets: SCREEN_PRESETS.adReport, now: NOW, tz: TZ };

describe('table view', () => {
  const defaults = { pageSize: 25, sortKeys: ['date', 'revenue'] };

  test('a plain URL is the default view; sort, page and size are read when valid', () => {
    expect(readTableView(q(''), '', defaults)).toEqual({ sort: null, page: 1, pageSize: 25 });
    expect(readTableView(q('sort=revenue:desc&page=3&size=50'), '', defaults)).toEqual({
      sort: { key: 'revenue', dir: 'desc' },
      page: 3,
      pageSize: 50,
    });
    expect(readTableView(q('pub_sort=date&pub_page=2'), 'pub_', defaults)).toEqual({ sort: { key: 'date', dir: 'asc' }, page: 2, pageSize: 25 });
  });

  test('an unknown sort key, a page below 1 or not a number and a size not offered are the defaults', () => {
    expect(readTableView(q('sort=password:desc&page=0&size=7'), '', defaults)).toEqual({ sort: null, page: 1, pageSize: 25 });
    expect(readTableView(q('page=-2&size=abc'), '', defaults)).toEqual({ sort: null, page: 1, pageSize: 25 });
    expect(readTableView(q('page=1e3'), '', defaults).page).toBe(1);
  });

  test('writing leaves the defaults out (page 1, default size, default order) and round-trips the rest', () => {
    const p = q('other=x');
    writeTableView(p, '', { sort: null, page: 1, pageSize: 25 }, defaults);
    expect(p.toString()).toBe('other=x');
    writeTableView(p, 'adv_', { sort: { key: 'revenue', dir: 'desc' }, page: 4, pageSize: 100 }, defaults);
    expect(readTableView(p, 'adv_', defaults)).toEqual({ sort: { key: 'revenue', dir: 'desc' }, page: 4, pageSize: 100 });
    const sorted = { ...defaults, sort: { key: 'date', dir: 'desc' as const } };
    const p2 = q('');
    writeTableView(p2, '', { sort: { key: 'date', dir: 'desc' }, page: 1, pageSize: 25 }, sorted);
    expect(p2.toString()).toBe('');
  });

  test('new filters send every table back to page 1', () => {
    const p = q('page=3&pub_page=2&adv_page=5&pub_sort=date&pager=1');
    clearPages(p);
    expect(p.toString()).toBe('pub_sort=date&pager=1');
  });

  test('the query string keeps ":" and "," readable and compares regardless of order', () => {
    expect(searchText(q('sort=revenue:desc&zone_id=a b&x=1,2'))).toBe('?sort=revenue:desc&zone_id=a%20b&x=1,2');
    expect(searchText(q(''))).toBe('');
    expect(sameParams(q('a=1&b=2'), q('b=2&a=1'))).toBe(true);
    expect(sameParams(q('a=1'), q('a=2'))).toBe(false);
  });
});

describe('range', () => {
  const defaults = {
    preset: 'hoy' as const,
    presets: ['hoy', 'ayer'] as const,
    rangeOf: (p: 'hoy' | 'ayer') => (p === 'hoy' ? { from: '2026-03-10', to: '2026-03-10' } : { from: '2026-03-09', to: '2026-03-09' }),
  };

  test('a preset is kept by name (its days computed now); days by hand as from/to; nothing is the default', () => {
    expect(readRange(q(''), defaults)).toEqual({ preset: 'hoy', from: '2026-03-10', to: '2026-03-10' });
    expect(readRange(q('preset=ayer&from=2020-01-01'), defaults)).toEqual({ preset: 'ayer', from: '2026-03-09', to: '2026-03-09' });
    expect(readRange(q('from=2026-01-01&to=2026-01-31'), defaults)).toEqual({ preset: 'custom', from: '2026-01-01', to: '2026-01-31' });
    expect(readRange(q('from=2026-01-01'), defaults)).toEqual({ preset: 'custom', from: '2026-01-01', to: '2026-03-10' });
  });

  test('a preset the screen does not offer and an impossible day are ignored', () => {
    expect(readRange(q('preset=mes_actual'), defaults).preset).toBe('hoy');
    expect(readRange(q('preset=custom&from=2026-02-31&to=2026-13-01'), defaults)).toEqual({ preset: 'hoy', from: '2026-03-10', to: '2026-03-10' });
  });

  test('writing: the default preset leaves nothing, another preset its name, custom its days', () => {
    const p = q('');
    writeRange(p, { preset: 'hoy', from: '2026-03-10', to: '2026-03-10' }, defaults);
    expect(p.toString()).toBe('');
    writeRange(p, { preset: 'ayer', from: '2026-03-09', to: '2026-03-09' }, defaults);
    expect(p.toString()).toBe('preset=ayer');
    writeRange(p, { preset: 'custom', from: '2026-01-01', to: '2026-01-31' }, defaults);
    expect(p.toString()).toBe('from=2026-01-01&to=2026-01-31');
  });
});

describe('report filters (Dashboard, Ad Report, Demand)', () => {
  test('the default filters write nothing, so a plain link stays clean', () => {
    const p = q('');
    writeReportFilters(p, initialReportFilters('ultimos7', NOW, TZ), AD_REPORT);
    expect(p.toString()).toBe('');
    expect(readReportFilters(p, AD_REPORT)).toEqual(initialReportFilters('ultimos7', NOW, TZ));
  });

  test('filters round-trip through the URL and reset every page', () => {
    const chosen = {
      zone_id: 'zona-7',
      advertiser: 'AdNova',
      publisher: 'Diario Uno',
      geo: 'ES',
      source: 'Todos',
      preset: 'custom' as const,
      from: '2026-02-01',
      to: '2026-02-14',
    };
    const p = q('page=4&sort=revenue:desc');
    writeReportFilters(p, chosen, AD_REPORT);
    expect(p.get('page')).toBeNull();
    expect(p.get('sort')).toBe('revenue:desc');
    expect(p.has('source')).toBe(false);
    expect(readReportFilters(p, AD_REPORT)).toEqual(chosen);
  });

  test('a preset in a link means that preset today', () => {
    expect(readReportFilters(q('preset=mes_actual'), AD_REPORT)).toMatchObject({ preset: 'mes_actual', from: '2026-03-01', to: '2026-03-10' });
  });
});

describe('the other screens', () => {
  test('Referrers: source is the parent domain; Reset (custom, today) keeps its days; defaults leave nothing', () => {
    const p = q('');
    writeReferrerFilters(p, readReferrerFilters(q(''), NOW, TZ));
    expect(p.toString()).toBe('');
    writeReferrerFilters(p, {
      zoneId: ' z1 ',
      advertiser: 'Todos',
      publisher: 'P',
      parentDomain: 'a.example',
      preset: 'custom',
      from: '2026-03-10',
      to: '2026-03-10',
      includeBots: false,
    });
    expect(p.toString()).toBe('zone_id=z1&publisher=P&source=a.example&from=2026-03-10&to=2026-03-10');
    expect(readReferrerFilters(p, NOW, TZ)).toMatchObject({ zoneId: 'z1', parentDomain: 'a.example', preset: 'custom', includeBots: false });
    writeReferrerFilters(p, { ...readReferrerFilters(p, NOW, TZ), includeBots: true });
    expect(p.get('bots')).toBe('1');
    expect(readReferrerFilters(p, NOW, TZ).includeBots).toBe(true);
  });

  test('Api Explorer: the search applied, today by default', () => {
    const p = q('');
    const search = { zone_id: 'z', advertiser: 'Todos', publisher: 'Todos', from: '2026-03-01', to: '2026-03-10' };
    writeExplorerSearch(p, search, '2026-03-10');
    expect(p.toString()).toBe('zone_id=z&from=2026-03-01');
    expect(readExplorerSearch(p, '2026-03-10')).toEqual(search);
  });

  test('Finance: domain and range; the first month with data is shown unless every month was asked for', () => {
    const p = q('');
    writeFinanceView(p, { domain: 'uno.com', from: '2025-01-01', to: '2026-03-10', allMonths: false }, '2026-03-10');
    expect(p.toString()).toBe('domain=uno.com');
    expect(readFinanceView(q('all_months=1'), '2026-03-10')).toEqual({ domain: 'Todos', from: '2025-01-01', to: '2026-03-10', allMonths: true });
    const months = ['2025-01', '2025-02', '2025-03', '2025-04'];
    const totals = [
      { '2025-01': 0, '2025-02': 0, '2025-03': 5, '2025-04': 0 },
      { '2025-02': 0, '2025-03': 0 },
    ];
    expect(shownMonths(months, totals, true)).toEqual(['2025-03', '2025-04']);
    expect(shownMonths(months, totals, false)).toEqual(months);
    // No data at all (or not answered yet): every month.
    expect(shownMonths(months, [undefined], true)).toEqual(months);
  });

  test('Fb Campaigns: status ACTIVE and yesterday by default; an unknown status is the default', () => {
    expect(readCampaignFilters(q('status=PAUSED&from=2026-03-01'), '2026-03-09')).toEqual({ status: 'PAUSED', from: '2026-03-01', to: '2026-03-09' });
    expect(readCampaignFilters(q('status=DELETED'), '2026-03-09').status).toBe('ACTIVE');
  });
});
