// Small display helpers for the terminal (dates on the local clock, yes/no, time left).
const dateTime = new Intl.DateTimeFormat('es-ES', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});

/** '21/11/2026 19:05' on this machine's clock; '-' for a missing or invalid instant. */
export function formatDateTimeLocal(instant: Date | number | string | null | undefined): string {
  if (instant === null || instant === undefined || instant === '') return '-';
  const date = instant instanceof Date ? instant : new Date(instant);
  if (Number.isNaN(date.getTime())) return '-';
  return dateTime.format(date).replace(',', '');
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
