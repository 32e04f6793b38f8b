// 'Verificación en dos pasos' in Mi cuenta: turn it on with the password (a QR code and the secret
// as text for the authenticator app, then its first code, which ends the other sessions; the 10
// recovery codes are shown once), see how many recovery codes are left, and turn it off with the
// password. The server decides everything.
import { CheckedForm } from './CheckedForm';
import { useState, type FormEvent } from 'react';
import QRCode from 'qrcode';
import { formatDateTimeDMY, type TotpEnrolment } from '@adops/core';
import { useApi } from '../hooks/useApi';
import { useAsync } from '../hooks/useAsync';
import { useFlash } from '../hooks/useFlash';
import { errorText } from '../lib/errors';
import { reportingTimeZone } from '../lib/timezone';
import { Card } from './Card';
import { MarkedText } from './icons';
import { ErrorBanner } from './ErrorBanner';
import { Loading } from './Loading';
import { dangerButton, inputClass, primaryButton, secondaryButton } from './styles';
import { FormField, TextField } from './FormField';

/** The QR code of an otpauth URL as an SVG data URL (the CSP allows data: images). */
async function qrDataUrl(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** 'JBSW Y3DP EHPK …': the secret in groups of four, easier to type. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

export function TwoFactorSection() {
  const api = useApi();
  const status = useAsync((signal) => api.auth.totpStatus(undefined, { signal }), [api]);
  const [enrolment, setEnrolment] = useState<(TotpEnrolment & { qr: string }) | null>(null);
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState<string[] | null>(null);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [message, flash] = useFlash<string>(3000);
  const [copied, flashCopied] = useFlash<boolean>(2000);

  async function act(work: () => Promise<void>, fallback: string) {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(`❌ ${errorText(err, fallback)}`);
    } finally {
      setBusy(false);
    }
  }

  const begin = (e: FormEvent) => {
    e.preventDefault();
    return act(async () => {
      const started = await api.auth.totpBegin({ password });
      setPassword('');
      setEnrolment({ ...started, qr: await qrDataUrl(started.otpauth_url) });
      setCode('');
    }, 'Error al empezar la configuración');
  };

  const confirm = (e: FormEvent) => {
    e.preventDefault();
    return act(async () => {
      const { recovery_codes } = await api.auth.totpConfirm({ code });
      setRecovery(recovery_codes);
      setEnrolment(null);
      setCode('');
      status.reload();
    }, 'Error al activar la verificación en dos pasos');
  };

  const disable = (e: FormEvent) => {
    e.preventDefault();
    return act(async () => {
      const answer = await api.auth.totpDisable({ password });
      setPassword('');
      flash(`✅ ${answer.detail}`);
      status.reload();
    }, 'Error al desactivar la verificación en dos pasos');
  };

  async function copyCodes() {
    try {
      await navigator.clipboard.writeText(recovery!.join('\n'));
      flashCopied(true);
    } catch {
      setError('Error: no se pudieron copiar los códigos. Selecciónalos y cópialos a mano.');
    }
  }

  const state = status.data;
  return (
    <Card title="Verificación en dos pasos">
      <div className="space-y-4 text-sm text-gray-700">
        {state?.required && !state.enabled && !recovery && (
          <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-amber-800">
            Tu cuenta debe tener activada la verificación en dos pasos. Actívala para seguir usando la consola.
          </p>
        )}
        {status.loading && !state ? (
          <Loading />
        ) : status.error ? (
          <ErrorBanner error={status.error} fallback="Error al cargar la verificación en dos pasos" />
        ) : recovery ? (
          <div className="space-y-3">
            <p role="status" className="font-medium text-green-700">
              <MarkedText text="✅ Verificación en dos pasos activada" />
            </p>
            <p>Las demás sesiones abiertas de tu cuenta se han cerrado: para volver a entrar hará falta el código.</p>
            <p>
              Guarda estos <strong>códigos de recuperación</strong> en un lugar seguro: cada uno sirve una vez para entrar si pierdes el teléfono. No
              se volverán a mostrar.
            </p>
            <ul aria-label="Códigos de recuperación" className="grid grid-cols-2 gap-2 rounded-md bg-gray-50 p-3 font-mono text-sm sm:grid-cols-2">
              {recovery.map((c) => (
                <li key={c} className="tabular-nums">
                  {c}
                </li>
              ))}
            </ul>
            <div className="flex flex-wrap gap-2">
              <button type="button" className={secondaryButton} onClick={copyCodes}>
                {copied ? <MarkedText text="✅ Copiado" /> : 'Copiar códigos'}
              </button>
              <button type="button" className={primaryButton} onClick={() => setRecovery(null)}>
                Ya los he guardado
              </button>
            </div>
          </div>
        ) : state?.enabled ? (
          <div className="space-y-3">
            <p>
              <span className="font-medium text-green-700">Activada</span>
              {state.enabled_at ? ` desde el ${formatDateTimeDMY(state.enabled_at, reportingTimeZone())}` : ''}. Al iniciar sesión se pide el código
              de tu app de autenticación. Te quedan <strong>{state.recovery_codes_left}</strong> códigos de recuperación.
            </p>
            <CheckedForm onSubmit={disable} className="space-y-3">
              <TextField
                id="totp-disable-password"
                label="Contraseña actual"
                type="password"
                autoComplete="current-password"
                required
                value={password}
                onChange={setPassword}
              />
              <button type="submit" disabled={busy} className={dangerButton}>
                Desactivar verificación en dos pasos
              </button>
            </CheckedForm>
          </div>
        ) : enrolment ? (
          <CheckedForm onSubmit={confirm} className="space-y-3">
            <p>1. Escanea este código QR con tu app de autenticación (Google Authenticator, Authy, 1Password…).</p>
            <img
              src={enrolment.qr}
              alt="Código QR para la app de autenticación"
              width={192}
              height={192}
              className="h-48 w-48 rounded border border-gray-200 bg-white"
            />
            <p>
              ¿No puedes escanearlo? Escribe este secreto en la app:{' '}
              <code data-testid="totp-secret" className="break-all rounded bg-gray-100 px-1.5 py-0.5 font-mono text-gray-900">
                {grouped(enrolment.secret)}
              </code>
            </p>
            <FormField id="totp-code" label="2. Código de 6 dígitos que muestra la app">
              <input
                id="totp-code"
                type="text"
                inputMode="numeric"
                autoComplete="one-time-code"
                required
                maxLength={12}
                value={code}
                onChange={(e) => setCode(e.target.value)}
                className={`${inputClass} max-w-[12rem] font-mono tracking-widest`}
              />
            </FormField>
            <div className="flex flex-wrap gap-2">
              <button type="submit" disabled={busy} className={primaryButton}>
                Confirmar y activar
              </button>
              <button type="button" disabled={busy} className={secondaryButton} onClick={() => setEnrolment(null)}>
                Cancelar
              </button>
            </div>
          </CheckedForm>
        ) : (
          <CheckedForm onSubmit={begin} className="space-y-3">
            <p>Protege tu cuenta pidiendo, además de la contraseña, un código de la app de autenticación de tu teléfono.</p>
            <TextField
              id="totp-enable-password"
              label="Tu contraseña (para confirmar que eres tú)"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={setPassword}
            />
            <button type="submit" disabled={busy} className={primaryButton}>
              Activar verificación en dos pasos
            </button>
          </CheckedForm>
        )}
        {error && (
          <p role="alert" className="text-red-600">
            <MarkedText text={error} />
          </p>
        )}
        {message && (
          <p role="status" className="text-green-700">
            <MarkedText text={message} />
          </p>
        )}
      </div>
    </Card>
  );
}
