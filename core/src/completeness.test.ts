// The words every face says about incomplete money figures: days dd/MM/yyyy (runs of three or
// more as a range), unsynced spend never called 0, the revenue left apart, estimated and partial
// days, and when spend was last synced in the reporting time zone.
import { describe, expect, test } from 'vitest';
import { completenessNotes, daysText, syncedAtText } from './completeness.js';
import { formatMoney } from './format.js';

const none = { unsynced_days: [], estimated_days: [], partial_days: [], spend_unsynced: false, unsynced_revenue: 0 };
const money = (v: number) => formatMoney(v);

describe('days as people read them', () => {
  test.each([
    [[], ''],
    [['2026-11-28'], '28/11/2026'],
    [['2026-11-28', '2026-11-27'], '27/11/2026 y 28/11/2026'],
    [['2026-11-20', '2026-11-21', '2026-11-22', '2026-11-28'], 'del 20/11/2026 al 22/11/2026 y 28/11/2026'],
    [['2026-12-31', '2027-01-01', '2027-01-02', '2027-01-05', '2027-01-07'], 'del 31/12/2026 al 02/01/2027, 05/01/2027 y 07/01/2027'],
  ])('%j → %s', (days, text) => {
    expect(daysText(days)).toBe(text);
  });
});

describe('completeness notes', () => {
  test('nothing lacking: no note', () => {
    expect(completenessNotes(none, money)).toEqual([]);
  });

  test('unsynced days are left out of spend, profit, ROI and ROAS — not 0 — and the revenue of their visits is named apart', () => {
    const [note] = completenessNotes({ ...none, unsynced_days: ['2026-11-28'], unsynced_revenue: 12.5 }, money);
    expect(note).toEqual({
      kind: 'unsynced',
      text: 'Gasto de Meta sin sincronizar el 28/11/2026: esos días no cuentan en el gasto, el beneficio, el ROI ni el ROAS (no son 0); el revenue de sus visitas, $12,50, va aparte.',
    });
  });

  test('no day synced at all: spend and what follows from it are unknown', () => {
    const [note] = completenessNotes({ ...none, unsynced_days: ['2026-11-27', '2026-11-28'], spend_unsynced: true }, money);
    expect(note.text).toBe(
      'Gasto de Meta sin sincronizar (27/11/2026 y 28/11/2026): el gasto, el beneficio, el ROI y el ROAS no se conocen (no son 0).',
    );
  });

  test('estimated and partial days each get their sentence', () => {
    const notes = completenessNotes({ ...none, estimated_days: ['2026-11-28'], partial_days: ['2026-11-28'] }, money);
    expect(notes.map((n) => n.kind)).toEqual(['estimated', 'partial']);
    expect(notes[0].text).toContain('Revenue estimado el 28/11/2026');
    expect(notes[0].text).toContain('no baja al llegar más visitas');
    expect(notes[1].text).toBe('Informe de zonas parcial el 28/11/2026: su revenue es una estimación hasta que se importe el informe final.');
  });
});

describe('when spend was last synced', () => {
  test('in the reporting time zone, dd/MM/yyyy', () => {
    expect(syncedAtText('2026-11-28T23:30:00.000Z', 'Europe/Madrid')).toBe('Gasto sincronizado el 29/11/2026 a las 00:30 (Europe/Madrid)');
    expect(syncedAtText('2026-11-28T23:30:00.000Z', 'America/Mexico_City')).toBe(
      'Gasto sincronizado el 28/11/2026 a las 17:30 (America/Mexico_City)',
    );
  });

  test('never', () => {
    expect(syncedAtText(null, 'UTC')).toBe('El gasto de Meta no se ha sincronizado nunca');
  });
});
