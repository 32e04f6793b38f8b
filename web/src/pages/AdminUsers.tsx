// Admin screen (SPEC §2, §5, §8): create users, the registered-users list with inline
// editing and deletion, who has two-factor sign-in on (and turning it off for one who lost
// their phone), and publisher API tokens (create with expiry, allowed IPs and an hourly
// limit; edit those; copy URL, renew, delete; last use and request count).
import { CheckedForm } from '../components/CheckedForm';
import { useState, type FormEvent } from 'react';
import {
  formatDateTimeDMY,
  formatInt,
  presetRange,
  publisherDataUrl,
  sessionDevice,
  todayIn,
  type ListedUser,
  type PublisherToken,
  type TokenPolicy,
  type User,
  type UpdateUserBody,
  type UserSession,
} from '@adops/core';
import { ApiError } from '@adops/core';
import { useApi } from '../hooks/useApi';
import { useAsync } from '../hooks/useAsync';
import { useFlash } from '../hooks/useFlash';
import { useSession } from '../hooks/useSession';
import { readToken } from '../lib/session';
import { errorText, readableDetail } from '../lib/errors';
import { Card } from '../components/Card';
import { ErrorBanner, ProblemBanner } from '../components/ErrorBanner';
import { Loading } from '../components/Loading';
import { dangerButton, inputClass, primaryButton, secondaryButton } from '../components/styles';
import { FormField, TextField } from '../components/FormField';
import { reportingTimeZone } from '../lib/timezone';
import { ZoneNote } from '../components/ZoneNote';
import { MarkedText } from '../components/icons';
import { ScrollRegion } from '../components/ScrollRegion';

const NO_TOKEN = 'Token no encontrado. Por favor, iniciá sesión nuevamente.';

/** Says so (through `report`) and answers false when the session token is gone (e.g. signed out in another tab). */
function haveToken(report: (problem: string) => void): boolean {
  if (readToken()) return true;
  report(NO_TOKEN);
  return false;
}

/** 'Error al crear token: IPs permitidas: …': the action, then the server's words without field keys. */
const withDetail = (text: string, error: unknown) => {
  const detail = error instanceof ApiError && error.detail ? readableDetail(error.detail) : '';
  return detail && detail !== text ? `${text}: ${detail}` : text;
};

/** The browser's calendar yesterday (the publisher URL's range). */
function yesterday(): string {
  const tz = reportingTimeZone();
  return presetRange('ayer', new Date(), tz).from;
}

/** An instant as dd/MM/yyyy HH:mm on the reporting zone's clock (named by ZoneNote beside the table). */
const dateTime = (iso: string) => formatDateTimeDMY(iso, reportingTimeZone());

export default function AdminUsers() {
  const [usersVersion, setUsersVersion] = useState(0);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-gray-900">Usuarios y tokens</h1>
      {/* min-w-0: a wide table scrolls in its own box instead of widening the grid (390 px). */}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="min-w-0 lg:col-span-1">
          <CreateUserForm onCreated={() => setUsersVersion((v) => v + 1)} />
        </div>
        <div className="min-w-0 lg:col-span-2">
          <UsersList version={usersVersion} />
        </div>
      </div>
      <TokensSection />
    </div>
  );
}

// ---------- users ----------

const emptyUser = { first_name: '', last_name: '', email: '', password: '', is_admin: false };

