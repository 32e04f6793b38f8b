// A visible error (never only the console): the server's detail or the given text; and the
// problem of an action, which stays until the user closes it or acts again.
import { errorText } from '../lib/errors';
import { MarkedText } from './icons';

export function ErrorBanner({ error, fallback = 'Error al cargar los datos' }: { error: unknown; fallback?: string }) {
  if (error === null || error === undefined || error === false || error === '') return null;
  return (
    <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-700">
      {errorText(error, fallback)}
    </div>
  );
}

/**
 * What went wrong with something the user did: it stays until they close it or try again
 * (never a browser alert() nor a message that fades by itself). `text` may start with ❌.
 */
export function ProblemBanner({ text, onClose, className = '' }: { text: string | null; onClose: () => void; className?: string }) {
  if (!text) return null;
  return (
    <div className={`flex items-start justify-between gap-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700 ${className}`}>
      <p role="alert">
        <MarkedText text={text.startsWith('❌') ? text : `❌ ${text}`} />
      </p>
      <button type="button" onClick={onClose} className="flex-none rounded px-1 text-xs font-medium text-red-700 underline hover:text-red-900">
        Cerrar
      </button>
    </div>
  );
}
