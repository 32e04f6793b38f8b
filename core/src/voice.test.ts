// What a refused field says: Spanish words, the field by its label, one wording per situation,
// over every input schema of the contract.
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contract, type Route } from './contract/index.js';
import { AlertRuleSpec, CreateAlertRule } from './contract/alerts.js';
import { CreateTokenBody, CreateUserBody } from './contract/admin.js';
import { AuditQuery } from './contract/audit.js';
import { FIELD_LABELS, fieldLabel } from './field-labels.js';
import { DATE_RANGE_REVERSED, issueDetail, spanishIssue, zodDetail } from './voice.js';

beforeAll(() => {
  z.config({ localeError: spanishIssue });
});

const detailOf = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input);
  if (r.success) throw new Error(`accepted ${JSON.stringify(input)}`);
  return zodDetail(r.error);
};

/** What a user must never read: key paths, zod's English, comparison symbols. */
export const LEAKS =
  /params\.|_ids\.|start_date|end_date|\bsince\b|\buntil\b|\.0\b|Expected|Invalid|Required|received|>=|<=|Inválido|se esperaba|Demasiado (grande|pequeño)/;
const FIELD_KEYS = new RegExp(
  `(^|[^\\wÀ-ÿ])(${Object.keys(FIELD_LABELS)
    .filter((k) => /[_A-Z.]/.test(k))
    .join('|')
    .replaceAll('.', '\\.')})(?![\\w])`,
);

describe('a refused field in the user words', () => {
  it('names a rule parameter by its label, not its key path', () => {
    expect(detailOf(AlertRuleSpec, { kind: 'tq_low', params: { scope: 'zone', threshold: 0.5, hours: 0 } })).toBe('Horas: debe ser al menos 1');
  });

  it('names an element of a list by its place', () => {
    expect(detailOf(CreateTokenBody, { publisher_name: 'Pub', allowed_ips: ['10.0.0.300'] })).toBe(
      'IPs permitidas (1.ª): «10.0.0.300» no es una dirección IP ni un rango CIDR (IPv4 o IPv6)',
    );
  });

  it('says what is wrong with an e-mail and a long name', () => {
    expect(detailOf(CreateUserBody, { first_name: 'Ana', email: 'ana@', password: 'password-123' })).toBe(
      'Email: no es una dirección de correo válida',
    );
    expect(detailOf(CreateAlertRule, { name: 'x'.repeat(121), kind: 'ip_burst', params: { visits: 1, minutes: 1 } })).toBe(
      'Nombre: como mucho 120 caracteres',
    );
  });

  it('refuses an empty number as missing, never as 0', () => {
    const base = { name: 'r', kind: 'ip_burst', params: { visits: 1, minutes: 1 } };
    expect(detailOf(CreateAlertRule, { ...base, cooldown_minutes: null })).toBe('Espera entre avisos: es obligatorio');
    expect(detailOf(CreateAlertRule, { ...base, cooldown_minutes: '' })).toBe('Espera entre avisos: es obligatorio');
  });

  it('keeps a TQ threshold on the TQ scale (0 to 1)', () => {
    expect(detailOf(AlertRuleSpec, { kind: 'tq_low', params: { scope: 'zone', threshold: 5, hours: 6 } })).toBe('Umbral: debe ser como máximo 1');
  });

  it('says a reversed date range the same way on every route', () => {
    expect(detailOf(AuditQuery, { since: '2025-03-02', until: '2025-03-01' })).toBe(DATE_RANGE_REVERSED);
    expect(detailOf(contract.dashboard.overview.query, { start_date: '2025-03-02', end_date: '2025-03-01' })).toBe(DATE_RANGE_REVERSED);
    expect(detailOf(contract.referrers.report.body, { startDate: '2025-03-02T00:00:00Z', endDate: '2025-03-01T00:00:00Z' })).toBe(
      DATE_RANGE_REVERSED,
    );
    expect(detailOf(contract.campaigns.insights.query, { from_date: '2025-03-02', to_date: '2025-03-01' })).toBe(DATE_RANGE_REVERSED);
    expect(detailOf(contract.profit.table.body, { start_date: '2025-03-02', end_date: '2025-03-01' })).toBe(DATE_RANGE_REVERSED);
  });

  it('says a list sent for the whole body must be an object, and a field given as a list must be given once', () => {
    expect(detailOf(CreateUserBody, [1, 2, 3])).toBe('Debe ser un objeto con sus campos');
    expect(detailOf(contract.dashboard.overview.query, { start_date: ['2025-03-01', '2025-03-02'], end_date: '2025-03-03' })).toBe(
      'Fecha de inicio: debe indicarse una sola vez',
    );
  });

  it('capitalises a predicate about the whole input', () => {
    const r = z.object({ a: z.string() }).strict().safeParse({ a: 'x', b: 1 });
    expect(issueDetail(r.error!.issues[0])).toBe('Campo no admitido: b');
  });

  it('labels nested and listed fields', () => {
    expect(fieldLabel(['params', 'hours'])).toBe('Horas');
    expect(fieldLabel(['action', 'cooldown_minutes'])).toBe('Espera entre acciones');
    expect(fieldLabel(['rates', 2, 'rate'])).toBe('Tipo de cambio (3.º)');
    expect(fieldLabel([])).toBeNull();
  });
});

