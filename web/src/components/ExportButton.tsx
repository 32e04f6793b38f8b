// A table's download of a server export (every matching row, streamed by the server as CSV), in
// two flavours side by side: 'Descargar CSV' (commas and decimal points, for programs) and
// 'CSV (Excel España)' (semicolons, decimal commas and dd/MM/yyyy dates, opens right in a Spanish
// Excel). 'Exportando…' on the one running, and a visible error when the export fails.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { CsvDialect } from '@adops/core';
import { downloadResponse } from '../lib/download';
import { errorText } from '../lib/errors';
import { secondaryButton } from './styles';

/** The second button's label: the same file for a spreadsheet with Spanish settings. */
export const EXCEL_ES_LABEL = 'CSV (Excel España)';

export interface ExportButtonProps {
  label: string;
  /** The name the file is saved under. */
  file: string;
  /** Opens the export in a CSV dialect (e.g. `api.open(route, {...query, format: 'csv', csv}, {signal})`). */
  open: (signal: AbortSignal, csv: CsvDialect) => Promise<Response>;
  disabled?: boolean;
  className?: string;
  icon?: ReactNode;
  busyLabel?: string;
}

export function ExportButton({
  label,
  file,
  open,
  disabled = false,
  className = secondaryButton,
  icon,
  busyLabel = 'Exportando…',
}: ExportButtonProps) {
  const [busy, setBusy] = useState<CsvDialect | null>(null);
  const [error, setError] = useState<unknown>(null);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const run = async (dialect: CsvDialect) => {
    const abort = new AbortController();
    controller.current = abort;
    setBusy(dialect);
    setError(null);
    try {
      await downloadResponse(file, await open(abort.signal, dialect));
    } catch (e) {
      if (!abort.signal.aborted) setError(e);
    } finally {
      if (!abort.signal.aborted) setBusy(null);
    }
  };

  const button = (dialect: CsvDialect, text: string, extra?: ReactNode) => (
    <button
      type="button"
      className={className}
      onClick={() => void run(dialect)}
      disabled={disabled || busy !== null}
      aria-busy={busy === dialect}
      title={dialect === 'excel-es' ? 'Separado por punto y coma, con coma decimal y fechas dd/MM/aaaa' : undefined}
    >
      {extra}
      {busy === dialect ? busyLabel : text}
    </button>
  );

  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      {button('standard', label, icon)}
      {button('excel-es', EXCEL_ES_LABEL, icon)}
      {error != null && (
        <span role="alert" className="text-sm text-red-600">
          No se pudo exportar: {errorText(error, 'error desconocido')}
        </span>
      )}
    </span>
  );
}
