// Staff accounts: the protected bootstrap admin, CRUD for admins, password changes.
import { randomBytes, randomUUID } from 'node:crypto';
import type { CreateUserBody, ListedUser, UserChanges, User } from '@adops/core';
import { type EntityStore, StoreConflictError, type UserChange, type UserRecord } from '../store/types.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { assertUncommonPassword, isCommonPassword } from './common-passwords.js';
import { ConfigError } from '../config.js';
import { DomainError } from '../domain-errors.js';

export const publicUser = (u: UserRecord): User => ({
  id: u.id,
  first_name: u.first_name,
  last_name: u.last_name,
  email: u.email,
  is_admin: u.is_admin,
  protected: u.protected,
  created_at: u.created_at,
});

const EMAIL_TAKEN = 'Ya existe un usuario con ese email';

/** The store's e-mail conflict as the 409 the routes answer; anything else unchanged. */
const emailTaken = (e: unknown) => (e instanceof StoreConflictError && e.field === 'email' ? new DomainError('conflict', EMAIL_TAKEN) : e);

export class UserService {
  constructor(
    private readonly store: EntityStore,
    private readonly scryptLogN: number,
  ) {}

  byEmail(email: string): Promise<UserRecord | undefined> {
    return this.store.users.byEmail(email.trim().toLowerCase());
  }

  /**
   * Creates the protected admin on first start. Returns the generated password when none
   * was configured (to be printed once), or null when the admin already existed. A configured
   * password that is a common one is refused (ConfigError), like a short one.
   */
  async bootstrapAdmin(email: string, password?: string): Promise<{ email: string; password?: string } | null> {
    if ((await this.store.users.list()).some((u) => u.protected)) return null;
    if (password !== undefined && isCommonPassword(password))
      throw new ConfigError('ADOPS_ADMIN_PASSWORD is one of the most common passwords: choose another');
    const chosen = password ?? randomBytes(12).toString('base64url');
    const password_hash = await hashPassword(chosen, this.scryptLogN);
    const created = await this.store.users.bootstrapAdmin({
      id: randomUUID(),
      first_name: 'Admin',
      last_name: '',
      email,
      password_hash,
      is_admin: true,
      protected: true,
      created_at: new Date().toISOString(),
    });
    // Another instance starting at the same time created it first.
    if (!created) return null;
    return { email, password: password ? undefined : chosen };
  }

  /**
   * Whether ADOPS_ADMIN_PASSWORD still opens the protected admin after the first start (it is
   * applied only then); null when there is no protected admin.
   */
  async adminPasswordMatches(password: string): Promise<boolean | null> {
    const admin = (await this.store.users.list()).find((u) => u.protected);
    return admin ? verifyPassword(password, admin.password_hash, null) : null;
  }

  /** Every user, and whether their two-factor sign-in is on (a pending enrolment is not). */
  async list(): Promise<ListedUser[]> {
    const [users, totp] = await Promise.all([this.store.users.list(), this.store.totp.list()]);
    const on = new Set(totp.filter((t) => t.enabled_at !== null).map((t) => t.user_id));
    return users.map((u) => ({ ...publicUser(u), two_factor: on.has(u.id) }));
  }

  async create(input: Required<CreateUserBody>): Promise<User> {
    assertUncommonPassword(input.password);
    if (await this.byEmail(input.email)) throw new DomainError('conflict', EMAIL_TAKEN);
    const password_hash = await hashPassword(input.password, this.scryptLogN);
    const record: UserRecord = {
      id: randomUUID(),
      first_name: input.first_name,
      last_name: input.last_name,
      email: input.email,
      password_hash,
      is_admin: input.is_admin,
      protected: false,
      created_at: new Date().toISOString(),
    };
    await this.store.users.create(record).catch((e) => {
      throw emailTaken(e);
    });
    return publicUser(record);
  }

  async update(id: string, changes: UserChanges): Promise<User> {
    const user = await this.store.users.byId(id);
    if (!user) throw new DomainError('not_found', 'Usuario no encontrado');
    if (user.protected) throw new DomainError('forbidden', 'El administrador protegido no se puede modificar');
    if (changes.password) assertUncommonPassword(changes.password);
    const password_hash = changes.password ? await hashPassword(changes.password, this.scryptLogN) : undefined;
    const change: UserChange = {
      first_name: changes.first_name,
      last_name: changes.last_name,
      email: changes.email,
      is_admin: changes.is_admin,
      ...(password_hash ? { password_hash, password_changed_at: new Date().toISOString() } : {}),
    };
    const updated = await this.store.users.update(id, change).catch((e) => {
      throw emailTaken(e);
    });
    if (!updated) throw new DomainError('not_found', 'Usuario no encontrado');
    return publicUser(updated);
  }

  async remove(id: string, actingId: string): Promise<void> {
    const user = await this.store.users.byId(id);
    if (!user) throw new DomainError('not_found', 'Usuario no encontrado');
    if (user.protected) throw new DomainError('forbidden', 'El administrador protegido no se puede eliminar');
    if (user.id === actingId) throw new DomainError('conflict', 'No puedes eliminar tu propio usuario');
    if (!(await this.store.users.remove(id))) throw new DomainError('not_found', 'Usuario no encontrado');
  }

  /**
   * Changes the user's own password: the new one is checked first (common ones refused), then the
   * current one by `checkCurrent` (sign-in's limits: AuthService.checkCurrentPassword); the updated user.
   */
  async changePassword(userId: string, next: string, checkCurrent: (user: UserRecord) => Promise<void>): Promise<UserRecord> {
    const user = await this.store.users.byId(userId);
    if (!user) throw new DomainError('unauthorized', 'No autenticado');
    assertUncommonPassword(next);
    await checkCurrent(user);
    const password_hash = await hashPassword(next, this.scryptLogN);
    const updated = await this.store.users.update(user.id, { password_hash, password_changed_at: new Date().toISOString() });
    if (!updated) throw new DomainError('unauthorized', 'No autenticado');
    return updated;
  }
}
