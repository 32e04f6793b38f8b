// 'API Tokens': create a publisher's token with its policy; per token, its use, and copy URL,
// edit, renew, delete.
import { useState, type FormEvent } from 'react';
import { ApiError, formatInt, presetRange, publisherDataUrl, type PublisherToken } from '@adops/core';
import { Badge } from '../Badge';
import { Card } from '../Card';
import { CheckedForm } from '../CheckedForm';
import { ErrorBanner, ProblemBanner } from '../ErrorBanner';
import { FormField } from '../FormField';
import { MarkedText } from '../icons';
import { Loading } from '../Loading';
import { ScrollRegion } from '../ScrollRegion';
import { dangerButton, inputClass, primaryButton, secondaryButton } from '../styles';
import { ZoneNote } from '../ZoneNote';
import { useApi } from '../../hooks/useApi';
import { useAsync } from '../../hooks/useAsync';
import { useFlash } from '../../hooks/useFlash';
import { copyText } from '../../lib/clipboard';
import { reportingTimeZone } from '../../lib/timezone';
import { dateTime, haveToken, withDetail } from './actions';
import { draftOf, EMPTY_POLICY, PolicyFields, policyBody, type PolicyDraft } from './tokenPolicy';

/** The browser's calendar yesterday (the publisher URL's range). */
function yesterday(): string {
  const tz = reportingTimeZone();
  return presetRange('ayer', new Date(), tz).from;
}

