// `adops users list|create|update|delete|sessions|end-sessions|2fa-reset`: the admin's user
// management (the server refuses non-admins with 403 "No autorizado").
import type { Command } from 'commander';
import { type Api, formatDateTimeDMY, type ListedUser, sessionDevice, type User, type UpdateUserBody, type UserSession } from '@adops/core/lite';
import { CliError, EXIT } from '../io.js';
import type { Cli } from '../context.js';
import type { Column } from '../ui/Table.js';
import { yesNo, zoneNote } from '../text.js';

/** The users table, times on the reporting zone's clock (tz). */
export const userColumns = (tz: string): Column<ListedUser>[] => [
  { key: 'email', header: 'Email' },
  { key: 'first_name', header: 'Nombre' },
  { key: 'last_name', header: 'Apellido' },
  { key: 'is_admin', header: 'Admin', format: (v) => yesNo(v === true) },
  { key: 'protected', header: 'Protegido', format: (v) => yesNo(v === true) },
  { key: 'two_factor', header: '2FA', format: (v) => yesNo(v === true) },
  { key: 'created_at', header: 'Alta', format: (v) => formatDateTimeDMY(v as string, tz) },
  { key: 'id', header: 'ID' },
];

/** A session's short id: enough to tell a user's sessions apart (`--session` takes it). */
const shortId = (id: string) => id.slice(0, 8);

/** Fits 80 columns: the short id, where from, and when on tz's clock (the whole record with --json). */
export const sessionColumns = (tz: string): Column<UserSession>[] => [
  { key: 'id', header: 'Sesión', format: (v) => shortId(String(v)) },
  { key: 'user_agent', header: 'Dispositivo', format: (v) => sessionDevice(String(v)), maxWidth: 18 },
  { key: 'ip', header: 'IP', maxWidth: 15 },
  { key: 'last_seen_at', header: 'Último uso', format: (v) => formatDateTimeDMY(v as string, tz) },
  { key: 'expires_at', header: 'Expira', format: (v) => formatDateTimeDMY(v as string, tz) },
  { key: 'current', header: '', format: (v) => (v ? '(esta)' : '') },
];

/** The user's session whose id is `ref` or starts with it (at least 4 characters, one match). */
async function resolveSession(api: Api, userId: string, ref: string): Promise<string> {
  const wanted = ref.trim().toLowerCase();
  const sessions = await api.admin.userSessions({ id: userId });
  const exact = sessions.find((x) => x.id === wanted);
  if (exact) return exact.id;
  const matches = wanted.length >= 4 ? sessions.filter((x) => x.id.startsWith(wanted)) : [];
  if (matches.length === 1) return matches[0].id;
  if (matches.length > 1) throw new CliError(`Varias sesiones empiezan por ${ref}: escribe más caracteres del id`, EXIT.usage);
  return ref; // the server answers whether it exists
}

const fullName = (u: User) => `${u.first_name} ${u.last_name}`.trim();

/** A user by id, or by email when the reference contains '@'. */
async function findUser(api: Api, ref: string): Promise<ListedUser | undefined> {
  const users = await api.admin.listUsers();
  const wanted = ref.trim().toLowerCase();
  return users.find((u) => u.id === ref || u.email.toLowerCase() === wanted);
}

/** The user `ref` (an id or an e-mail) names, with how messages call them (name and e-mail, or the bare id). */
async function resolveId(api: Api, ref: string): Promise<{ id: string; user?: ListedUser; label: string }> {
  const user = await findUser(api, ref);
  if (user) return { id: user.id, user, label: `${fullName(user)} <${user.email}>` };
  if (ref.includes('@')) throw new CliError(`Usuario no encontrado: ${ref}`);
  return { id: ref, label: ref };
}

interface CreateOptions {
  firstName?: string;
  lastName?: string;
  email?: string;
  passwordStdin?: boolean;
  admin?: boolean;
  json?: boolean;
}

