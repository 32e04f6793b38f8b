import { describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import { Table, displayWidth, type Column } from './Table.js';

interface ZoneRow {
  zone_id: string;
  publisher: string;
  impressions: number;
  revenue: number | null;
}

const money = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? `$${v.toFixed(2)}` : '-');
const columns: Column<ZoneRow>[] = [
  { key: 'zone_id', header: 'Zona' },
  { key: 'publisher', header: 'Publisher', maxWidth: 12 },
  { key: 'impressions', header: 'Impresiones', align: 'right', format: (v) => String(v) },
  { key: 'revenue', header: 'Revenue', align: 'right', format: money },
];
const rows: ZoneRow[] = [
  { zone_id: '101', publisher: 'Diario Ñandú', impressions: 1200, revenue: 15.5 },
  { zone_id: '20045', publisher: 'A publisher with a very long name', impressions: 7, revenue: null },
];

const frameLines = (frame: string | undefined) => (frame ?? '').split('\n');

describe('Table', () => {
  it('draws the header over columns that line up, numbers flush right, and a totals row', () => {
    const { lastFrame, unmount } = render(
      <Table columns={columns} rows={rows} totals={{ impressions: 1207, revenue: 15.5 }} rowKey={(r) => r.zone_id} />,
    );
    const lines = frameLines(lastFrame());
    unmount();
    const [header, rule, first, second, rule2, totals] = lines;
    expect(header).toMatch(/^Zona\s+Publisher\s+Impresiones\s+Revenue$/);
    expect(rule).toMatch(/^─+$/);
    expect(rule2).toMatch(/^─+$/);
    // Left-aligned columns start where their header starts.
    expect(first.indexOf('Diario Ñandú')).toBe(header.indexOf('Publisher'));
    expect(second.indexOf('20045')).toBe(0);
    // Right-aligned columns end where their header ends.
    const end = (line: string, text: string) => line.indexOf(text) + text.length;
    expect(end(first, '1200')).toBe(end(header, 'Impresiones'));
    expect(end(second, '7')).toBe(end(header, 'Impresiones'));
    expect(end(first, '$15.50')).toBe(end(header, 'Revenue'));
    // A missing value shows its format's empty mark; long text is cut with an ellipsis.
    expect(second.trimEnd().endsWith('-')).toBe(true);
    expect(second).toContain('A publisher…');
    expect(second).not.toContain('long name');
    // Totals: the label in the first column, values under their columns.
    expect(totals.startsWith('Total')).toBe(true);
    expect(end(totals, '1207')).toBe(end(header, 'Impresiones'));
    expect(end(totals, '$15.50')).toBe(end(header, 'Revenue'));
    expect(lines).toHaveLength(6);
  });

  it('shows the empty text instead of an empty table', () => {
    const { lastFrame, unmount } = render(<Table columns={columns} rows={[]} emptyText="No hay datos." />);
    expect(lastFrame()).toBe('No hay datos.');
    unmount();
  });

  it('measures wide and combining characters as a terminal does', () => {
    expect(displayWidth('Ñandú')).toBe(5);
    expect(displayWidth('n\u0303')).toBe(1);
    expect(displayWidth('✅ ok')).toBe(5);
    expect(displayWidth('\u001b[1mbold\u001b[22m')).toBe(4);
  });
});
