// Session commands: login (stores the token), logout, whoami, passwd.
import type { Command } from 'commander';
import { ApiError, createApi, decodeSession, formatDateTimeDMY, timeZoneLabel, type Api } from '@adops/core/lite';
import { CliError, EXIT } from '../io.js';
import { type Cli, cliFetch } from '../context.js';
import { loadCredentials, loadDeviceToken, removeCredentials, saveCredentials, saveDeviceToken } from '../credentials.js';
import { formatRemaining, yesNo } from '../text.js';

export function registerAuth(program: Command, cli: Cli): void {
  program
    .command('login')
    .description(
      'Inicia sesión y guarda el token; este terminal queda como dispositivo conocido de la cuenta, al que no bloquean los intentos fallidos de otros (pide la contraseña sin mostrarla; sin terminal la lee de la primera línea de stdin)',
    )
    .option('--email <email>', 'email del usuario (se pregunta si falta)')
    .option('--totp <código>', 'código de verificación en dos pasos (o de recuperación); sin él se pregunta si la cuenta lo pide')
    .action(async (opts: { email?: string; totp?: string }, cmd: Command) => {
      const { api, server } = await cli.anonymousApi(cmd);
      const email = (opts.email ?? (await cli.prompt.ask('Email: ', 'el email'))).trim();
      if (!email) throw new CliError('El email es obligatorio', EXIT.usage);
      const password = await cli.prompt.secret('Contraseña: ', 'la contraseña');
      if (!password) throw new CliError('La contraseña es obligatoria', EXIT.usage);
      // This terminal's known-device token for the account: failures from elsewhere never lock it out.
      const device_token = await loadDeviceToken(cli.io.env, server, email);
      const signIn = async (totp?: string) => {
        try {
          const answer = await api.auth.login({ email, password, device_token, ...(totp ? { totp } : {}) });
          if (answer.device_token) await saveDeviceToken(cli.io.env, server, email, answer.device_token);
          return answer.access_token;
        } catch (e) {
          // The password was right and the account has 2FA on: ask for the code (once).
          if (e instanceof ApiError && e.body.totp_required === true && !totp) return null;
          // A refused login is not an expired session: show the server's own words.
          if (e instanceof ApiError && e.status === 401) throw new CliError(e.detail, EXIT.session);
          throw e;
        }
      };
      let token = await signIn(opts.totp?.trim());
      if (token === null) {
        const code = (await cli.prompt.ask('Código de verificación (o de recuperación): ', 'el código de verificación')).trim();
        if (!code) throw new CliError('El código de verificación es obligatorio', EXIT.usage);
        token = (await signIn(code))!;
      }
      const zone = await serverZone(api);
      await saveCredentials(cli.io.env, { server, token, ...zone });
      const session = decodeSession(token);
      const until = session ? ` hasta el ${formatDateTimeDMY(session.exp * 1000, cli.tz)} (${timeZoneLabel(cli.tz)})` : '';
      cli.say(`Sesión iniciada como ${session?.email ?? email} en ${server}${until}`);
    });

  program
    .command('logout')
    .description('Cierra la sesión: el servidor la da por terminada (el token deja de valer) y se borra el token guardado')
    .action(async () => {
      const stored = await loadCredentials(cli.io.env);
      if (!stored) {
        cli.say('No había ninguna sesión iniciada');
        return;
      }
      // The token is only ever sent to the server that issued it.
      const api = createApi({ baseUrl: stored.server, getToken: () => stored.token, fetch: cliFetch });
      let warning: string | null = null;
      try {
        await api.auth.logout();
      } catch (e) {
        // 401: the server had ended it already (expired, signed out elsewhere): nothing left to end.
        if (!(e instanceof ApiError && e.status === 401))
          warning = `Aviso: no se pudo avisar a ${stored.server} (${e instanceof ApiError && e.status ? e.detail : 'sin conexión'}); el token sigue valiendo hasta que expire`;
      }
      await removeCredentials(cli.io.env);
      if (warning) cli.io.stderr.write(`${warning}\n`);
      cli.say('Sesión cerrada');
    });

  program
    .command('whoami')
    .description('Muestra el usuario de la sesión: email, nombre, si es administrador y cuándo expira')
    .option('--json', 'salida JSON')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const { api, server } = await cli.api(cmd);
      const me = await api.auth.me();
      const expiresAt = new Date(me.exp * 1000);
      if (cli.machine(opts.json)) {
        cli.json({
          server,
          email: me.email,
          first_name: me.first_name,
          last_name: me.last_name,
          is_admin: me.is_admin,
          expires_at: expiresAt.toISOString(),
          tz: cli.tz,
        });
        return;
      }
      const name = `${me.first_name} ${me.last_name}`.trim() || '-';
      cli.say(
        [
          `Email:     ${me.email}`,
          `Nombre:    ${name}`,
          `Admin:     ${yesNo(me.is_admin)}`,
          `Expira:    ${formatDateTimeDMY(expiresAt, cli.tz)} (${formatRemaining(expiresAt.getTime() - Date.now())})`,
          `Servidor:  ${server}`,
          `Zona:      ${timeZoneLabel(cli.tz)}${cli.io.env.ADOPS_TZ ? ' (ADOPS_TZ de tu entorno)' : ''}`,
        ].join('\n'),
      );
    });

  program
    .command('passwd')
    .description('Cambia tu contraseña (pide la actual y la nueva sin mostrarlas; sin terminal, una por línea de stdin)')
    .action(async (_opts: unknown, cmd: Command) => {
      const { api, server } = await cli.api(cmd);
      const current = await cli.prompt.secret('Contraseña actual: ', 'la contraseña actual');
      if (!current) throw new CliError('La contraseña actual es obligatoria', EXIT.usage);
      const next = await cli.prompt.newPassword('Nueva contraseña: ', 'la nueva contraseña');
      if (!next) throw new CliError('La nueva contraseña es obligatoria', EXIT.usage);
      const answer = await api.auth.changePassword({ current_password: current, new_password: next });
      // Sessions issued before the change stop working: keep going on the fresh token.
      await saveCredentials(cli.io.env, { server, token: answer.access_token, ...(await serverZone(api)) });
      cli.say(answer.detail || 'Contraseña actualizada');
    });
}

/** The server's reporting time zone, kept with the session so dates and presets are its days. */
async function serverZone(api: Api): Promise<{ tz?: string }> {
  try {
    return { tz: (await api.health.check({})).tz };
  } catch {
    return {};
  }
}
