// What a date field takes: dd/MM/yyyy (one-digit day or month too) or a pasted YYYY-MM-DD, as
// the day 'YYYY-MM-DD'; anything that is not a real day is null (marked, never sent).
import { describe, expect, test } from 'vitest';
import { parseDayText } from './DateInput';

describe('parseDayText', () => {
  test.each([
    ['17/11/2026', '2026-11-17'],
    ['5/3/2026', '2026-03-05'],
    [' 29/02/2024 ', '2024-02-29'],
    ['2026-11-17', '2026-11-17'],
    ['31/12/2025', '2025-12-31'],
  ])('%s is %s', (text, day) => {
    expect(parseDayText(text)).toBe(day);
  });

  test.each(['', '17/11', '11/17/2026', '31/02/2026', '29/02/2025', '00/01/2026', '2026-13-01', '17-11-2026', '17/11/26', 'hoy'])(
    '%j is not a day',
    (text) => {
      expect(parseDayText(text)).toBeNull();
    },
  );
});
