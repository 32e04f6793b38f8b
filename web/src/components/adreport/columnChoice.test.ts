// The Ad Report's remembered column choice: only known columns are read back, anything
// unreadable hides nothing, and the last visible column cannot be hidden.
import { describe, expect, test } from 'vitest';
import { parseHidden, toggleHidden } from './columnChoice';

const KNOWN = ['geo', 'source', 'revenue'];

describe('column choice', () => {
  test('the stored list is read back with unknown keys and non-strings dropped; a broken text hides nothing', () => {
    expect(parseHidden('["geo","password",3]', KNOWN)).toEqual(new Set(['geo']));
    expect(parseHidden('{', KNOWN)).toEqual(new Set());
    expect(parseHidden('{"geo":true}', KNOWN)).toEqual(new Set());
    expect(parseHidden(null, KNOWN)).toEqual(new Set());
  });

  test('a toggle hides or shows one column, but never hides the last one shown', () => {
    const one = toggleHidden(new Set(), 'geo', KNOWN);
    expect(one).toEqual(new Set(['geo']));
    const two = toggleHidden(one, 'source', KNOWN);
    expect(toggleHidden(two, 'revenue', KNOWN)).toEqual(two);
    expect(toggleHidden(two, 'geo', KNOWN)).toEqual(new Set(['source']));
  });
});
