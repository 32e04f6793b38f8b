// 'Cambiar contraseña' (the user's account): current and new password, the outcome shown for
// 3 s; below it, two-factor sign-in.
import { CheckedForm } from '../components/CheckedForm';
import { useState, type FormEvent } from 'react';
import { useApi } from '../hooks/useApi';
import { useSession } from '../hooks/useSession';
import { useFlash } from '../hooks/useFlash';
import { readToken } from '../lib/session';
import { errorText } from '../lib/errors';
import { Card } from '../components/Card';
import { primaryButton } from '../components/styles';
import { TextField } from '../components/FormField';
import { MarkedText } from '../components/icons';
import { TwoFactorSection } from '../components/TwoFactorSection';

export default function ChangePassword() {
  const api = useApi();
  const { renew } = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, flash] = useFlash<{ ok: boolean; text: string }>(3000);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!readToken()) {
      flash({ ok: false, text: 'No estás autenticado.' });
      return;
    }
    setBusy(true);
    try {
      // Older sessions end with the change; this one continues on the fresh token.
      const answer = await api.auth.changePassword({ current_password: current, new_password: next });
      renew(answer.access_token);
      setCurrent('');
      setNext('');
      flash({ ok: true, text: '✅ Contraseña actualizada con éxito' });
    } catch (err) {
      flash({ ok: false, text: `❌ ${errorText(err, 'Error al cambiar contraseña')}` });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="mx-auto max-w-md space-y-6">
      <h1 className="text-2xl font-semibold text-gray-900">Cambiar contraseña</h1>
      <Card>
        <CheckedForm onSubmit={submit} className="space-y-4">
          <TextField
            id="current-password"
            label="Contraseña actual"
            type="password"
            autoComplete="current-password"
            required
            value={current}
            onChange={setCurrent}
          />
          <TextField
            id="new-password"
            label="Nueva contraseña"
            type="password"
            autoComplete="new-password"
            required
            value={next}
            onChange={setNext}
          />
          <button type="submit" disabled={busy} className={primaryButton}>
            Cambiar contraseña
          </button>
          {message && (
            <p role={message.ok ? 'status' : 'alert'} className={`text-sm ${message.ok ? 'text-green-700' : 'text-red-600'}`}>
              <MarkedText text={message.text} />
            </p>
          )}
        </CheckedForm>
      </Card>
      <TwoFactorSection />
    </div>
  );
}