interface UpdateOptions {
  firstName?: string;
  lastName?: string;
  email?: string;
  admin?: boolean;
  passwordPrompt?: boolean;
  json?: boolean;
}

export function registerUsers(program: Command, cli: Cli): void {
  const users = program.command('users').description('Usuarios (solo administradores)');

  users
    .command('list')
    .description('Lista los usuarios registrados')
    .option('--json', 'salida JSON')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const { api } = await cli.api(cmd);
      const list = await api.admin.listUsers();
      if (cli.machine(opts.json)) return cli.json(list);
      await cli.table<ListedUser>({ columns: userColumns(cli.tz), rows: list, emptyText: 'No hay usuarios registrados aún.' });
      if (list.length) cli.say(zoneNote(cli.tz));
    });

  users
    .command('create')
    .description('Crea un usuario (la contraseña se pide sin mostrarla, o con --password-stdin se lee de stdin)')
    .option('--first-name <name>', 'nombre (obligatorio)')
    .option('--last-name <name>', 'apellido')
    .option('--email <email>', 'email (obligatorio)')
    .option('--password-stdin', 'lee la contraseña de la primera línea de stdin')
    .option('--admin', 'es administrador')
    .option('--json', 'salida JSON')
    .action(async (opts: CreateOptions, cmd: Command) => {
      const { api } = await cli.api(cmd);
      const required = async (value: string | undefined, label: string, what: string, flag: string) => {
        if (value !== undefined) return value;
        if (!cli.prompt.interactive) throw new CliError(`Falta ${flag}`, EXIT.usage);
        return cli.prompt.ask(label, what);
      };
      const first_name = await required(opts.firstName, 'Nombre: ', 'el nombre', '--first-name');
      const email = await required(opts.email, 'Email: ', 'el email', '--email');
      const password = opts.passwordStdin
        ? await cli.prompt.secret('Contraseña: ', 'la contraseña')
        : await cli.prompt.newPassword('Contraseña: ', 'la contraseña');
      const user = await api.admin.createUser({
        first_name,
        last_name: opts.lastName ?? '',
        email,
        password,
        is_admin: opts.admin === true,
      });
      if (cli.machine(opts.json)) return cli.json(user);
      cli.say(`Usuario creado: ${fullName(user)} <${user.email}>${user.is_admin ? ' (administrador)' : ''}, id ${user.id}`);
    });

  users
    .command('update')
    .description('Modifica un usuario (por id o email); solo cambia lo indicado')
    .argument('<id>', 'id o email del usuario')
    .option('--first-name <name>', 'nuevo nombre')
    .option('--last-name <name>', 'nuevo apellido')
    .option('--email <email>', 'nuevo email')
    .option('--admin', 'hacerlo administrador')
    .option('--no-admin', 'quitarle el rol de administrador')
    .option('--password-prompt', 'pide una nueva contraseña (sin mostrarla; sin terminal, una línea de stdin)')
    .option('--json', 'salida JSON')
    .action(async (ref: string, opts: UpdateOptions, cmd: Command) => {
      const changes: UpdateUserBody = {};
      if (opts.firstName !== undefined) changes.first_name = opts.firstName;
      if (opts.lastName !== undefined) changes.last_name = opts.lastName;
      if (opts.email !== undefined) changes.email = opts.email;
      if (opts.admin !== undefined) changes.is_admin = opts.admin;
      const { api } = await cli.api(cmd);
      if (opts.passwordPrompt) changes.password = await cli.prompt.newPassword('Nueva contraseña: ', 'la nueva contraseña');
      if (Object.keys(changes).length === 0)
        throw new CliError('Nada que cambiar: indica --first-name, --last-name, --email, --admin/--no-admin o --password-prompt', EXIT.usage);
      const { id } = await resolveId(api, ref);
      const user = await api.admin.updateUser({ id, ...changes });
      if (cli.machine(opts.json)) return cli.json(user);
      cli.say(`Usuario actualizado: ${fullName(user)} <${user.email}>, admin: ${yesNo(user.is_admin)}`);
    });

  users
    .command('delete')
    .description('Elimina un usuario (por id o email); pide confirmación salvo con --yes')
    .argument('<id>', 'id o email del usuario')
    .option('-y, --yes', 'no pedir confirmación')
    .action(async (ref: string, opts: { yes?: boolean }, cmd: Command) => {
      const { api } = await cli.api(cmd);
      const { id, label } = await resolveId(api, ref);
      if (!opts.yes && !(await cli.prompt.confirm(`¿Eliminar el usuario ${label}?`))) throw new CliError('Cancelado', EXIT.cancelled);
      await api.admin.deleteUser({ id });
      cli.say(`Usuario eliminado: ${label}`);
    });

  users
    .command('2fa-reset')
    .description(
      'Desactiva la verificación en dos pasos de un usuario (por id o email) que perdió el teléfono y los códigos de recuperación: desde entonces entra solo con su contraseña',
    )
    .argument('<id>', 'id o email del usuario')
    .option('-y, --yes', 'no pedir confirmación')
    .action(async (ref: string, opts: { yes?: boolean }, cmd: Command) => {
      const { api } = await cli.api(cmd);
      const { id, user, label } = await resolveId(api, ref);
      if (user && !user.two_factor) throw new CliError(`${label} no tiene activada la verificación en dos pasos`);
      if (!opts.yes && !(await cli.prompt.confirm(`¿Desactivar la verificación en dos pasos de ${label}? Entrará solo con su contraseña`)))
        throw new CliError('Cancelado', EXIT.cancelled);
      await api.admin.resetUserTotp({ id });
      cli.say(`Verificación en dos pasos desactivada: ${label}. Puede volver a activarla con adops 2fa enable o en «Cambiar contraseña».`);
    });

  users
    .command('sessions')
    .description('Lista las sesiones abiertas de un usuario (por id o email): IP, navegador, inicio, último uso y expiración')
    .argument('<id>', 'id o email del usuario')
    .option('--json', 'salida JSON')
    .action(async (ref: string, opts: { json?: boolean }, cmd: Command) => {
      const { api } = await cli.api(cmd);
      const { id } = await resolveId(api, ref);
      const sessions = await api.admin.userSessions({ id });
      if (cli.machine(opts.json)) return cli.json(sessions);
      if (sessions.length === 0) return cli.say('No tiene sesiones abiertas');
      await cli.table({ columns: sessionColumns(cli.tz), rows: sessions });
      cli.say(zoneNote(cli.tz));
    });

  users
    .command('end-sessions')
    .description('Cierra las sesiones de un usuario (por id o email): todas, o una con --session; sus tokens dejan de valer en el acto')
    .argument('<id>', 'id o email del usuario')
    .option('--session <id>', 'solo esta sesión: su id o su comienzo (las 8 primeras letras que muestra `adops users sessions`)')
    .option('-y, --yes', 'no pedir confirmación')
    .option('--json', 'salida JSON')
    .action(async (ref: string, opts: { session?: string; yes?: boolean; json?: boolean }, cmd: Command) => {
      const { api } = await cli.api(cmd);
      const { id, label } = await resolveId(api, ref);
      const what = opts.session ? `la sesión ${opts.session} de ${label}` : `todas las sesiones de ${label}`;
      if (!opts.yes && !(await cli.prompt.confirm(`¿Cerrar ${what}?`))) throw new CliError('Cancelado', EXIT.cancelled);
      let ended = 1;
      if (opts.session) await api.admin.endUserSession({ id, session_id: await resolveSession(api, id, opts.session) });
      else ({ ended } = await api.admin.endUserSessions({ id }));
      if (cli.machine(opts.json)) return cli.json({ ended });
      cli.say(ended === 1 ? `1 sesión cerrada: ${label}` : `${ended} sesiones cerradas: ${label}`);
    });
}
