// How `adops tail --alerts` lays an alert out on a terminal: the text wraps under its own start
// at every width, a figure keeps its unit on its line, and read back it is the whole text.
import { describe, expect, it } from 'vitest';
import { alertText, type Alert } from '@adops/core';
import { alertLine } from '../src/alert-tail.js';

const alert: Alert = {
  id: 'a1',
  rule_id: 'r1',
  rule_name: 'Campañas que pierden dinero',
  kind: 'campaign_roi',
  subject: '120210000000530573',
  state: 'open',
  message:
    'Campaña cursos online - 2026-09-09 (120210000000530573): ROI -18,1 % (umbral 0,0 %), gasto 323,83, revenue 265,33 del 2026-11-24 al 2026-11-26',
  value: -18.1,
  threshold: 0,
  figures: {},
  opened_at: '2026-11-26T07:58:00.000Z',
  fired_at: '2026-11-26T07:58:00.000Z',
  resolved_at: null,
  muted_until: null,
  muted_by: null,
  fire_count: 1,
  deliveries: [],
};

describe('alertLine', () => {
  it('without columns (a pipe) is one line', () => {
    expect(alertLine({ event: 'fired', alert }, 'UTC').split('\n')).toHaveLength(1);
  });

  it('at every terminal width from 60 to 160, fits, hangs under the text and keeps each % by its figure', () => {
    const one = alertLine({ event: 'fired', alert }, 'UTC');
    const head = one.slice(0, one.length - alertText(alert).length);
    for (let columns = 60; columns <= 160; columns++) {
      const lines = alertLine({ event: 'fired', alert }, 'UTC', columns).split('\n');
      expect(lines[0].startsWith(head)).toBe(true);
      for (const line of lines) expect(line.length, `${columns}: ${line}`).toBeLessThanOrEqual(columns);
      for (const line of lines.slice(1)) {
        expect(line.slice(0, head.length).trim(), `${columns}: ${line}`).toBe('');
        expect(line.slice(head.length), `${columns}: ${line}`).not.toMatch(/^(\s|%)/);
      }
      const text = lines.map((l) => l.slice(head.length)).join(' ');
      expect(text, String(columns)).toBe(alertText(alert));
    }
  });

  it('on a terminal too narrow for a text column, the line is left whole for the terminal to fold', () => {
    expect(alertLine({ event: 'resolved', alert }, 'UTC', 30).split('\n')).toHaveLength(1);
  });

  it("starts with the alert's time on the reporting zone's clock, dd/MM/yyyy, whatever this machine's zone", () => {
    expect(alertLine({ event: 'fired', alert }, 'America/Bogota').startsWith('26/11/2026 02:58  DISPARADA  ')).toBe(true);
    expect(alertLine({ event: 'fired', alert }, 'Asia/Tokyo').startsWith('26/11/2026 16:58  DISPARADA  ')).toBe(true);
  });
});
