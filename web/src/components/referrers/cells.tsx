// Small pieces the Referrers and Logs screens share: the green CSV button (the server's export
// of every matching row), a referrer cell ('-' when empty, long URLs cut with the full text on
// hover) and a '-' for empty text.
import { EMPTY_CELL, type CsvDialect } from '@adops/core';
import { ExportButton } from '../ExportButton';

const GREEN_BUTTON =
  'inline-flex items-center gap-2 rounded-md bg-green-700 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-green-800 focus:outline-none focus:ring-2 focus:ring-green-500 focus:ring-offset-2 disabled:cursor-not-allowed disabled:opacity-60';

const DOWNLOAD_ICON = (
  <svg className="h-4 w-4" viewBox="0 0 20 20" fill="currentColor" aria-hidden>
    <path d="M10.75 2.75a.75.75 0 00-1.5 0v8.614L6.295 8.235a.75.75 0 10-1.09 1.03l4.25 4.5a.75.75 0 001.09 0l4.25-4.5a.75.75 0 00-1.09-1.03l-2.955 3.129V2.75z" />
    <path d="M3.5 12.75a.75.75 0 00-1.5 0v2.5A2.75 2.75 0 004.75 18h10.5A2.75 2.75 0 0018 15.25v-2.5a.75.75 0 00-1.5 0v2.5c0 .69-.56 1.25-1.25 1.25H4.75c-.69 0-1.25-.56-1.25-1.25v-2.5z" />
  </svg>
);

/** 'Descargar CSV' (and 'CSV (Excel España)'): saves the server's export (`open`) as `file`. */
export function CsvButton({ file, open }: { file: string; open: (signal: AbortSignal, csv: CsvDialect) => Promise<Response> }) {
  return <ExportButton label="Descargar CSV" file={file} open={open} className={GREEN_BUTTON} icon={DOWNLOAD_ICON} />;
}

/** Text or '-' when missing or blank. */
export const orDash = (v: string | number | null | undefined): string => (v == null || String(v).trim() === '' ? EMPTY_CELL : String(v));

export function ReferrerCell({ url, width = 'max-w-[28rem]' }: { url: string | null | undefined; width?: string }) {
  const text = orDash(url);
  if (text === EMPTY_CELL) return <span className="text-gray-500">{EMPTY_CELL}</span>;
  return (
    <span className={`block truncate ${width}`} title={text}>
      {text}
    </span>
  );
}

/** A table cell's text, or a grey '-' when missing or blank. */
export function dashed(v: string | number | null | undefined) {
  const text = orDash(v);
  return text === EMPTY_CELL ? <span className="text-gray-500">{EMPTY_CELL}</span> : text;
}
