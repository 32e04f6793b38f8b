// A user's open sessions (device, address, start, last use, expiry), ended one by one or all at once.
import { useState } from 'react';
import { sessionDevice, type User, type UserSession } from '@adops/core';
import { ErrorBanner, ProblemBanner } from '../ErrorBanner';
import { MarkedText } from '../icons';
import { Loading } from '../Loading';
import { ScrollRegion } from '../ScrollRegion';
import { dangerButton, secondaryButton } from '../styles';
import { ZoneNote } from '../ZoneNote';
import { useApi } from '../../hooks/useApi';
import { useAsync } from '../../hooks/useAsync';
import { useFlash } from '../../hooks/useFlash';
import { dateTime, haveToken, withDetail } from './actions';

/** A user's open sessions: when, from where, last use; each can be ended, or all at once (`canEnd`). */
export function UserSessions({ user, canEnd }: { user: User; canEnd: boolean }) {
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
