import { expect, test } from 'vitest';
import { profitRowLabel } from './profit-labels.js';

test('a row is named by Meta’s name, else its key; a day reads dd/MM/yyyy; no key says which', () => {
  expect(profitRowLabel('campaign', { key: '120001', name: 'Hoteles playa' })).toBe('Hoteles playa');
  expect(profitRowLabel('adset', { key: '130002', name: null })).toBe('130002');
  expect(profitRowLabel('keyword', { key: 'hoteles playa', name: null })).toBe('hoteles playa');
  expect(profitRowLabel('day', { key: '2026-11-27', name: null })).toBe('27/11/2026');
  expect(profitRowLabel('campaign', { key: null, name: null })).toBe('(sin campaña)');
  expect(profitRowLabel('ad', { key: null, name: null })).toBe('(sin anuncio)');
  expect(profitRowLabel('day', { key: null, name: null })).toBe('-');
});