// ---- Every input schema of the contract, fed bad values field by field ----

type Shape = Record<string, z.ZodType>;
/** The object shape under wrappers (optional, default, pipe, effects), or null. */
function shapeOf(s: z.ZodType | undefined, depth = 0): Shape | null {
  if (!s || depth > 8) return null;
  const def = (s as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  if (def.type === 'object') return def.shape as Shape;
  for (const k of ['innerType', 'in', 'schema', 'left']) if (def[k]) return shapeOf(def[k] as z.ZodType, depth + 1);
  return null;
}

const BAD_VALUES: unknown[] = [null, '', 'x', 'x'.repeat(5000), -1, 1.5, 1e15, {}, ['x'], [{}], true];
const RANGES: Array<[string, string]> = [
  ['start_date', 'end_date'],
  ['startDate', 'endDate'],
  ['from_date', 'to_date'],
  ['since', 'until'],
];

/** Inputs that break the schema in one field at a time (nested objects too), plus missing and reversed ranges. */
function badInputs(schema: z.ZodType): unknown[] {
  const shape = shapeOf(schema);
  const out: unknown[] = [undefined, null, 'x', []];
  if (!shape) return out;
  out.push({});
  for (const [key, field] of Object.entries(shape)) {
    for (const v of BAD_VALUES) out.push({ [key]: v });
    const inner = shapeOf(field);
    if (inner) for (const [sub] of Object.entries(inner)) for (const v of BAD_VALUES) out.push({ [key]: { [sub]: v } });
  }
  for (const [a, b] of RANGES) if (a in shape) out.push({ [a]: '2025-03-02', [b]: '2025-03-01' });
  return out;
}

const routes = Object.entries(contract).flatMap(([area, table]) =>
  Object.entries(table as Record<string, Route>).map(([name, r]) => [`${area}.${name}`, r] as const),
);

describe('every input schema of the contract', () => {
  it.each(routes)('%s: every refused field reads in Spanish, by its label', (_name, r) => {
    for (const schema of [r.params, r.query, r.body]) {
      if (!schema) continue;
      for (const input of badInputs(schema)) {
        const result = schema.safeParse(input);
        if (result.success) continue;
        for (const issue of result.error.issues) {
          // A refused sort lists the sort keys the API takes (the terminal types them): values, not field names.
          const detail = issueDetail(issue).replace(/claves: .*$/, '');
          expect(detail, JSON.stringify(input)?.slice(0, 120)).not.toMatch(LEAKS);
          expect(detail, JSON.stringify(input)?.slice(0, 120)).not.toMatch(FIELD_KEYS);
        }
      }
    }
  });

  it('every key a route takes has a label', () => {
    const missing = new Set<string>();
    const walk = (s: z.ZodType | undefined, seen: Set<unknown>) => {
      if (!s || seen.has(s)) return;
      seen.add(s);
      const def = (s as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
      if (def.type === 'object')
        for (const [k, v] of Object.entries(def.shape as Shape)) {
          if (fieldLabel([k]) === k) missing.add(k);
          walk(v, seen);
        }
      for (const k of ['innerType', 'in', 'out', 'element', 'schema', 'left', 'right', 'valueType']) if (def[k]) walk(def[k] as z.ZodType, seen);
      for (const o of (def.options as z.ZodType[] | undefined) ?? []) walk(o, seen);
    };
    for (const [, r] of routes) for (const s of [r.params, r.query, r.body]) walk(s, new Set());
    expect([...missing]).toEqual([]);
  });
});
