// The referrer filter bar's rules: defaults, presets filling the draft, draft checks and the
// API filter sent to the server, with a fixed "now" in UTC and in a zone west of it.
import { describe, expect, test } from 'vitest';
import { ReferrerFilter } from '@adops/core';
import { choosePreset, defaultFilters, draftProblem, initialFilters, PRESET_OPTIONS, sameFilters, toApiFilter } from './filters';

const NOW = new Date('2026-03-15T12:00:00Z');
const BA = 'America/Argentina/Buenos_Aires'; // UTC−3

describe('defaults', () => {
  test('every select reads Todos, no zone, today to today, bots left out; Reset leaves the preset on custom', () => {
    expect(defaultFilters(NOW, 'UTC')).toEqual({
      zoneId: '',
      advertiser: 'Todos',
      publisher: 'Todos',
      parentDomain: 'Todos',
      preset: 'custom',
      from: '2026-03-15',
      to: '2026-03-15',
      includeBots: false,
    });
  });

  test('the screen opens on Hoy with the same dates', () => {
    expect(initialFilters(NOW, 'UTC')).toMatchObject({ preset: 'hoy', from: '2026-03-15', to: '2026-03-15' });
  });

  test('today is the browser zone’s today (02:00 UTC on the 1st is still the 28th in Buenos Aires)', () => {
    expect(defaultFilters(new Date('2026-03-01T02:00:00Z'), BA)).toMatchObject({ from: '2026-02-28', to: '2026-02-28' });
  });
});

describe('presets fill the draft dates', () => {
  const draft = { ...defaultFilters(NOW, 'UTC'), zoneId: '123', parentDomain: 'news.example' };
  test.each([
    ['hoy', '2026-03-15', '2026-03-15'],
    ['ayer', '2026-03-14', '2026-03-14'],
    ['ultimos7', '2026-03-08', '2026-03-14'],
    ['ultimos7_hoy', '2026-03-09', '2026-03-15'],
    ['mes_actual', '2026-03-01', '2026-03-15'],
    ['mes_anterior', '2026-02-01', '2026-02-28'],
  ] as const)('%s → %s .. %s, other fields kept', (preset, from, to) => {
    expect(choosePreset(draft, preset, NOW, 'UTC')).toEqual({ ...draft, preset, from, to });
  });

  test('custom keeps the dates already there', () => {
    const typed = { ...draft, from: '2026-01-02', to: '2026-01-09' };
    expect(choosePreset(typed, 'custom', NOW, 'UTC')).toEqual({ ...typed, preset: 'custom' });
  });

  test('the preset select lists Personalizado then Hoy, Ayer, Últimos 7 días, Últimos 7 días (con hoy), Mes actual, Mes anterior', () => {
    expect(PRESET_OPTIONS.map((o) => o.label)).toEqual([
      'Personalizado',
      'Hoy',
      'Ayer',
      'Últimos 7 días',
      'Últimos 7 días (con hoy)',
      'Mes actual',
      'Mes anterior',
    ]);
  });
});

describe('draft checks', () => {
  const ok = defaultFilters(NOW, 'UTC');
  test('a valid range can be applied', () => expect(draftProblem(ok)).toBeNull());
  test('an unreadable Desde or Hasta cannot', () => {
    expect(draftProblem({ ...ok, from: null })).toMatch(/Desde/);
    expect(draftProblem({ ...ok, to: null })).toMatch(/Hasta/);
  });
  test('Desde after Hasta cannot', () => {
    expect(draftProblem({ ...ok, from: '2026-03-16' })).toBe('La fecha de inicio debe ser anterior o igual a la de fin');
  });
  test('drafts compare by what they filter (zone text trimmed), not by preset', () => {
    expect(sameFilters(ok, { ...ok, preset: 'hoy', zoneId: '  ' })).toBe(true);
    expect(sameFilters(ok, { ...ok, parentDomain: 'a.example' })).toBe(false);
  });
});

describe('the API filter', () => {
  test('Todos and blanks are left out; days become the instants of their local bounds', () => {
    const f = toApiFilter({ ...defaultFilters(NOW, BA), zoneId: ' 77 ', publisher: 'Pub A', from: '2026-03-01', to: '2026-03-02' }, BA);
    expect(f).toEqual({
      zoneId: '77',
      advertiser: undefined,
      publisher: 'Pub A',
      parentDomain: undefined,
      startDate: '2026-03-01T03:00:00.000Z',
      endDate: '2026-03-03T02:59:59.999Z',
    });
    expect(ReferrerFilter.safeParse(f).success).toBe(true);
  });

  test("'Incluir bots' asks for include_bots: true; off, the filter does not name it", () => {
    expect(toApiFilter({ ...defaultFilters(NOW, BA), includeBots: true }, BA)).toMatchObject({ include_bots: true });
    expect(toApiFilter(defaultFilters(NOW, BA), BA)).not.toHaveProperty('include_bots');
  });
});
