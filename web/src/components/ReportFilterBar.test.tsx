// The shared report filter bar: its defaults, range checks, the query it builds, and which
// fields it draws ('Todos' first in every select, the screen's presets in order).
import { describe, expect, test } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { SCREEN_PRESETS } from '@adops/core';
import { ReportFilterBar, initialReportFilters, rangeProblem, toReportQuery } from './ReportFilterBar';

const NOW = new Date('2026-03-10T12:00:00Z');

describe('filter values', () => {
  test('defaults clear every filter and take the preset range', () => {
    expect(initialReportFilters('ultimos7', NOW, 'UTC')).toEqual({
      zone_id: '',
      advertiser: 'Todos',
      publisher: 'Todos',
      geo: 'Todos',
      source: 'Todos',
      preset: 'ultimos7',
      from: '2026-03-03',
      to: '2026-03-09',
    });
    expect(initialReportFilters('ultimos7_hoy', NOW, 'UTC')).toMatchObject({ from: '2026-03-04', to: '2026-03-10' });
  });

  test('the query leaves out Todos and blank filters and trims text', () => {
    const v = { ...initialReportFilters('hoy', NOW, 'UTC'), zone_id: '  Z-1 ', publisher: 'PubA', geo: '' };
    expect(toReportQuery(v)).toEqual({
      start_date: '2026-03-10',
      end_date: '2026-03-10',
      zone_id: 'Z-1',
      advertiser: undefined,
      publisher: 'PubA',
      geo: undefined,
      source: undefined,
    });
  });

  test('a range needs both dates, from ≤ to and at most 800 days', () => {
    expect(rangeProblem({ from: '2026-03-01', to: '2026-03-01' })).toBeNull();
    expect(rangeProblem({ from: '', to: '2026-03-01' })).toBe('Elige las fechas Desde y Hasta');
    expect(rangeProblem({ from: '2026-02-30', to: '2026-03-01' })).toBe('Elige las fechas Desde y Hasta');
    expect(rangeProblem({ from: '2026-03-02', to: '2026-03-01' })).toBe('La fecha de inicio debe ser anterior o igual a la de fin');
    expect(rangeProblem({ from: '2024-01-01', to: '2026-03-10' })).toBeNull();
    expect(rangeProblem({ from: '2024-01-01', to: '2026-03-11' })).toBe('El rango admite como mucho 800 días');
  });
});

describe('ReportFilterBar', () => {
  const render = (hide?: Parameters<typeof ReportFilterBar>[0]['hide'], advertiser = 'Todos') =>
    renderToStaticMarkup(
      <ReportFilterBar
        value={{ ...initialReportFilters('ultimos7', NOW, 'UTC'), advertiser }}
        onChange={() => {}}
        onReset={() => {}}
        presets={SCREEN_PRESETS.adReport}
        options={{ advertisers: ['AdNova', 'BidSphere'], publishers: ['PubA'], geos: ['ES'], sources: ['search'] }}
        hide={hide}
      />,
    );
  const labels = (html: string) => [...html.matchAll(/<label[^>]*>([^<]*)<\/label>/g)].map((m) => m[1]);

  test('draws every field with Todos first in each select and the presets in order', () => {
    const html = render();
    expect(labels(html)).toEqual(['Zone ID', 'Advertiser', 'Publisher', 'Geo', 'Source', 'Presets', 'Desde', 'Hasta']);
    expect(html).toContain('placeholder="Buscar Zone ID"');
    expect(html.match(/<option value="Todos"[^>]*>Todos<\/option>/g)).toHaveLength(4);
    const presets = [...html.matchAll(/<option value="(hoy|ayer|ultimos7|mes_actual|mes_anterior|custom)"[^>]*>([^<]*)</g)].map((m) => m[2]);
    expect(presets).toEqual(['Hoy', 'Ayer', 'Últimos 7 días', 'Mes actual', 'Mes anterior', 'Personalizado']);
    expect(html).toContain('>Reset</button>');
  });

  test('hidden fields are not drawn', () => {
    expect(labels(render(['zone_id', 'geo', 'source']))).toEqual(['Advertiser', 'Publisher', 'Presets', 'Desde', 'Hasta']);
  });

  test('a chosen value missing from the loaded options stays listed and selected', () => {
    expect(render(undefined, 'Clickora')).toMatch(/<option value="Clickora" selected="">Clickora<\/option>/);
  });
});
