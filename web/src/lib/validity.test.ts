import { describe, expect, test } from 'vitest';
import { fieldProblem, type CheckedControl } from './validity';

const fine = {
  valid: true,
  valueMissing: false,
  typeMismatch: false,
  badInput: false,
  rangeUnderflow: false,
  rangeOverflow: false,
  stepMismatch: false,
  tooLong: false,
  tooShort: false,
  patternMismatch: false,
};
const control = (problem: Partial<CheckedControl['validity']>, rest: Partial<CheckedControl> = {}): CheckedControl => ({
  validity: { ...fine, valid: false, ...problem },
  type: 'text',
  ...rest,
});

describe('what a form says about a field, in Spanish and never the browser’s words', () => {
  test.each([
    ['an empty required field', control({ valueMissing: true }), 'Este campo es obligatorio.'],
    ['an e-mail without @', control({ typeMismatch: true }, { type: 'email' }), 'Escribe un email válido, como nombre@dominio.com.'],
    ['a URL without scheme', control({ typeMismatch: true }, { type: 'url' }), 'Escribe una URL completa, que empiece por https://.'],
    ['a number below its minimum', control({ rangeUnderflow: true }, { type: 'number', min: '0.5' }), 'Debe ser al menos 0,5.'],
    ['a number above its maximum', control({ rangeOverflow: true }, { type: 'number', max: '1' }), 'Debe ser como máximo 1.'],
    ['a fraction where whole numbers go', control({ stepMismatch: true }, { type: 'number', step: '1' }), 'Escribe un número entero.'],
    ['letters in a number box', control({ badInput: true }, { type: 'number' }), 'Escribe un número.'],
    ['a text past its length', control({ tooLong: true }, { maxLength: 120 }), 'Admite como máximo 120 caracteres.'],
  ])('%s', (_, c, message) => {
    expect(fieldProblem(c)).toBe(message);
  });

  test('a valid field has nothing to say', () => {
    expect(fieldProblem({ validity: fine, type: 'email' })).toBeNull();
  });
});
