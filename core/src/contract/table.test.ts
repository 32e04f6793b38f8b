import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_PAGE_SIZE, tableFields } from './table.js';
import { spanishIssue, zodDetail } from '../voice.js';

beforeAll(() => z.config({ localeError: spanishIssue }));

const schema = z.object(tableFields(['date', 'revenue'] as const, 25));

describe('the table fields every table query takes', () => {
  it('defaults to the first page of the table’s size, its default order, JSON', () => {
    expect(schema.parse({})).toEqual({ sort: null, page: 1, page_size: 25, format: 'json', csv: 'standard' });
  });

  it('reads sort, page, page size, format and the CSV dialect from a query string', () => {
    expect(schema.parse({ sort: 'revenue:desc', page: '3', page_size: '100', format: 'csv', csv: 'excel-es' })).toEqual({
      sort: { key: 'revenue', dir: 'desc' },
      page: 3,
      page_size: 100,
      format: 'csv',
      csv: 'excel-es',
    });
  });

  it.each([
    [{ sort: 'zone:asc' }, /columna de orden no válida/],
    [{ sort: 'revenue:sideways' }, /columna de orden no válida/],
    [{ page: '0' }, /^Página: debe ser al menos 1$/],
    [{ page: '-1' }, /entero/],
    [{ page: '1.5' }, /entero/],
    [{ page_size: String(MAX_PAGE_SIZE + 1) }, /^Filas por página: debe ser como máximo 500$/],
    [{ page_size: ['10', '20'] }, /./],
    [{ format: 'xlsx' }, /^Formato: debe ser json, csv o ndjson$/],
    [{ format: 'csv', csv: 'excel' }, /^Formato CSV: debe ser standard o excel-es$/],
    [{ format: 'csv', csv: ['excel-es', 'standard'] }, /^Formato CSV: debe ser standard o excel-es$/],
  ])('refuses %j with a readable message', (input, message) => {
    const result = schema.safeParse(input);
    expect(result.success).toBe(false);
    expect(zodDetail(result.error!)).toMatch(message);
  });
});
