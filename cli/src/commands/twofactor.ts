// `adops 2fa`: two-factor sign-in (TOTP) of the signed-in user — its state, turning it on (the
// password, then the otpauth URL, the secret and a QR code at a terminal, then the app's first
// code, then the recovery codes, shown once) and off (with the password).
import type { Command } from 'commander';
import QRCode from 'qrcode';
import { ApiError, formatDateTimeDMY } from '@adops/core/lite';
import { CliError, EXIT } from '../io.js';
import type { Cli } from '../context.js';
import { yesNo } from '../text.js';

/** Wrong codes typed at a terminal before giving up (the enrolment stays pending: run it again). */
const ATTEMPTS = 3;

export function registerTwoFactor(program: Command, cli: Cli): void {
  const twoFactor = program.command('2fa').description('Verificación en dos pasos (TOTP) de tu cuenta: estado, activarla y desactivarla');

  twoFactor
    .command('status', { isDefault: true })
    .description('Muestra si la verificación en dos pasos está activada y cuántos códigos de recuperación quedan')
    .option('--json', 'salida JSON')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const { api } = await cli.api(cmd);
      const status = await api.auth.totpStatus();
      if (cli.machine(opts.json)) {
        cli.json(status);
        return;
      }
      cli.say(
        [
          `Activada:                 ${yesNo(status.enabled)}${status.enabled_at ? ` (desde el ${formatDateTimeDMY(status.enabled_at, cli.tz)})` : ''}`,
          `Códigos de recuperación:  ${status.enabled ? status.recovery_codes_left : '-'}`,
          `Exigida por el servidor:  ${yesNo(status.required)}`,
        ].join('\n'),
      );
    });

  twoFactor
    .command('enable')
    .description(
      'Activa la verificación en dos pasos: pide tu contraseña, muestra el código QR (en una terminal), la URL otpauth y el secreto para tu app de autenticación, pide el primer código y muestra los códigos de recuperación; tus demás sesiones se cierran (sin terminal, la contraseña y el código se leen de las dos primeras líneas de stdin)',
    )
    .action(async (_opts: unknown, cmd: Command) => {
      const { api } = await cli.api(cmd);
      const password = await cli.prompt.secret('Contraseña: ', 'la contraseña');
      if (!password) throw new CliError('La contraseña es obligatoria', EXIT.usage);
      const { secret, otpauth_url } = await api.auth.totpBegin({ password });
      const lines = [
        'Escanea el código QR con tu app de autenticación (Google Authenticator, Authy, 1Password…)',
        'o escribe el secreto a mano.',
        '',
      ];
      if (cli.io.isTTY) lines.push(await QRCode.toString(otpauth_url, { type: 'terminal', small: true, errorCorrectionLevel: 'M' }));
      lines.push(`URL:      ${otpauth_url}`, `Secreto:  ${secret.replace(/(.{4})(?=.)/g, '$1 ')}`, '');
      cli.say(lines.join('\n'));
      let recovery: string[] | null = null;
      for (let attempt = 1; recovery === null; attempt++) {
        const code = (await cli.prompt.ask('Código de 6 dígitos de la app: ', 'el código de la app')).trim();
        if (!code) throw new CliError('El código es obligatorio', EXIT.usage);
        try {
          recovery = (await api.auth.totpConfirm({ code })).recovery_codes;
        } catch (e) {
          const wrongCode = e instanceof ApiError && e.status === 400;
          if (!wrongCode || !cli.prompt.interactive || attempt >= ATTEMPTS) throw e;
          cli.io.stderr.write(`${e.detail}\n`);
        }
      }
      cli.say(
        [
          '',
          'Verificación en dos pasos activada. Desde ahora `adops login` y la web piden el código de la app; tus demás sesiones se han cerrado.',
          '',
          'Códigos de recuperación (cada uno vale una vez si pierdes el teléfono; guárdalos en un lugar seguro, no se volverán a mostrar):',
          ...recovery.map((c) => `  ${c}`),
        ].join('\n'),
      );
    });

  twoFactor
    .command('disable')
    .description('Desactiva la verificación en dos pasos (pide tu contraseña sin mostrarla; sin terminal la lee de la primera línea de stdin)')
    .action(async (_opts: unknown, cmd: Command) => {
      const { api } = await cli.api(cmd);
      const password = await cli.prompt.secret('Contraseña: ', 'la contraseña');
      if (!password) throw new CliError('La contraseña es obligatoria', EXIT.usage);
      cli.say((await api.auth.totpDisable({ password })).detail);
    });
}
