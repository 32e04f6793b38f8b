// Admin area: users and publisher API tokens.
import { z } from 'zod';
import { route, emptyResponse } from './route.js';
import { Email, NewPassword, UserSession } from './auth.js';

const Name = z.string().trim().max(100);

export const User = z.object({
  id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  is_admin: z.boolean(),
  protected: z.boolean(),
  created_at: z.string(),
});
export type User = z.infer<typeof User>;

export const CreateUserBody = z.object({
  first_name: Name.min(1, 'El nombre es obligatorio'),
  last_name: Name.default(''),
  email: Email,
  password: NewPassword,
  is_admin: z.boolean().default(false),
});
export type CreateUserBody = z.input<typeof CreateUserBody>;

/** Empty strings mean "not changed" (SPEC §5: empty fields are not applied). */
const blank = (v: string | undefined) => (v === undefined || v === '' ? undefined : v);
const optionalText = (max: number) => z.string().trim().max(max).optional().transform(blank);
export const UpdateUserBody = z
  .object({
    first_name: optionalText(100),
    last_name: z.string().trim().max(100).optional(),
    email: z.string().trim().toLowerCase().max(254).optional().transform(blank).pipe(z.email().optional()),
    password: z.string().optional().transform(blank).pipe(NewPassword.optional()),
    is_admin: z.boolean().optional(),
  })
  .strict();
export type UpdateUserBody = z.input<typeof UpdateUserBody>;
export type UserChanges = z.output<typeof UpdateUserBody>;

export const UserIdParams = z.object({ id: z.string().min(1).max(64) });
export const UserSessionParams = UserIdParams.extend({ session_id: z.string().min(1).max(64) });

export const PublisherName = z
  .string({ error: '❌ El nombre del publisher no puede estar vacío.' })
  .trim()
  .min(1, '❌ El nombre del publisher no puede estar vacío.')
  .max(200);

export const PublisherToken = z.object({
  publisher_name: z.string(),
  token: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type PublisherToken = z.infer<typeof PublisherToken>;

export const adminRoutes = {
  listUsers: route({ method: 'GET', path: '/api/admin/users', access: 'admin', response: z.array(User) }),
  createUser: route({ method: 'POST', path: '/api/admin/users', access: 'admin', body: CreateUserBody, response: User }),
  updateUser: route({
    method: 'PATCH',
    path: '/api/admin/users/{id}',
    access: 'admin',
    params: UserIdParams,
    body: UpdateUserBody,
    response: User,
  }),
  deleteUser: route({
    method: 'DELETE',
    path: '/api/admin/users/{id}',
    access: 'admin',
    params: UserIdParams,
    response: emptyResponse,
    responseType: 'none',
  }),
  /** The user's open sessions: device, address, last seen. */
  userSessions: route({
    method: 'GET',
    path: '/api/admin/users/{id}/sessions',
    access: 'admin',
    params: UserIdParams,
    response: z.array(UserSession),
  }),
  /** Ends every session of the user (their tokens stop working at once). */
  endUserSessions: route({
    method: 'DELETE',
    path: '/api/admin/users/{id}/sessions',
    access: 'admin',
    params: UserIdParams,
    response: z.object({ ended: z.number().int() }),
  }),
  /** Ends one session of the user. */
  endUserSession: route({
    method: 'DELETE',
    path: '/api/admin/users/{id}/sessions/{session_id}',
    access: 'admin',
    params: UserSessionParams,
    response: emptyResponse,
    responseType: 'none',
  }),
  listTokens: route({
    method: 'GET',
    path: '/api/admin/publisher-tokens',
    access: 'admin',
    response: z.array(PublisherToken),
  }),
  createToken: route({
    method: 'POST',
    path: '/api/admin/publisher-tokens',
    access: 'admin',
    body: z.object({ publisher_name: PublisherName }),
    response: PublisherToken,
  }),
  renewToken: route({
    method: 'POST',
    path: '/api/admin/publisher-tokens/renew',
    access: 'admin',
    body: z.object({ publisher_name: PublisherName }),
    response: PublisherToken,
  }),
  deleteToken: route({
    method: 'DELETE',
    path: '/api/admin/publisher-tokens/{token}',
    access: 'admin',
    params: z.object({ token: z.string().min(1).max(200) }),
    response: emptyResponse,
    responseType: 'none',
  }),
};

/** The URL a publisher uses to pull its own data (SPEC §2 Admin: the range is yesterday). */
export function publisherDataUrl(origin: string, token: string, startDate: string, endDate: string): string {
  const q = new URLSearchParams({ start_date: startDate, end_date: endDate, token });
  return `${origin.replace(/\/$/, '')}/api/publisher/data?${q.toString()}`;
}
