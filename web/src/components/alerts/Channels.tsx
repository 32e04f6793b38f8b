// 'Mis canales': where the user's alerts reach them (bell, e-mail, daily digest, a webhook and
// how its calls are signed).
import { type FormEvent, useEffect, useState } from 'react';
import type { AlertSubscription } from '@adops/core';
import { Card } from '../Card';
import { CheckedForm } from '../CheckedForm';
import { ErrorBanner } from '../ErrorBanner';
import { FormField } from '../FormField';
import { MarkedText } from '../icons';
import { Loading } from '../Loading';
import { inputClass, primaryButton } from '../styles';
import { useApi } from '../../hooks/useApi';
import { useAsync } from '../../hooks/useAsync';
import { errorText } from '../../lib/errors';

export function Channels() {
  const api = useApi();
  const current = useAsync(() => api.alerts.subscription(), [api]);
  const [draft, setDraft] = useState<AlertSubscription | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    if (current.data) setDraft(current.data);
  }, [current.data]);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!draft) return;
    setMessage(null);
    try {
      const saved = await api.alerts.setSubscription({
        in_app: draft.in_app,
        email: draft.email,
        webhook_url: draft.webhook_url || null,
        rule_ids: draft.rule_ids,
        digest: draft.digest,
      });
      setDraft(saved);
      setMessage('✅ Canales guardados');
    } catch (err) {
      setMessage(`❌ ${errorText(err, 'Error al guardar los canales')}`);
    }
  };
  return (
    <Card title="Mis canales">
      {current.error ? <ErrorBanner error={current.error} fallback="Error al cargar tus canales" /> : null}
      {!draft ? (
        <Loading />
      ) : (
        <CheckedForm onSubmit={save} className="grid gap-3" aria-label="Mis canales">
          <label className="flex items-center gap-2 text-sm text-gray-700">
            <input type="checkbox" checked={draft.in_app} onChange={(e) => setDraft({ ...draft, in_app: e.target.checked })} />
            En la app (campana)
          </label>
          <label className="flex items-center gap-2 text-sm text-gray-700">
            <input type="checkbox" checked={draft.email} onChange={(e) => setDraft({ ...draft, email: e.target.checked })} />
            Por email a mi dirección
          </label>
          <label className="flex items-center gap-2 text-sm text-gray-700">
            <input type="checkbox" checked={draft.digest} onChange={(e) => setDraft({ ...draft, digest: e.target.checked })} />
            Resumen diario por email (tarjetas de ayer, mayores cambios y alertas abiertas)
          </label>
          <FormField id="webhook-url" label="Webhook (Slack u otro; vacío: ninguno)">
            <input
              id="webhook-url"
              className={inputClass}
              placeholder="https://hooks.slack.com/services/…"
              value={draft.webhook_url ?? ''}
              onChange={(e) => setDraft({ ...draft, webhook_url: e.target.value })}
            />
            {draft.webhook_secret && (
              <p className="mt-1 break-all text-xs text-gray-500">
                Firma: cabecera <code>X-Adops-Signature</code> = <code>sha256=</code>HMAC-SHA-256 de «<code>X-Adops-Timestamp</code>.cuerpo» con la
                clave <code data-testid="webhook-secret">{draft.webhook_secret}</code>
              </p>
            )}
          </FormField>
          <div className="flex items-center gap-3">
            <button type="submit" className={primaryButton}>
              Guardar canales
            </button>
            {message && (
              <span
                role={message.startsWith('❌') ? 'alert' : 'status'}
                className={`text-sm ${message.startsWith('❌') ? 'text-red-600' : 'text-green-700'}`}
              >
                <MarkedText text={message} />
              </span>
            )}
          </div>
        </CheckedForm>
      )}
    </Card>
  );
}
