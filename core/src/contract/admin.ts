// Admin area: users and publisher API tokens.
import { z } from 'zod';
import { route, emptyResponse } from './route.js';
import { Email, NewPassword, UserSession } from './auth.js';
import { BACKUP_PASSPHRASE_MIN } from './values.js';

export { maskToken, BACKUP_PASSPHRASE_MIN, publisherDataUrl } from './values.js';

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

/** A user as the users list shows them: also whether two-factor sign-in is on. */
export const ListedUser = User.extend({ two_factor: z.boolean() });
export type ListedUser = z.infer<typeof ListedUser>;

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
  .string({ error: (iss) => (iss.code === 'invalid_type' ? 'El nombre del publisher no puede estar vacío.' : undefined) })
  .trim()
  .min(1, 'El nombre del publisher no puede estar vacío.')
  .max(200);

/** An address or a range a publisher token is accepted from: IPv4 or IPv6, alone or in CIDR. */
export const AllowedIp = z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()], {
  error: (issue) => `«${String(issue.input).slice(0, 60)}» no es una dirección IP ni un rango CIDR (IPv4 o IPv6)`,
});
export const MAX_ALLOWED_IPS = 100;
/** Requests per hour a token may make, its own or the server's default (ADOPS_PUBLISHER_RATE_LIMIT). */
export const MAX_TOKEN_RATE_LIMIT = 1_000_000;

const TokenExpiry = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })], {
    error: 'debe ser un día AAAA-MM-DD o una fecha y hora ISO 8601 con zona',
  })
  .nullable();
const TokenAllowList = z
  .array(AllowedIp, { error: 'debe ser una lista de direcciones IP o rangos CIDR' })
  .max(MAX_ALLOWED_IPS, `admite como mucho ${MAX_ALLOWED_IPS} entradas`);
const TokenRateLimit = z.number().int().min(1).max(MAX_TOKEN_RATE_LIMIT).nullable();

/**
 * How a token may be used: `expires_at` (a day AAAA-MM-DD: the token stops working at its
 * start in the reporting time zone; or an instant; null: never), the addresses it is accepted
 * from (empty: any) and its own limit of requests per hour (null: the server's default).
 */
export const TokenPolicy = z.object({
  expires_at: TokenExpiry.optional(),
  allowed_ips: TokenAllowList.optional(),
  rate_limit: TokenRateLimit.optional(),
});
export type TokenPolicy = z.input<typeof TokenPolicy>;

export const CreateTokenBody = TokenPolicy.extend({ publisher_name: PublisherName }).strict();
export type CreateTokenBody = z.input<typeof CreateTokenBody>;
/** Fields left out are not changed; null clears expiry and own limit. */
export const UpdateTokenBody = TokenPolicy.strict();
export type UpdateTokenBody = z.input<typeof UpdateTokenBody>;
export const TokenIdParams = z.object({ id: z.string().min(1).max(200) });

export const PublisherToken = z.object({
  /** The token's stable id: admin routes name a token by it (renewing keeps it). */
  id: z.string(),
  publisher_name: z.string(),
  token: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  /** ISO instant from which the token is refused; null: it never expires. */
  expires_at: z.string().nullable(),
  /** Whether it has expired (as the server sees it now). */
  expired: z.boolean(),
  /** Addresses and CIDR ranges it is accepted from; empty: any. */
  allowed_ips: z.array(z.string()),
  /** Its own limit of requests per hour; null: the server's default applies. */
  rate_limit: z.number().int().nullable(),
  /** The limit of requests per hour that applies to it (its own or the default). */
  effective_rate_limit: z.number().int(),
  /** Requests answered with it since it was created or renewed. */
  request_count: z.number().int(),
});
export type PublisherToken = z.infer<typeof PublisherToken>;

/**
 * A backup asks the admin to prove it is them again (password, and the code with 2FA on) and the
 * passphrase its secrets are encrypted with (needed to restore it).
 */
export const BackupBody = z.strictObject({
  password: z
    .string({ error: (iss) => (iss.code === 'invalid_type' ? 'Indica tu contraseña' : undefined) })
    .min(1, 'Indica tu contraseña')
    .max(1024, 'La contraseña es demasiado larga'),
  code: z.string().trim().max(64, 'El código es demasiado largo').optional(),
  passphrase: z
    .string({ error: 'Indica una frase de paso para cifrar los secretos de la copia' })
    .min(BACKUP_PASSPHRASE_MIN, `La frase de paso debe tener al menos ${BACKUP_PASSPHRASE_MIN} caracteres`)
    .max(1024, 'La frase de paso admite como máximo 1024 caracteres'),
});
export type BackupBody = z.input<typeof BackupBody>;

export const adminRoutes = {
  /** A consistent copy of the embedded stores, its secrets encrypted, streamed as a tar archive (`adops backup DIR`). */
  backup: route({
    method: 'POST',
    path: '/api/admin/backup',
    access: 'admin',
    body: BackupBody,
    response: z.string(),
    responseType: 'text',
  }),
  listUsers: route({ method: 'GET', path: '/api/admin/users', access: 'admin', response: z.array(ListedUser) }),
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
  /** Turns off the user's two-factor sign-in (phone and recovery codes lost): the password alone signs them in again. */
  resetUserTotp: route({
    method: 'DELETE',
    path: '/api/admin/users/{id}/totp',
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
    body: CreateTokenBody,
    response: PublisherToken,
  }),
  renewToken: route({
    method: 'POST',
    path: '/api/admin/publisher-tokens/renew',
    access: 'admin',
    body: z.object({ publisher_name: PublisherName }),
    response: PublisherToken,
  }),
  /** Changes a token's expiry, allow-list or limit (the token itself stays). */
  updateToken: route({
    method: 'PATCH',
    path: '/api/admin/publisher-tokens/{id}',
    access: 'admin',
    params: TokenIdParams,
    body: UpdateTokenBody,
    response: PublisherToken,
  }),
  /** Revokes a token by its id (a token given in the path instead is refused with 410, never deleted). */
  deleteToken: route({
    method: 'DELETE',
    path: '/api/admin/publisher-tokens/{id}',
    access: 'admin',
    params: TokenIdParams,
    response: emptyResponse,
    responseType: 'none',
  }),
};
