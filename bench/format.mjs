// Figures as the benches print them, and the calendar arithmetic they share.

/** Milliseconds: whole from 100 on, one decimal below. */
export const fmtMs = (ms) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
export const fmtInt = (n) => n.toLocaleString('en-US');
export const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
/** The p-th percentile (0…1) of an ascending list: the value at or above that share of it. */
export const pct = (sorted, p) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
export const median = (xs) =>
  pct(
    [...xs].sort((a, b) => a - b),
    0.5,
  );
export const pad = (s, n) => String(s).padEnd(n);
export const lpad = (s, n) => String(s).padStart(n);
/** Bytes as KB, or MB from 1 MB on. */
export const kb = (b) => (b >= 1048576 ? `${(b / 1048576).toFixed(1)} MB` : `${(b / 1024).toFixed(1)} KB`);
export const ymd = (d) => d.toISOString().slice(0, 10);
export const addDays = (s, n) => ymd(new Date(Date.parse(`${s}T00:00:00Z`) + n * 86_400_000));
