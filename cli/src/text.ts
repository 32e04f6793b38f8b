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
