// One voice for refused input: zod's issues in Spanish words, one wording per situation, the
// field named by its label (field-labels.ts). The server answers every 400 with `zodDetail`.
import type { z } from 'zod';
import { fieldLabel } from './field-labels.js';

/** A reversed date range, whichever screen, route or field names it. */
export const DATE_RANGE_REVERSED = 'La fecha de inicio debe ser anterior o igual a la de fin';
/** A date range longer than a report allows. */
export const rangeTooLong = (days: number) => `El rango admite como mucho ${days} días`;

type RawIssue = z.core.$ZodRawIssue;

const TYPE_WORDS: Record<string, string> = {
  string: 'debe ser texto',
  number: 'debe ser un número',
  int: 'debe ser un número entero',
  boolean: 'debe ser sí o no (true o false)',
  array: 'debe ser una lista',
  object: 'debe ser un objeto con sus campos',
  record: 'debe ser un objeto con sus campos',
  map: 'debe ser un objeto con sus campos',
  date: 'debe ser una fecha',
  bigint: 'debe ser un número entero',
};

const FORMAT_WORDS: Record<string, string> = {
  email: 'no es una dirección de correo válida',
  url: 'no es una URL válida',
  date: 'debe ser una fecha AAAA-MM-DD',
  datetime: 'debe ser una fecha y hora ISO 8601',
  uuid: 'no es un identificador válido',
  ipv4: 'no es una dirección IPv4',
  ipv6: 'no es una dirección IPv6',
  cidrv4: 'no es un rango CIDR IPv4',
  cidrv6: 'no es un rango CIDR IPv6',
};

/** "a, b o c": a short list of accepted values, as a sentence says it. */
export const orList = (values: readonly unknown[]): string => {
  const shown = values.slice(0, 8).map(String);
  if (values.length > 8) return `${shown.join(', ')}…`;
  return shown.length < 2 ? (shown[0] ?? '') : `${shown.slice(0, -1).join(', ')} o ${shown[shown.length - 1]}`;
};

/** A bound as Spanish writes it: 10.080, 0,5. */
const n = (v: unknown) =>
  typeof v === 'bigint' || typeof v === 'number' ? Number(v).toLocaleString('es-ES', { useGrouping: true, maximumFractionDigits: 6 }) : String(v);

function sizeWords(iss: { origin?: string; inclusive?: boolean }, bound: unknown, big: boolean): string {
  const b = Number(bound);
  switch (iss.origin) {
    case 'string':
      if (!big && b === 1) return 'no puede estar vacío';
      return `${big ? 'como mucho' : 'como mínimo'} ${n(bound)} ${b === 1 ? 'carácter' : 'caracteres'}`;
    case 'array':
    case 'set':
      if (!big && b === 1) return 'indica al menos uno';
      return `${big ? 'como mucho' : 'al menos'} ${n(bound)} ${b === 1 ? 'elemento' : 'elementos'}`;
    default:
      if (iss.inclusive === false) return `debe ser ${big ? 'menor' : 'mayor'} que ${n(bound)}`;
      return big ? `debe ser como máximo ${n(bound)}` : `debe ser al menos ${n(bound)}`;
  }
}

/**
 * zod's text for an issue no schema worded itself: a predicate in lower case, to follow a
 * label ("Horas: debe ser al menos 1"). Set as zod's `localeError` where the process starts.
 */
export function spanishIssue(iss: RawIssue): string {
  switch (iss.code) {
    case 'invalid_type':
      // Absent, null or an empty text where a value of another kind goes: an empty field, never 0.
      if (iss.input === undefined || iss.input === null || (iss.input === '' && iss.expected !== 'string')) return 'es obligatorio';
      // A query key given twice arrives as a list. A list as the whole input (a JSON body `[…]`)
      // is no repeated key: it is said by its type below ("Debe ser un objeto con sus campos").
      if (Array.isArray(iss.input) && iss.expected !== 'array' && iss.path?.length) return 'debe indicarse una sola vez';
      return TYPE_WORDS[iss.expected] ?? 'no tiene el tipo esperado';
    case 'too_small':
      return sizeWords(iss, iss.minimum, false);
    case 'too_big':
      return sizeWords(iss, iss.maximum, true);
    case 'invalid_format':
      if (iss.format === 'starts_with') return `debe empezar por «${iss.prefix}»`;
      if (iss.format === 'ends_with') return `debe terminar en «${iss.suffix}»`;
      if (iss.format === 'includes') return `debe contener «${iss.includes}»`;
      return FORMAT_WORDS[iss.format] ?? 'no tiene el formato esperado';
    case 'not_multiple_of':
      return `debe ser múltiplo de ${n(iss.divisor)}`;
    case 'invalid_value':
      return iss.values.length === 1 ? `debe ser ${String(iss.values[0])}` : `debe ser ${orList(iss.values)}`;
    case 'unrecognized_keys':
      return `${iss.keys.length === 1 ? 'campo no admitido' : 'campos no admitidos'}: ${orList(iss.keys)}`;
    case 'invalid_key':
      return 'tiene una clave no válida';
    case 'invalid_element':
      return 'tiene un elemento no válido';
    case 'invalid_union': {
      if ('options' in iss && Array.isArray(iss.options)) return `debe ser ${orList(iss.options as unknown[])}`;
      // The branch that came nearest: a value of the right type with the wrong content tells more.
      const branches = (iss.errors ?? []).flat();
      const telling = branches.find((b) => b.code !== 'invalid_type') ?? branches[0];
      return telling?.message ?? 'no es válido';
    }
    default:
      return 'no es válido';
  }
}

/** A whole sentence opens with a capital; anything else («x» no es…, debe ser…) follows a label. */
const startsUpper = (s: string) => s.length > 0 && s[0] === s[0].toUpperCase() && s[0] !== s[0].toLowerCase();

/**
 * One issue as a user reads it: "Label: predicate" when the text is a predicate (lower case),
 * the text alone when a schema wrote a whole sentence (capitalised) or when it is about the
 * whole input.
 */
export function issueDetail(issue: z.core.$ZodIssue): string {
  const text = issue.message;
  if (startsUpper(text)) return text;
  const label = fieldLabel(issue.path);
  return label ? `${label}: ${text}` : text.charAt(0).toUpperCase() + text.slice(1);
}

/** One readable sentence from a zod error: its first problem, in the user's words. */
export function zodDetail(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? issueDetail(issue) : 'Datos no válidos';
}