export function TokensSection() {
  const api = useApi();
  const [tokens, setTokens] = useState<PublisherToken[] | null>(null);
  const load = useAsync(
    async (signal) => {
      const list = await api.admin.listTokens(undefined, { signal });
      setTokens(list);
      return list;
    },
    [api],
  );
  const [name, setName] = useState('');
  const [policy, setPolicy] = useState<PolicyDraft>(EMPTY_POLICY);
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState<{ id: string; draft: PolicyDraft } | null>(null);
  const [copied, flashCopied] = useFlash<string>(2000);
  const [problem, setProblem] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const replace = (updated: PublisherToken) => setTokens((list) => list?.map((x) => (x.id === updated.id ? updated : x)) ?? null);

  async function create(e: FormEvent) {
    e.preventDefault();
    setProblem(null);
    const publisher_name = name.trim();
    if (!publisher_name) {
      setNameError('El nombre del publisher no puede estar vacío.');
      return;
    }
    if (!haveToken(setProblem)) return;
    setBusy(true);
    try {
      const created = await api.admin.createToken({ publisher_name, ...policyBody(policy, false) });
      setTokens((list) => [created, ...(list ?? []).filter((t) => t.id !== created.id)]);
      setName('');
      setPolicy(EMPTY_POLICY);
    } catch (err) {
      setProblem(withDetail('Error al crear token', err));
    } finally {
      setBusy(false);
    }
  }

  async function save(t: PublisherToken, draft: PolicyDraft) {
    setProblem(null);
    if (!haveToken(setProblem)) return;
    try {
      replace(await api.admin.updateToken({ id: t.id, ...policyBody(draft, true) }));
      setEditing(null);
    } catch (err) {
      setProblem(withDetail('Error al actualizar token', err));
    }
  }

  async function copyUrl(t: PublisherToken) {
    const day = yesterday();
    const url = publisherDataUrl(window.location.origin, t.token, day, day);
    setProblem(null);
    try {
      await copyText(url);
      flashCopied(t.id);
    } catch {
      setProblem('Error: no se pudo copiar la URL. Asegúrate de que la pestaña esté activa.');
    }
  }

  async function renew(t: PublisherToken) {
    setProblem(null);
    if (!t.publisher_name.trim()) {
      setProblem('Publisher no válido para renovar.');
      return;
    }
    if (!haveToken(setProblem)) return;
    try {
      replace(await api.admin.renewToken({ publisher_name: t.publisher_name }));
    } catch (err) {
      setProblem(withDetail('Error al renovar token', err));
    }
  }

  async function remove(t: PublisherToken) {
    setProblem(null);
    if (!haveToken(setProblem)) return;
    if (!window.confirm(`¿Eliminar el token de ${t.publisher_name}?`)) return;
    try {
      await api.admin.deleteToken({ id: t.id });
      setTokens((list) => list?.filter((x) => x.id !== t.id) ?? null);
    } catch (err) {
      setProblem(withDetail('Error al eliminar token', err));
    }
  }

  const headers = ['Publisher', 'Creado', 'Caduca', 'IPs permitidas', 'Límite/h', 'Último uso', 'Peticiones', 'Acciones'];
  return (
    <Card title="API Tokens" actions={<ZoneNote />}>
      <CheckedForm onSubmit={create} className="mb-4 flex flex-wrap items-end gap-3" aria-label="Crear token">
        <FormField id="publisher-name" label="Nombre del publisher" className="min-w-[14rem] flex-1" error={nameError ?? undefined}>
          <input
            id="publisher-name"
            className={inputClass}
            value={name}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? 'publisher-name-error' : undefined}
            onChange={(e) => {
              setName(e.target.value);
              setNameError(null);
            }}
            placeholder="p. ej. Publisher Uno"
          />
        </FormField>
        <PolicyFields idPrefix="new-token" draft={policy} onChange={setPolicy} />
        <button type="submit" disabled={busy} className={primaryButton}>
          Crear token
        </button>
      </CheckedForm>
      <ProblemBanner text={problem} onClose={() => setProblem(null)} className="mb-4" />
      {load.loading && !tokens ? (
        <Loading />
      ) : load.error ? (
        <ErrorBanner error={load.error instanceof ApiError && load.error.status === 403 ? 'No autorizado' : load.error} />
      ) : (
        <ScrollRegion label="API Tokens" className="overflow-x-auto rounded-md border border-gray-200">
          <table className="min-w-full divide-y divide-gray-200 text-sm" aria-label="API Tokens">
            <thead className="bg-gray-50">
              <tr>
                {headers.map((h) => (
                  <th
                    key={h}
                    scope="col"
                    className={`whitespace-nowrap px-3 py-2 text-xs font-semibold uppercase tracking-wide text-gray-600 ${
                      h === 'Acciones' ? 'text-right' : h === 'Límite/h' || h === 'Peticiones' ? 'text-right' : 'text-left'
                    }`}
                  >
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100">
              {!tokens || tokens.length === 0 ? (
                <tr>
                  <td colSpan={headers.length} className="px-3 py-6 text-center text-gray-500">
                    No hay tokens creados aún.
                  </td>
                </tr>
              ) : (
                tokens.map((t) =>
                  editing?.id === t.id ? (
                    <tr key={t.id} data-publisher={t.publisher_name} data-token-id={t.id} className="bg-blue-50/40">
                      <td className="px-3 py-2 align-top font-medium text-gray-900">{t.publisher_name}</td>
                      <td colSpan={headers.length - 1} className="px-3 py-2">
                        <CheckedForm
                          className="flex flex-wrap items-end gap-3"
                          aria-label={`Editar token de ${t.publisher_name}`}
                          onSubmit={(e) => {
                            e.preventDefault();
                            void save(t, editing.draft);
                          }}
                        >
                          <PolicyFields idPrefix={`token-${t.id}`} draft={editing.draft} onChange={(draft) => setEditing({ id: t.id, draft })} />
                          <span className="inline-flex gap-2">
                            <button type="submit" className={primaryButton}>
                              Guardar
                            </button>
                            <button type="button" className={secondaryButton} onClick={() => setEditing(null)}>
                              Cancelar
                            </button>
                          </span>
                        </CheckedForm>
                      </td>
                    </tr>
                  ) : (
                    <tr key={t.id} data-publisher={t.publisher_name} data-token-id={t.id} className="hover:bg-gray-50">
                      <td className="px-3 py-2 font-medium text-gray-900">{t.publisher_name}</td>
                      <td className="whitespace-nowrap px-3 py-2 text-gray-600">{dateTime(t.created_at)}</td>
                      <td className="whitespace-nowrap px-3 py-2 text-gray-600" data-col="expires">
                        {t.expires_at ? dateTime(t.expires_at) : 'Nunca'} {t.expired ? <Badge tone="amber">Caducado</Badge> : null}
                      </td>
                      <td className="min-w-[10rem] px-3 py-2 text-gray-600" data-col="ips">
                        {t.allowed_ips.length ? t.allowed_ips.join(', ') : 'Todas'}
                      </td>
                      <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums text-gray-600" data-col="limit">
                        {formatInt(t.effective_rate_limit)}
                        {t.rate_limit === null ? <span className="text-gray-500"> (por defecto)</span> : null}
                      </td>
                      <td className="whitespace-nowrap px-3 py-2 text-gray-600" data-col="last-used">
                        {t.last_used_at ? dateTime(t.last_used_at) : 'Nunca'}
                      </td>
                      <td className="px-3 py-2 text-right tabular-nums text-gray-600" data-col="requests">
                        {formatInt(t.request_count)}
                      </td>
                      {/* One line of buttons: on a narrow screen the table scrolls sideways instead of growing tall. */}
                      <td className="whitespace-nowrap px-3 py-2 text-right">
                        <span className="inline-flex justify-end gap-2">
                          <button type="button" className={secondaryButton} onClick={() => copyUrl(t)}>
                            {copied === t.id ? <MarkedText text="✅ Copiado" /> : 'Copiar URL'}
                          </button>
                          <button type="button" className={secondaryButton} onClick={() => setEditing({ id: t.id, draft: draftOf(t) })}>
                            Editar
                          </button>
                          <button type="button" className={secondaryButton} onClick={() => renew(t)}>
                            Renovar
                          </button>
                          <button type="button" className={dangerButton} onClick={() => remove(t)}>
                            Eliminar
                          </button>
                        </span>
                      </td>
                    </tr>
                  ),
                )
              )}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </Card>
  );
}
