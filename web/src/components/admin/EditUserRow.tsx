// A users-table row turned into fields: sends only what changed (SPEC §5), the e-mail of the
// protected admin stays as it is.
import { useState } from 'react';
import type { UpdateUserBody, User } from '@adops/core';
import { ProblemBanner } from '../ErrorBanner';
import { inputClass, primaryButton, secondaryButton } from '../styles';
import { useApi } from '../../hooks/useApi';
import { haveToken, withDetail } from './actions';

export function EditUserRow({ user, onCancel, onSaved }: { user: User; onCancel: () => void; onSaved: (u: User) => void }) {
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
