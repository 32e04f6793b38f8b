import { describe, expect, it } from 'vitest';
import { amountForWire, formatAmount, readAmount, toCents } from './amounts.js';

describe('readAmount: amounts typed the Spanish way', () => {
  it.each([
    ['1,50', 150],
    ['1,5', 150],
    ['0,99', 99],
    [',50', 50],
    ['1', 100],
    ['1500', 150_000],
    ['  2,50  ', 250],
    ['007', 700],
    // A single dot with 1–2 digits after it can only be a decimal point (English keyboards, the faces' wire form).
    ['1.50', 150],
    ['1.5', 150],
    ['0.05', 5],
    ['1500.00', 150_000],
    // Dots (or spaces) group thousands in threes; the comma then marks the decimals.
    ['1.500,25', 150_025],
    ['1.500.000', 150_000_000],
    ['12.345.678,9', 1_234_567_890],
    ['1 500', 150_000],
    ['1\u00a0500,25', 150_025],
    ['1\u202f500\u202f000', 150_000_000],
    ['999999999,99', 99_999_999_999],
  ])('"%s" is %s cents', (typed, cents) => {
    expect(readAmount(typed)).toEqual({ ok: true, cents });
  });

  it.each([
    // Thousands in Spanish, decimals in English: 1000× apart, so never guessed.
    ['1.500', 'es ambiguo: escribe 1500 si son miles'],
    ['100.000', 'es ambiguo: escribe 100000 si son miles'],
    ['1,500', 'es ambiguo: escribe 1500 si son miles'],
    // English thousands with a decimal point.
    ['1,500.25', 'usa la coma para los decimales y el punto para los miles'],
    ['1.500,250', 'admite como máximo 2 decimales'],
    ['1,505', 'es ambiguo'],
    ['0,505', 'admite como máximo 2 decimales'],
    ['0.500', 'admite como máximo 2 decimales'],
    ['1.5000', 'admite como máximo 2 decimales'],
    ['1,2345', 'admite como máximo 2 decimales'],
    ['1234.567', 'admite como máximo 2 decimales'],
    ['1.50.0', 'los miles se separan en grupos de tres cifras'],
    ['15.00.000', 'los miles se separan en grupos de tres cifras'],
    ['1 50', 'los miles se separan en grupos de tres cifras'],
    ['1.500 000', 'mezcla puntos y espacios'],
    ['1,50,0', 'tiene más de una coma'],
    ['1,', 'faltan los decimales'],
    ['1.', 'faltan los decimales'],
    ['-1', 'no puede ser negativo'],
    ['−1,50', 'no puede ser negativo'],
    ['', 'escribe un importe'],
    ['   ', 'escribe un importe'],
    ['abc', 'escribe solo cifras'],
    ['1e3', 'escribe solo cifras'],
    ['0x10', 'escribe solo cifras'],
    ['Infinity', 'escribe solo cifras'],
    ['1,50 €', 'escribe solo cifras'],
    ['$5', 'escribe solo cifras'],
    ['+5', 'escribe solo cifras'],
    [',', 'escribe solo cifras'],
    ['.', 'escribe solo cifras'],
    ['1000000000', 'es demasiado grande'],
  ])('"%s" is refused: %s', (typed, problem) => {
    const reading = readAmount(typed);
    expect(reading.ok).toBe(false);
    if (!reading.ok) expect(reading.problem).toContain(problem);
  });

  it('never reads the faces’ wire form differently from what was typed', () => {
    for (const typed of ['1,50', '0,05', '1.500,25', '999.999.999,99', '1 000', '3']) {
      const first = readAmount(typed);
      if (!first.ok) throw new Error(first.problem);
      expect(readAmount(amountForWire(first.cents))).toEqual(first);
    }
  });
});

describe('amounts in words', () => {
  it.each([
    [1000, 'EUR', 2, '1.000,00 EUR'],
    [0.05, 'USD', 2, '0,05 USD'],
    [1500, 'JPY', 0, '1.500 JPY'],
  ])('%s %s is "%s"', (units, currency, decimals, text) => expect(formatAmount(units, currency, decimals)).toBe(text));

  it.each([
    [1, 100],
    [0.05, 5],
    [1.1, 110],
    [0.29, 29],
    [19.99, 1999],
  ])('%s units are %s cents', (units, cents) => expect(toCents(units)).toBe(cents));
});
