// adops dashboard against a test server with seeded rows (seeded-server.ts): cards, ▲/▼ deltas,
// the trend and the Analytics table, sorting on the server. The report commands are in
// reports.test.tsx and report-summaries.test.tsx.
import { describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import { keyboardReady, waitFor } from './wait.js';
import { DASHBOARD_COLUMNS, addDays, formatMetric, formatMoney, formatPercent, presetRange, type PresetKey, type ReportTotals } from '@adops/core';
import { atKeyboard, atRest } from './helpers.js';
import { Dashboard, deltaText, sparkline } from '../src/ui/Dashboard.js';
import { FIRST_PAGE, dashboardLoader } from '../src/commands/dashboard.js';
import { SEED, d1, d2, inDefaultRange, old, seededServer, strip, sum, today } from './seeded-server.js';

const seeded = seededServer();
const { cli } = seeded;
/** Frames with the dates of the moving range replaced, so assertions do not depend on today (people's dates read dd/MM/yyyy). */
const normalise = (text: string) =>
  strip(text)
    .replace(/\d{2}\/\d{2}\/\d{4}/g, 'DD/MM/YYYY')
    .replace(/\d{4}-\d{2}-\d{2}/g, 'YYYY-MM-DD');

describe('adops dashboard', () => {
  it('--json has the summary, yesterday-vs-day-before deltas, top lists and daily rows', async () => {
    const r = await cli(['dashboard', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect([out.start_date, out.end_date]).toEqual([addDays(today, -6), today]);
    expect(out.summary.revenue).toBeCloseTo(sum(inDefaultRange, 'revenue'), 9);
    const dayRevenue = (d: string) => SEED.filter((s) => s.date === d).reduce((t, s) => t + s.revenue, 0);
    expect(out.deltas.revenue).toBeCloseTo(((dayRevenue(d1) - dayRevenue(d2)) / dayRevenue(d2)) * 100, 2);
    // Zones are publisher × zone id summed over the range: 1001 12,5 + 30; 2002 4 + 0,5; 3003 1.
    expect(out.top_zones.map((z: { rank: number; publisher: string; zone_id: string }) => [z.rank, z.publisher, z.zone_id])).toEqual([
      [1, 'Pub Uno', '1001'],
      [2, 'Pub Dos', '2002'],
      [3, '=SUM(A1:A9)', '3003'],
    ]);
    expect(out.top_zones[0].revenue).toBeCloseTo(42.5, 9);
    expect(out.top_zones[0].margin).toBeCloseTo(12.75, 9);
    expect(out.top_zones[1].revenue).toBeCloseTo(4.5, 9);
    // Advertisers: AdNova 42,5, BidSphere 4, Clickora 1 + 0,5.
    expect(out.top_advertisers.map((a: { rank: number; advertiser: string }) => [a.rank, a.advertiser])).toEqual([
      [1, 'AdNova'],
      [2, 'BidSphere'],
      [3, 'Clickora'],
    ]);
    expect(out.top_advertisers[2].revenue).toBeCloseTo(1.5, 9);
    expect(out.daily.map((d: { date: string }) => d.date)).toEqual([d2, d1]);
  });

  const presets = ['hoy', 'ayer', 'ultimos7', 'ultimos7_hoy', 'mes_actual', 'mes_anterior'] as const;
  const last7 = { ...presetRange('ultimos7_hoy', new Date(), 'UTC'), preset: 'ultimos7_hoy' as const };
  const rangeFor = (preset: PresetKey | null) =>
    preset === null || preset === last7.preset ? last7 : { ...presetRange(preset, new Date(), 'UTC'), preset };
  const firstLoad = async () => {
    const api = await seeded.server.admin();
    const load = dashboardLoader(api, rangeFor, {});
    const query = { ...FIRST_PAGE, preset: last7.preset };
    return { load, initial: await load(query, query) };
  };

  it('draws cards, ▲/▼ deltas, the trend and the Analytics table; s/r sort on the server and 2 loads Ayer', async () => {
    const { load, initial } = await firstLoad();
    const ui = render(<Dashboard initial={initial} preset={last7.preset} interactive presets={presets} load={load} />);
    const frame = () => normalise(ui.lastFrame() ?? '');
    expect(frame()).toContain('Últimos 7 días (con hoy) (DD/MM/YYYY – DD/MM/YYYY)');
    // Every date on the screen reads dd/MM/yyyy: no ISO day anywhere.
    expect(frame()).not.toContain('YYYY-MM-DD');
    for (const card of ['Revenue', 'Margin', 'Impressions', 'Clicks', 'CTR%', 'TQ Avg']) expect(frame()).toContain(card);
    expect(frame()).toContain(formatMoney(sum(inDefaultRange, 'revenue')));
    // Revenue fell from the day before to yesterday; impressions rose.
    const deltas = initial.deltas;
    expect(deltas.revenue!).toBeLessThan(0);
    expect(deltas.impressions!).toBeGreaterThan(0);
    expect(frame()).toContain(`▼ ${formatPercent(Math.abs(deltas.revenue!))}`);
    expect(frame()).toContain(`▲ ${formatPercent(deltas.impressions!)}`);
    expect(frame()).toContain('Trends · Revenue');
    expect(frame()).toContain('#1 Pub Uno - 1001');
    expect(frame()).toMatch(/Date\s+Impr\.\s+M\. Impr\.\s+Clicks\s+CTR%\s+CPM\s+CPC\s+Rev\s+P\.Revenue\s+Marg\.\s+Marg %\s+TQ/);
    expect(frame()).toContain('Página 1 de 1');
    // 'Totales' is the server's: its TQ is the TQ Avg card's, every cell as the web shows it.
    expect(initial.daily.totals.tq).toBe(initial.overview.summary.tq);
    const totalsLine = frame()
      .split('\n')
      .find((l) => l.startsWith('Totales'))!;
    expect(
      totalsLine
        .trim()
        .split(/\s{2,}/)
        .slice(1),
    ).toEqual(DASHBOARD_COLUMNS.slice(1).map((c) => formatMetric(c.key, initial.daily.totals[c.key as keyof ReportTotals])));

    await keyboardReady(ui.stdin);
    ui.stdin.write('s');
    await waitFor(() => frame().includes('Date ▲'));
    // The Analytics rows' impressions, top to bottom: the day before (21.000) first when ascending.
    const impressions = () => [...frame().matchAll(/^DD\/MM\/YYYY\s+([\d.]+)\s/gm)].map((m) => m[1]);
    expect(impressions()).toEqual(['21.000', '45.000']);
    ui.stdin.write('r');
    await waitFor(() => frame().includes('Date ▼'));
    expect(impressions()).toEqual(['45.000', '21.000']);
    ui.stdin.write('s');
    await waitFor(() => frame().includes('Impr. ▲'));

    ui.stdin.write('2');
    await waitFor(() => frame().includes('Ayer (DD/MM/YYYY)'));
    expect(frame()).toContain(formatMoney(SEED.filter((s) => s.date === d1).reduce((t, s) => t + s.revenue, 0)));
    ui.unmount();
  });

  it('on a short terminal shows one-line cards with deltas, and Tab switches between the summary and the table', async () => {
    const { load, initial } = await firstLoad();
    const ui = render(<Dashboard initial={initial} preset={last7.preset} interactive load={load} terminalRows={24} />);
    const frame = () => normalise(ui.lastFrame() ?? '');
    const revenueLine = frame()
      .split('\n')
      .find((l) => l.startsWith('Revenue'))!;
    expect(revenueLine).toMatch(
      new RegExp(`^Revenue\\s+\\${formatMoney(sum(inDefaultRange, 'revenue'))}\\s+▼ ${formatPercent(Math.abs(initial.deltas.revenue!))}`),
    );
    expect(frame()).toContain('Top Zones');
    expect(frame()).not.toContain('Analytics');
    expect(frame().split('\n').length).toBeLessThanOrEqual(24);
    await keyboardReady(ui.stdin);
    ui.stdin.write('\t');
    await waitFor(() => frame().includes('Analytics'));
    expect(frame()).not.toContain('Top Zones');
    ui.unmount();
  });

  it('at a terminal with a keyboard, s sorts the Analytics table and q ends the command with exit 0', async () => {
    const kb = await atKeyboard((o) => cli(['dashboard', '--from', old, '--to', today], o), atRest, 'the keyboard and the key line');
    await kb.press('s', (f) => f.includes('orden: Date ▲'), 'the table sorted by Date');
    const r = await kb.quit();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(strip(r.stdout)).toContain('Página 1 de 1 · 3 filas');
    expect(strip(r.stdout)).toContain('orden: Date ▲');
    expect(strip(r.stdout)).toContain('q salir');
    expect(kb.rawModes.at(-1)).toBe(false);
  });

  it('on a terminal without a keyboard draws once and exits 0', async () => {
    const r = await cli(['dashboard', '--preset', 'ayer'], { isTTY: true });
    expect(r.code).toBe(0);
    const text = normalise(r.stdout);
    expect(text).toContain('Ayer (DD/MM/YYYY)');
    expect(text).toContain('Analytics');
    expect(text).not.toContain('YYYY-MM-DD');
    expect(text).not.toContain('q salir');
  });

  it('arrows and sparkline follow the sign and shape of the data', () => {
    expect(deltaText(12.345)).toEqual({ text: '▲ 12,35%', color: 'green' });
    expect(deltaText(-3.2)).toEqual({ text: '▼ 3,20%', color: 'red' });
    expect(deltaText(0)).toEqual({ text: '▼ 0,00%', color: 'red' });
    expect(deltaText(null)).toEqual({ text: '-' });
    expect(sparkline([0, 5, 10])).toBe('▁▅█');
    expect(sparkline([3, 3])).toBe('▄▄');
    expect(sparkline(Array.from({ length: 120 }, (_, i) => i))).toHaveLength(60);
  });
});
