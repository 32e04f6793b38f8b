// 'Destino': the base URL and alias the tracking URL is built from, the URL itself and its copy button.
import { Card } from '../Card';
import { MarkedText } from '../icons';
import { inputClass, secondaryButton } from '../styles';
import type { Feedback, FormSetter, FormState } from './campaignForm';
import { Field } from './Field';

export function DestinationCard({
  form,
  set,
  publicSite,
  tracking,
  onCopy,
  copied,
}: {
  form: FormState;
  set: FormSetter;
  /** The provider's public site: the base URL when none is typed. */
  publicSite: string;
  tracking: { url: string | null; problem: string | null };
  onCopy: (url: string) => void;
  /** What the last copy said (none while the created campaign's dialog shows it). */
  copied: Feedback | null;
}) {
  return (
    <Card title="Destino">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="URL base (base_url)">
          {(id) => (
            <input
              id={id}
              type="url"
              value={form.base_url}
              onChange={(e) => set('base_url')(e.target.value)}
              className={inputClass}
              placeholder={publicSite || 'https://'}
            />
          )}
        </Field>
        <Field label="Alias" required>
          {(id) => (
            <input
              id={id}
              required
              maxLength={100}
              value={form.alias}
              onChange={(e) => set('alias')(e.target.value)}
              className={inputClass}
              autoComplete="off"
            />
          )}
        </Field>
        <div className="sm:col-span-2">
          <Field label="URL de seguimiento" hint={tracking.problem ?? 'Meta sustituye los parámetros {{…}} al servir el anuncio.'}>
            {(id) => (
              <div className="flex gap-2">
                <input id={id} readOnly value={tracking.url ?? ''} className={`${inputClass} bg-gray-50 font-mono text-xs`} />
                <button type="button" disabled={!tracking.url} onClick={() => tracking.url && onCopy(tracking.url)} className={secondaryButton}>
                  Copiar
                </button>
              </div>
            )}
          </Field>
          {copied && (
            <p role={copied.ok ? 'status' : 'alert'} className={`mt-1 text-sm ${copied.ok ? 'text-green-700' : 'text-red-600'}`}>
              <MarkedText text={copied.text} />
            </p>
          )}
        </div>
      </div>
    </Card>
  );
}
