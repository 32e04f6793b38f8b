// A button that downloads a server export (every matching row, streamed by the server as CSV):
// 'Exportando…' while it runs, and a visible error when the export fails.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { downloadResponse } from '../lib/download';
import { errorText } from '../lib/errors';
import { secondaryButton } from './styles';

export interface ExportButtonProps {
  label: string;
  /** The name the file is saved under. */
  file: string;
  /** Opens the export (e.g. `api.open(route, {...query, format: 'csv'}, {signal})`). */
  open: (signal: AbortSignal) => Promise<Response>;
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
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const run = async () => {
    const abort = new AbortController();
    controller.current = abort;
    setBusy(true);
    setError(null);
    try {
      await downloadResponse(file, await open(abort.signal));
    } catch (e) {
      if (!abort.signal.aborted) setError(e);
    } finally {
      if (!abort.signal.aborted) setBusy(false);
    }
  };

  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <button type="button" className={className} onClick={() => void run()} disabled={disabled || busy} aria-busy={busy}>
        {icon}
        {busy ? busyLabel : label}
      </button>
      {error != null && (
        <span role="alert" className="text-sm text-red-600">
          No se pudo exportar: {errorText(error, 'error desconocido')}
        </span>
      )}
    </span>
  );
}
