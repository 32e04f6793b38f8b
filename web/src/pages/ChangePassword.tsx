// 'Cambiar contraseña' (the user's account): current and new password; a success shown for 3 s,
// a refusal until the user closes it or tries again; below it, two-factor sign-in.
import { ProblemBanner } from '../components/ErrorBanner';
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
  const [message, flash] = useFlash<string>(3000);
  /** A refusal stays until the user closes it or tries again (a success fades after 3 s). */
  const [problem, setProblem] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setProblem(null);
    if (!readToken()) {
      setProblem('No estás autenticado.');
      return;
    }
    setBusy(true);
    try {
      // Older sessions end with the change; this one continues on the fresh token.
      const answer = await api.auth.changePassword({ current_password: current, new_password: next });
      renew(answer.access_token);
      setCurrent('');
      setNext('');
      flash('✅ Contraseña actualizada con éxito');
    } catch (err) {
      setProblem(`❌ ${errorText(err, 'Error al cambiar contraseña')}`);
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
            <p role="status" className="text-sm text-green-700">
              <MarkedText text={message} />
            </p>
          )}
          <ProblemBanner text={problem} onClose={() => setProblem(null)} />
        </CheckedForm>
      </Card>
      <TwoFactorSection />
    </div>
  );
}
