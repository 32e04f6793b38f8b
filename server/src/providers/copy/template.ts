// The default copy writer: deterministic Spanish ad copy from a keyword (no network), within
// Meta's recommended lengths: headline ≤ 40 characters, primary text ≤ 125.
import { createHash } from 'node:crypto';
import type { SuggestedCopy } from '@adops/core';

export const HEADLINE_MAX = 40;
export const BODY_MAX = 125;

export interface CopyWriter {
  write(keyword: string): Promise<SuggestedCopy>;
}

const HEADLINES = [
  (k: string) => `Descubre ${k}`,
  (k: string) => `${cap(k)}: guía completa`,
  (k: string) => `Todo sobre ${k}`,
  (k: string) => `${cap(k)} al mejor precio`,
  (k: string) => `Las claves de ${k}`,
];
const BODIES = [
  (k: string) => `Encuentra las mejores opciones de ${k} y compara antes de decidir. Información clara y actualizada.`,
  (k: string) => `¿Buscas ${k}? Te contamos todo lo que necesitas saber en un solo lugar.`,
  (k: string) => `Ideas, consejos y ofertas de ${k} seleccionadas para ti. Entra y descubre más.`,
  (k: string) => `${cap(k)}: compara opciones, precios y opiniones en minutos. Sin complicaciones.`,
];
const FALLBACK_HEADLINE = 'Descubre más aquí';
const FALLBACK_BODY = 'Información clara, consejos y las mejores opciones seleccionadas para ti. Entra y descubre más.';

const cap = (s: string) => s.charAt(0).toLocaleUpperCase('es-ES') + s.slice(1);

/** Cuts text to `max` characters at a word boundary, ending with "…". */
export function clip(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:¿?¡!-]+$/, '')}…`;
}

/** Fills a template with the keyword, shortening the keyword (never the template) to fit. */
function fit(template: (k: string) => string, keyword: string, max: number, fallback: string): string {
  const words = keyword.split(' ');
  for (let n = words.length; n > 0; n--) {
    const k = n === words.length ? keyword : `${words.slice(0, n).join(' ')}…`;
    const text = template(k);
    if (text.length <= max) return text;
  }
  return fallback;
}

export function templateCopy(keyword: string): SuggestedCopy {
  const k = keyword.replace(/\s+/g, ' ').trim().toLocaleLowerCase('es-ES');
  const h = createHash('sha256').update(k).digest();
  return {
    headline: fit(HEADLINES[h[0] % HEADLINES.length], k, HEADLINE_MAX, FALLBACK_HEADLINE),
    body: fit(BODIES[h[1] % BODIES.length], k, BODY_MAX, FALLBACK_BODY),
    cta: 'LEARN_MORE',
  };
}

export class TemplateCopyWriter implements CopyWriter {
  async write(keyword: string): Promise<SuggestedCopy> {
    return templateCopy(keyword);
  }
}
