// 'Usuarios registrados': the list with each user's role, protection and two-factor state;
// edit, delete, turn two-factor off, and open a user's sessions below the table.
import { useState } from 'react';
import { ApiError, type ListedUser, type User } from '@adops/core';
import { Badge } from '../Badge';
import { Card } from '../Card';
import { ErrorBanner, ProblemBanner } from '../ErrorBanner';
import { MarkedText } from '../icons';
import { Loading } from '../Loading';
import { ScrollRegion } from '../ScrollRegion';
import { dangerButton, secondaryButton } from '../styles';
import { useApi } from '../../hooks/useApi';
import { useAsync } from '../../hooks/useAsync';
import { useFlash } from '../../hooks/useFlash';
import { useSession } from '../../hooks/useSession';
import { haveToken, withDetail } from './actions';
import { EditUserRow } from './EditUserRow';
import { UserSessions } from './UserSessions';

/** The registered users; reloads when version changes (a user was created). */
export function UsersList({ version }: { version: number }) {
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
