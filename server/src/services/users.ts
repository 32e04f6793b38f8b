// Staff accounts: the protected bootstrap admin, CRUD for admins, password changes.
import { randomBytes, randomUUID } from 'node:crypto';
import type { CreateUserBody, UserChanges, User } from '@adops/core';
import type { Store, UserRecord } from '../store/store.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { httpError } from '../errors.js';

export const publicUser = (u: UserRecord): User => ({
  id: u.id,
  first_name: u.first_name,
  last_name: u.last_name,
  email: u.email,
  is_admin: u.is_admin,
  protected: u.protected,
  created_at: u.created_at,
});

export class UserService {
  constructor(
    private readonly store: Store,
    private readonly scryptLogN: number,
  ) {}

  byEmail(email: string): UserRecord | undefined {
    const wanted = email.trim().toLowerCase();
    return this.store.data.users.find((u) => u.email === wanted);
  }

  /**
   * Creates the protected admin on first start. Returns the generated password when none
   * was configured (to be printed once), or null when the admin already existed.
   */
  async bootstrapAdmin(email: string, password?: string): Promise<{ email: string; password?: string } | null> {
    if (this.store.data.users.some((u) => u.protected)) return null;
    const chosen = password ?? randomBytes(12).toString('base64url');
    const password_hash = await hashPassword(chosen, this.scryptLogN);
    await this.store.update((d) => {
      const existing = d.users.find((u) => u.email === email);
      if (existing) Object.assign(existing, { protected: true, is_admin: true, password_hash });
      else
        d.users.push({
          id: randomUUID(),
          first_name: 'Admin',
          last_name: '',
          email,
          password_hash,
          is_admin: true,
          protected: true,
          created_at: new Date().toISOString(),
        });
    });
    return { email, password: password ? undefined : chosen };
  }

  list(): User[] {
    return this.store.data.users.map(publicUser);
  }

  async create(input: Required<CreateUserBody>): Promise<User> {
    if (this.byEmail(input.email)) throw httpError(409, 'Ya existe un usuario con ese email');
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
    await this.store.update((d) => {
      if (d.users.some((u) => u.email === record.email)) throw httpError(409, 'Ya existe un usuario con ese email');
      d.users.push(record);
    });
    return publicUser(record);
  }

  async update(id: string, changes: UserChanges): Promise<User> {
    const password_hash = changes.password ? await hashPassword(changes.password, this.scryptLogN) : undefined;
    return this.store.update((d) => {
      const user = d.users.find((u) => u.id === id);
      if (!user) throw httpError(404, 'Usuario no encontrado');
      if (user.protected) throw httpError(403, 'El administrador protegido no se puede modificar');
      if (changes.email && changes.email !== user.email && d.users.some((u) => u.email === changes.email))
        throw httpError(409, 'Ya existe un usuario con ese email');
      if (changes.first_name !== undefined) user.first_name = changes.first_name;
      if (changes.last_name !== undefined) user.last_name = changes.last_name;
      if (changes.email !== undefined) user.email = changes.email;
      if (changes.is_admin !== undefined) user.is_admin = changes.is_admin;
      if (password_hash) {
        user.password_hash = password_hash;
        user.password_changed_at = new Date().toISOString();
      }
      return publicUser(user);
    });
  }

  async remove(id: string, actingEmail: string): Promise<void> {
    await this.store.update((d) => {
      const index = d.users.findIndex((u) => u.id === id);
      if (index < 0) throw httpError(404, 'Usuario no encontrado');
      const user = d.users[index];
      if (user.protected) throw httpError(403, 'El administrador protegido no se puede eliminar');
      if (user.email === actingEmail) throw httpError(409, 'No puedes eliminar tu propio usuario');
      d.users.splice(index, 1);
    });
  }

  async changePassword(email: string, current: string, next: string): Promise<void> {
    const user = this.byEmail(email);
    if (!user) throw httpError(401, 'No autenticado');
    if (!(await verifyPassword(current, user.password_hash))) throw httpError(400, 'La contraseña actual no es correcta');
    const password_hash = await hashPassword(next, this.scryptLogN);
    await this.store.update((d) => {
      const target = d.users.find((u) => u.id === user.id);
      if (!target) throw httpError(401, 'No autenticado');
      target.password_hash = password_hash;
      target.password_changed_at = new Date().toISOString();
    });
  }
}
