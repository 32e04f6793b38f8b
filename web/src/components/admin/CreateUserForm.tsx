// 'Crear usuario': the form that registers a user (name, e-mail, password, admin or not).
import { useState, type FormEvent } from 'react';
import { CheckedForm } from '../CheckedForm';
import { Card } from '../Card';
import { ProblemBanner } from '../ErrorBanner';
import { TextField } from '../FormField';
import { MarkedText } from '../icons';
import { primaryButton } from '../styles';
import { useApi } from '../../hooks/useApi';
import { useFlash } from '../../hooks/useFlash';
import { errorText } from '../../lib/errors';
import { haveToken } from './actions';

const emptyUser = { first_name: '', last_name: '', email: '', password: '', is_admin: false };

export function CreateUserForm({ onCreated }: { onCreated: () => void }) {
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
