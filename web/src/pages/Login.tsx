// Sign-in: e-mail and password, 'Recordarme' (localStorage instead of sessionStorage), and a
// link back to the provider's public site; failures show the server's detail in red. When the
// server answers that the account has two-factor sign-in on, a field for the code appears.
// Signed in, it returns to the screen that sent the user here (`?next=`), and says why a
// session that ended by itself did (router state `notice`: 'Tu sesión se cerró en otro dispositivo.').
import { CheckedForm } from '../components/CheckedForm';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '@adops/core';
import { useLocation, useNavigate } from 'react-router-dom';
import { useSession } from '../hooks/useSession';
import { errorText } from '../lib/errors';
import { afterSignIn } from '../lib/returnTo';
import { inputClass, primaryButton } from '../components/styles';
import { FormField, TextField } from '../components/FormField';

export default function Login() {
  const { api, signIn } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const notice = (location.state as { notice?: unknown } | null)?.notice;
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(true);
  /** The server asked for the second factor (the password was right). */
  const [needsCode, setNeedsCode] = useState(false);
  const [code, setCode] = useState('');
  const codeInput = useRef<HTMLInputElement>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [siteUrl, setSiteUrl] = useState<string | null>(null);

  // The page is for typing: the cursor waits in the first field.
  useEffect(() => emailInput.current?.focus(), []);

  useEffect(() => {
    const controller = new AbortController();
    api.health.check(undefined, { signal: controller.signal }).then(
      (h) => setSiteUrl(h.public_site_url),
      () => {},
    );
    return () => controller.abort();
  }, [api]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const { access_token } = await api.auth.login({ email, password, ...(needsCode && code.trim() ? { totp: code } : {}) });
      signIn(access_token, remember);
      navigate(afterSignIn(location.search), { replace: true });
    } catch (err) {
      const asksCode = err instanceof ApiError && err.body.totp_required === true;
      // The first time the server asks for the code is no error: the field appears.
      setError(asksCode && !needsCode ? null : errorText(err, 'Error al iniciar sesión'));
      if (asksCode) {
        setNeedsCode(true);
        setCode('');
        setTimeout(() => codeInput.current?.focus(), 0);
      }
      setBusy(false);
    }
  }

  return (
    <div className="flex min-h-[70vh] items-center justify-center">
      <div className="w-full max-w-sm">
        <div className="mb-6 text-center">
          <span className="inline-flex h-12 w-12 items-center justify-center rounded-xl bg-blue-600 text-xl font-bold text-white">A</span>
          <h1 className="mt-4 text-2xl font-semibold text-gray-900">Iniciar sesión</h1>
          <p className="mt-1 text-sm text-gray-500">AdOps Console</p>
        </div>
        {typeof notice === 'string' && !error && (
          <p role="status" className="mb-4 rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
            {notice}
          </p>
        )}
        <CheckedForm onSubmit={submit} className="space-y-4 rounded-lg border border-gray-200 bg-white p-6 shadow-sm">
          <TextField
            id="login-email"
            label="Email"
            name="email"
            type="email"
            autoComplete="username"
            required
            inputRef={emailInput}
            value={email}
            onChange={setEmail}
          />
          <TextField
            id="login-password"
            label="Contraseña"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={setPassword}
          />
          {needsCode && (
            <FormField
              id="login-totp"
              label="Código de verificación"
              hint="El código de 6 dígitos de tu app de autenticación, o uno de tus códigos de recuperación."
            >
              <input
                id="login-totp"
                ref={codeInput}
                name="totp"
                type="text"
                inputMode="numeric"
                autoComplete="one-time-code"
                required
                maxLength={64}
                value={code}
                onChange={(e) => setCode(e.target.value)}
                className={inputClass}
              />
            </FormField>
          )}
          <label className="flex items-center gap-2 text-sm text-gray-700">
            <input
              type="checkbox"
              checked={remember}
              onChange={(e) => setRemember(e.target.checked)}
              className="h-4 w-4 rounded border-gray-300 text-blue-600 focus:ring-blue-500"
            />
            Recordarme
          </label>
          <button type="submit" disabled={busy} className={`${primaryButton} w-full`}>
            Entrar
          </button>
          {error && (
            <p role="alert" className="text-sm text-red-600">
              {error}
            </p>
          )}
        </CheckedForm>
        {siteUrl && (
          <p className="mt-4 text-center text-sm">
            <a href={siteUrl} className="text-blue-600 hover:underline" rel="noopener">
              ← Volver al sitio
            </a>
          </p>
        )}
      </div>
    </div>
  );
}