function CreateUserForm({ onCreated }: { onCreated: () => void }) {
  const api = useApi();
  const [form, setForm] = useState(emptyUser);
  const [busy, setBusy] = useState(false);
  const [message, flash] = useFlash<string>(3000);
  const [problem, setProblem] = useState<string | null>(null);
  const set = (k: keyof typeof emptyUser) => (v: string | boolean) => setForm((f) => ({ ...f, [k]: v }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    setProblem(null);
    if (!haveToken(setProblem)) return;
    setBusy(true);
    try {
      await api.admin.createUser(form);
      setForm(emptyUser);
      flash('✅ Usuario creado');
      onCreated();
    } catch (err) {
      setProblem(`❌ ${errorText(err, 'Error al crear usuario')}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card title="Crear usuario">
      <CheckedForm onSubmit={submit} className="space-y-3" aria-label="Crear usuario">
        <TextField id="new-first-name" label="Nombre" value={form.first_name} onChange={set('first_name')} required />
        <TextField id="new-last-name" label="Apellido" value={form.last_name} onChange={set('last_name')} />
        <TextField id="new-email" label="Email" type="email" value={form.email} onChange={set('email')} required />
        <TextField
          id="new-password"
          label="Contraseña"
          type="password"
          value={form.password}
          onChange={set('password')}
          required
          autoComplete="new-password"
        />
        <label className="flex items-center gap-2 text-sm text-gray-700">
          <input
            type="checkbox"
            checked={form.is_admin}
            onChange={(e) => set('is_admin')(e.target.checked)}
            className="h-4 w-4 rounded border-gray-300 text-blue-600 focus:ring-blue-500"
          />
          Es administrador
        </label>
        <button type="submit" disabled={busy} className={primaryButton}>
          Crear usuario
        </button>
        {message && (
          <p role="status" className="text-sm text-green-700">
            <MarkedText text={message} />
          </p>
        )}
        <ProblemBanner text={problem} onClose={() => setProblem(null)} />
      </CheckedForm>
    </Card>
  );
}

/** The registered users; reloads when version changes (a user was created). */
function UsersList({ version }: { version: number }) {
  const api = useApi();
  const me = useSession().user;
  /** The protected admin's 2FA and sessions are theirs alone to change (the server answers 403 to anyone else). */
  const changeable = (u: User) => !u.protected || u.email === me?.email;
  const [users, setUsers] = useState<ListedUser[] | null>(null);
  const [message, flash] = useFlash<string>(4000);
  const [problem, setProblem] = useState<string | null>(null);
  const load = useAsync(
    async (signal) => {
      const list = await api.admin.listUsers(undefined, { signal });
      setUsers(list);
      return list;
    },
    [api, version],
  );
  const [editing, setEditing] = useState<string | null>(null);
  const [sessionsOf, setSessionsOf] = useState<string | null>(null);

  async function remove(user: User) {
    setProblem(null);
    if (!haveToken(setProblem)) return;
    if (!window.confirm(`¿Eliminar al usuario ${user.email}?`)) return;
    try {
      await api.admin.deleteUser({ id: user.id });
      setUsers((list) => list?.filter((u) => u.id !== user.id) ?? null);
    } catch (err) {
      setProblem(withDetail('Error al eliminar usuario', err));
    }
  }

  /** For a user who lost their phone and recovery codes: they sign in with the password alone again. */
  async function resetTwoFactor(user: ListedUser) {
    setProblem(null);
    if (!haveToken(setProblem)) return;
    if (!window.confirm(`¿Desactivar la verificación en dos pasos de ${user.email}? Entrará solo con su contraseña hasta que la vuelva a activar.`))
      return;
    try {
      await api.admin.resetUserTotp({ id: user.id });
      setUsers((list) => list?.map((u) => (u.id === user.id ? { ...u, two_factor: false } : u)) ?? null);
      flash(`✅ Verificación en dos pasos desactivada para ${user.email}`);
    } catch (err) {
      setProblem(withDetail('Error al desactivar la verificación en dos pasos', err));
    }
  }

  const refused = load.error instanceof ApiError && (load.error.status === 401 || load.error.status === 403);
  return (
    <Card title="Usuarios registrados">
      {message && (
        <p role="status" className="mb-2 text-sm text-green-700">
          <MarkedText text={message} />
        </p>
      )}
      <ProblemBanner text={problem} onClose={() => setProblem(null)} className="mb-2" />
      {load.loading && !users ? (
        <Loading />
      ) : load.error ? (
        <ErrorBanner error={refused ? 'No autorizado' : load.error} />
      ) : !users || users.length === 0 ? (
        <p className="py-6 text-center text-sm text-gray-500">No hay usuarios registrados aún.</p>
      ) : (
        <ScrollRegion label="Usuarios registrados" className="overflow-x-auto rounded-md border border-gray-200">
          <table className="min-w-full divide-y divide-gray-200 text-sm" aria-label="Usuarios registrados">
            <thead className="bg-gray-50">
              <tr>
                {['Nombre', 'Apellido', 'Email', 'Rol', ''].map((h) => (
                  <th key={h || 'acciones'} scope="col" className="px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-gray-600">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100">
              {users.map((u) =>
                editing === u.id ? (
                  <EditUserRow
                    key={u.id}
                    user={u}
                    onCancel={() => setEditing(null)}
                    onSaved={(saved) => {
                      setUsers((list) => list?.map((x) => (x.id === saved.id ? { ...x, ...saved } : x)) ?? null);
                      setEditing(null);
                    }}
                  />
                ) : (
                  <tr key={u.id} data-email={u.email} className="hover:bg-gray-50">
                    <td className="px-3 py-2 text-gray-900">{u.first_name}</td>
                    <td className="px-3 py-2 text-gray-900">{u.last_name}</td>
                    <td className="px-3 py-2 text-gray-700">{u.email}</td>
                    <td className="px-3 py-2">
                      <span className="flex gap-1 whitespace-nowrap">
                        <Badge tone={u.is_admin ? 'blue' : 'gray'}>{u.is_admin ? 'Admin' : 'Usuario'}</Badge>
                        {u.protected && <Badge tone="amber">Protegido</Badge>}
                        {u.two_factor && (
                          <Badge tone="green" title="Verificación en dos pasos activada">
                            2FA
                          </Badge>
                        )}
                      </span>
                    </td>
                    <td className="px-3 py-2 text-right">
                      <span className="inline-flex flex-wrap justify-end gap-2">
                        <button
                          type="button"
                          className={secondaryButton}
                          aria-expanded={sessionsOf === u.id}
                          onClick={() => setSessionsOf((open) => (open === u.id ? null : u.id))}
                        >
                          Sesiones
                        </button>
                        {u.two_factor && changeable(u) && (
                          <button type="button" className={secondaryButton} onClick={() => resetTwoFactor(u)}>
                            Quitar 2FA
                          </button>
                        )}
                        {u.protected ? (
                          <span className="self-center text-xs text-gray-500">Solo lectura</span>
                        ) : (
                          <>
                            <button type="button" className={secondaryButton} onClick={() => setEditing(u.id)}>
                              Editar
                            </button>
                            <button type="button" className={dangerButton} onClick={() => remove(u)}>
                              Eliminar
                            </button>
                          </>
                        )}
                      </span>
                    </td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      {/* Below the list (never inside its table), so it has the card's width on a phone too. */}
      {users?.map((u) =>
        sessionsOf === u.id ? (
          <div key={u.id} className="mt-4 rounded-md border border-gray-200 bg-gray-50 p-3">
            <UserSessions user={u} canEnd={changeable(u)} />
          </div>
        ) : null,
      )}
    </Card>
  );
}

/** A user's open sessions: when, from where, last use; each can be ended, or all at once (`canEnd`). */
function UserSessions({ user, canEnd }: { user: User; canEnd: boolean }) {
  const api = useApi();
  const [message, flash] = useFlash<string>(3000);
  const [problem, setProblem] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const load = useAsync((signal) => api.admin.userSessions({ id: user.id }, { signal }), [api, user.id, version]);
  const sessions: UserSession[] = load.data ?? [];

  async function end(session?: UserSession) {
    setProblem(null);
    if (!haveToken(setProblem)) return;
    const what = session ? 'esta sesión' : `todas las sesiones de ${user.email}`;
    if (!window.confirm(`¿Cerrar ${what}? Tendrá que iniciar sesión de nuevo.`)) return;
    try {
      if (session) await api.admin.endUserSession({ id: user.id, session_id: session.id });
      else await api.admin.endUserSessions({ id: user.id });
      flash(session ? '✅ Sesión cerrada' : '✅ Sesiones cerradas');
    } catch (err) {
      setProblem(withDetail('Error al cerrar la sesión', err));
    }
    setVersion((v) => v + 1);
  }

  return (
    <section aria-label={`Sesiones de ${user.email}`}>
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm font-medium text-gray-700">Sesiones abiertas de {user.email}</p>
        {!canEnd && <p className="text-xs text-gray-500">Solo el administrador protegido puede cerrar sus sesiones.</p>}
        {canEnd && sessions.length > 1 && (
          <button type="button" className={dangerButton} onClick={() => end()}>
            Cerrar todas
          </button>
        )}
      </div>
      {message && (
        <p role="status" className="mb-2 text-sm text-green-700">
          <MarkedText text={message} />
        </p>
      )}
      <ProblemBanner text={problem} onClose={() => setProblem(null)} className="mb-2" />
      {load.loading && !load.data ? (
        <Loading />
      ) : load.error ? (
        <ErrorBanner error={load.error} />
      ) : sessions.length === 0 ? (
        <p className="text-sm text-gray-500">No tiene sesiones abiertas.</p>
      ) : (
        <>
          {/* A phone gets one block per session; wider screens the table. */}
          <ul className="space-y-2 sm:hidden">
            {sessions.map((x) => (
              <li key={x.id} data-session-card={x.id} className="rounded border border-gray-200 bg-white p-2 text-sm">
                <div className="flex items-start justify-between gap-2">
                  <div>
                    <p className="font-medium text-gray-900" title={x.user_agent}>
                      {sessionDevice(x.user_agent)}
                      {x.current && <span className="ml-1 text-xs font-normal text-gray-500">(esta sesión)</span>}
                    </p>
                    <p className="font-mono text-xs text-gray-600">{x.ip}</p>
                  </div>
                  {canEnd && (
                    <button type="button" className={secondaryButton} onClick={() => end(x)}>
                      Cerrar sesión
                    </button>
                  )}
                </div>
                <p className="mt-1 text-xs text-gray-600">
                  Inicio {dateTime(x.created_at)} · Último uso {dateTime(x.last_seen_at)} · Expira {dateTime(x.expires_at)}
                </p>
              </li>
            ))}
          </ul>
          <ZoneNote className="block sm:mb-1" />
          <ScrollRegion label={`Sesiones abiertas de ${user.email}`} className="hidden overflow-x-auto sm:block">
            <table className="min-w-full text-sm" aria-label={`Sesiones abiertas de ${user.email}`}>
              <thead>
                <tr>
                  {['Dispositivo', 'IP', 'Inicio', 'Último uso', 'Expira', ''].map((h) => (
                    <th key={h || 'acciones'} scope="col" className="px-2 py-1 text-left text-xs font-semibold text-gray-600">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {sessions.map((x) => (
                  <tr key={x.id} data-session={x.id}>
                    <td className="px-2 py-1 text-gray-900" title={x.user_agent}>
                      {sessionDevice(x.user_agent)}
                      {x.current && <span className="ml-1 text-xs text-gray-500">(esta sesión)</span>}
                    </td>
                    <td className="px-2 py-1 font-mono text-gray-700">{x.ip}</td>
                    <td className="whitespace-nowrap px-2 py-1 text-gray-700">{dateTime(x.created_at)}</td>
                    <td className="whitespace-nowrap px-2 py-1 text-gray-700">{dateTime(x.last_seen_at)}</td>
                    <td className="whitespace-nowrap px-2 py-1 text-gray-700">{dateTime(x.expires_at)}</td>
                    <td className="px-2 py-1 text-right">
                      {canEnd && (
                        <button type="button" className={secondaryButton} onClick={() => end(x)}>
                          Cerrar sesión
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        </>
      )}
    </section>
  );
}

function EditUserRow({ user, onCancel, onSaved }: { user: User; onCancel: () => void; onSaved: (u: User) => void }) {
  const api = useApi();
  const [draft, setDraft] = useState({
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    password: '',
    is_admin: user.is_admin,
  });
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function save() {
    setProblem(null);
    if (!haveToken(setProblem)) return;
    // Empty fields are not sent (SPEC §5); unchanged ones neither.
    const changes: UpdateUserBody = {};
    const text = (k: 'first_name' | 'last_name' | 'email') => {
      const v = draft[k].trim();
      if (v !== '' && v !== user[k]) changes[k] = v;
    };
    text('first_name');
    text('last_name');
    if (!user.protected) text('email');
    if (draft.password !== '') changes.password = draft.password;
    if (draft.is_admin !== user.is_admin) changes.is_admin = draft.is_admin;
    if (Object.keys(changes).length === 0) return onCancel();
    setBusy(true);
    try {
      onSaved(await api.admin.updateUser({ id: user.id, ...changes }));
    } catch (err) {
      setProblem(withDetail('Error al actualizar usuario', err));
      setBusy(false);
    }
  }

  const cell = 'px-2 py-2';
  const input = `${inputClass} py-1.5`;
  return (
    <tr data-email={user.email} className="bg-blue-50/40">
      <td className={cell}>
        <input aria-label="Nombre" className={input} value={draft.first_name} onChange={(e) => setDraft({ ...draft, first_name: e.target.value })} />
      </td>
      <td className={cell}>
        <input aria-label="Apellido" className={input} value={draft.last_name} onChange={(e) => setDraft({ ...draft, last_name: e.target.value })} />
      </td>
      <td className={cell}>
        <input
          aria-label="Email"
          type="email"
          className={input}
          value={draft.email}
          readOnly={user.protected}
          onChange={(e) => setDraft({ ...draft, email: e.target.value })}
        />
        <input
          aria-label="Nueva contraseña"
          type="password"
          autoComplete="new-password"
          placeholder="Nueva contraseña (opcional)"
          className={`${input} mt-1`}
          value={draft.password}
          onChange={(e) => setDraft({ ...draft, password: e.target.value })}
        />
      </td>
      <td className={cell}>
        <label className="flex items-center gap-2 text-sm text-gray-700">
          <input
            type="checkbox"
            checked={draft.is_admin}
            onChange={(e) => setDraft({ ...draft, is_admin: e.target.checked })}
            className="h-4 w-4 rounded border-gray-300 text-blue-600"
          />
          Admin
        </label>
      </td>
      <td className={`${cell} text-right`}>
        <span className="inline-flex gap-2">
          <button type="button" className={primaryButton.replace('px-4 py-2', 'px-3 py-1.5')} disabled={busy} onClick={save}>
            Guardar
          </button>
          <button type="button" className={secondaryButton} onClick={onCancel}>
            Cancelar
          </button>
        </span>
        <ProblemBanner text={problem} onClose={() => setProblem(null)} className="mt-2 text-left" />
      </td>
    </tr>
  );
}

function Badge({ tone, title, children }: { tone: 'blue' | 'gray' | 'amber' | 'green'; title?: string; children: string }) {
  const tones = {
    blue: 'bg-blue-50 text-blue-700 ring-blue-200',
    gray: 'bg-gray-50 text-gray-600 ring-gray-200',
    amber: 'bg-amber-50 text-amber-700 ring-amber-200',
    green: 'bg-green-50 text-green-700 ring-green-200',
  };
  return (
    <span title={title} className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tones[tone]}`}>
      {children}
    </span>
  );
}

// ---------- publisher tokens ----------

/** 'a, b c' → ['a', 'b', 'c']: addresses and ranges as an admin types them. */
const ipList = (text: string) => text.split(/[\s,;]+/).filter(Boolean);

/** The policy fields of the create form and the row editor, as typed. */
interface PolicyDraft {
  expires: string;
  ips: string;
  limit: string;
}
const EMPTY_POLICY: PolicyDraft = { expires: '', ips: '', limit: '' };

/** A draft's fields for the API; `clear` says empty means "none/default" (editing) rather than "not given" (creating). */
function policyBody(d: PolicyDraft, clear: boolean): TokenPolicy {
  const body: TokenPolicy = {};
  if (d.expires) body.expires_at = d.expires;
  else if (clear) body.expires_at = null;
  const ips = ipList(d.ips);
  if (ips.length || clear) body.allowed_ips = ips;
  if (d.limit.trim()) body.rate_limit = Number(d.limit);
  else if (clear) body.rate_limit = null;
  return body;
}

const draftOf = (t: PublisherToken): PolicyDraft => ({
  expires: t.expires_at ? todayIn(reportingTimeZone(), new Date(t.expires_at)) : '',
  ips: t.allowed_ips.join(', '),
  limit: t.rate_limit === null ? '' : String(t.rate_limit),
});

function PolicyFields({ idPrefix, draft, onChange }: { idPrefix: string; draft: PolicyDraft; onChange: (d: PolicyDraft) => void }) {
  return (
    <>
      <FormField id={`${idPrefix}-expires`} label="Caduca el" className="w-40">
        <input
          id={`${idPrefix}-expires`}
          type="date"
          className={inputClass}
          value={draft.expires}
          onChange={(e) => onChange({ ...draft, expires: e.target.value })}
        />
      </FormField>
      <FormField id={`${idPrefix}-ips`} label="IPs permitidas" className="min-w-[12rem] flex-1">
        <input
          id={`${idPrefix}-ips`}
          className={inputClass}
          value={draft.ips}
          onChange={(e) => onChange({ ...draft, ips: e.target.value })}
          placeholder="todas; p. ej. 203.0.113.0/24, 2001:db8::/32"
        />
      </FormField>
      <FormField id={`${idPrefix}-limit`} label="Límite por hora" className="w-32">
        <input
          id={`${idPrefix}-limit`}
          type="number"
          min={1}
          step={1}
          inputMode="numeric"
          className={inputClass}
          value={draft.limit}
          onChange={(e) => onChange({ ...draft, limit: e.target.value })}
          placeholder="por defecto"
        />
      </FormField>
    </>
  );
}

function TokensSection() {
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

/** Clipboard API when the page may use it; the legacy copy command otherwise (plain http). */
async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copy refused');
}
