// A visible error (never only the console): the server's detail or the given text.
import { errorText } from '../lib/errors';

export function ErrorBanner({ error, fallback = 'Error al cargar los datos' }: { error: unknown; fallback?: string }) {
  if (error === null || error === undefined || error === false || error === '') return null;
  return (
    <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-700">
      {errorText(error, fallback)}
    </div>
  );
}
