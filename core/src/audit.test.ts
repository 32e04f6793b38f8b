// The audit table's one-line summary of a change, as staff read it in Auditoría.
import { describe, expect, it } from 'vitest';
import { auditChangeSummary } from './audit.js';

describe('auditChangeSummary', () => {
  it('names each field that changed, before → after', () => {
    expect(auditChangeSummary({ before: { role: 'staff', name: 'Ana' }, after: { role: 'admin', name: 'Ana' } })).toBe('role: staff → admin');
  });

  it('shows the days a record carries as every table does (dd/MM/yyyy), leaving instants whole', () => {
    const summary = auditChangeSummary({
      before: null,
      after: { inserted: 3, days: [{ date: '2026-11-18', report: 'final' }], at: '2026-11-18T10:00:00.000Z' },
    });
    expect(summary).toContain('inserted: 3');
    expect(summary).toContain('days: [{"date":"18/11/2026","report":"final"}]');
    expect(summary).toContain('at: 2026-11-18T10:00:00.000Z');
  });

  it('is empty when nothing was recorded', () => {
    expect(auditChangeSummary({ before: null, after: null })).toBe('');
  });
});
