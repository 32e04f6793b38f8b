// Small display helpers for the terminal (yes/no, time left, the zone times are shown in).
// Dates and times themselves are core's formatDateDMY / formatDateTimeDMY in the reporting
// zone (cli.tz), never this machine's clock.
import { formatPercent, timeZoneLabel } from '@adops/core/lite';

/** 'Horas en Europe/Madrid (UTC+01:00)': said under a table of times ('horas en …' within a line). */
export const zoneNote = (tz: string, inLine = false) => `${inLine ? 'horas' : 'Horas'} en ${timeZoneLabel(tz)}`;

/** ▲ 12,34% in green above 0, ▼ 3,21% in red otherwise, '-' when absent (SPEC's delta cards). */
export function deltaText(value: number | null): { text: string; color?: string } {
  if (value === null || !Number.isFinite(value)) return { text: '-' };
  return value > 0 ? { text: `▲ ${formatPercent(Math.abs(value))}`, color: 'green' } : { text: `▼ ${formatPercent(Math.abs(value))}`, color: 'red' };
}

export const yesNo = (value: boolean) => (value ? 'sí' : 'no');

/** 'en 11 h 59 min', 'en 3 min', 'expirada'. */
export function formatRemaining(ms: number): string {
  if (ms <= 0) return 'expirada';
  const minutes = Math.floor(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days > 0) return `en ${days} d ${hours} h`;
  if (hours > 0) return `en ${hours} h ${mins} min`;
  return `en ${Math.max(1, mins)} min`;
}

/**
 * Prose wrapped at word boundaries to `columns` (a terminal's own wrap breaks words mid-way). A
 * paragraph's own leading spaces stay before its first line; `indent` goes before each line
 * after it (a list item's hanging indent); a word longer than a line is left whole. A figure
 * and its unit ('135,1 %', '67,31 EUR') stay on one line.
 */
export async function wrapProse(text: string, columns: number, indent = ''): Promise<string> {
  const { default: wrapAnsi } = await import('wrap-ansi');
  return text
    .split('\n')
    .map((paragraph) => {
      const lead = /^ */.exec(paragraph)?.[0] ?? '';
      const width = Math.max(20, columns - Math.max(lead.length, indent.length));
      const glued = paragraph.slice(lead.length).replace(FIGURE_UNIT, `$1${GLUE}$2`);
      const [first = '', ...rest] = wrapAnsi(glued, width, { hard: false, trim: true }).replaceAll(GLUE, ' ').split('\n');
      return [lead + first, ...rest.map((l) => indent + l)].join('\n');
    })
    .join('\n');
}

/** Holds a figure to its unit through wrapping: one column wide, never in text (a private-use character). */
const GLUE = '\ue000';
/** A number followed by a space and its unit: a percent sign or an ISO currency code. */
const FIGURE_UNIT = /(\d) (%|[A-Z]{3}\b)/g;
