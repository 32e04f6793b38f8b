// Sign-in, the signed-in user and password change.
import { z } from 'zod';
import { route, emptyResponse } from './route.js';

export { sessionDevice } from './values.js';

export const Email = z.string().trim().toLowerCase().max(254).pipe(z.email());
/** New passwords: 8–256 characters (the server's rule; the spec sets none on the client). */
export const NewPassword = z.string().min(8, 'La contraseña debe tener al menos 8 caracteres').max(256);

export const LoginBody = z.object({
  email: z.string().trim().toLowerCase().min(1).max(254),
  password: z.string().min(1).max(1024),
  /** The second factor of a user with 2FA on: the app's 6-digit code or an unused recovery code. */
  totp: z.string().trim().max(64).optional(),
  /**
   * A terminal or script's known-device token from an earlier sign-in (browsers keep it in an
   * HttpOnly cookie instead); sent, even empty, it asks for the device's token in the answer.
   */
  device_token: z.string().trim().max(200).optional(),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const LoginResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  /** This device's token for the account, when the request sent `device_token`: keep it and send it next time. */
  device_token: z.string().optional(),
});
export type LoginResponse = z.infer<typeof LoginResponse>;

/** The claims of the session token, as the web and cli read them. */
export const SessionUser = z.object({ email: z.string(), is_admin: z.boolean(), exp: z.number() });
export type SessionUser = z.infer<typeof SessionUser>;

export const Me = z.object({
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  is_admin: z.boolean(),
  exp: z.number(),
});
export type Me = z.infer<typeof Me>;

export const ChangePasswordBody = z.object({
  current_password: z.string().min(1).max(1024),
  new_password: NewPassword,
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

/** An open session of a user, as an admin (or the user) sees it. */
export const UserSession = z.object({
  id: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  /** Last request seen (updated at most once a minute). */
  last_seen_at: z.string(),
  ip: z.string(),
  user_agent: z.string(),
  /** The session of the token asking. */
  current: z.boolean(),
});
export type UserSession = z.infer<typeof UserSession>;

/** A 6-digit code of the authenticator app (spaces ignored). */
export const TotpCode = z
  .string()
  .max(32)
  .transform((s) => s.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'El código debe tener 6 dígitos'));

/** The caller's two-factor sign-in: on, waiting for the first code, how many recovery codes are left, required by the server's policy. */
export const TotpStatus = z.object({
  enabled: z.boolean(),
  /** An enrolment was started and waits for its first code. */
  pending: z.boolean(),
  enabled_at: z.string().nullable(),
  recovery_codes_left: z.number(),
  /** ADOPS_REQUIRE_2FA asks it of this user: without it only 'Mi cuenta' answers. */
  required: z.boolean(),
});
export type TotpStatus = z.infer<typeof TotpStatus>;

/** A new enrolment: the base32 secret and the otpauth:// URL an authenticator app scans. */
export const TotpEnrolment = z.object({ secret: z.string(), otpauth_url: z.string() });
export type TotpEnrolment = z.infer<typeof TotpEnrolment>;

/** Starting an enrolment asks for the current password (a borrowed session cannot bind its own app). */
export const TotpBeginBody = z.object({ password: z.string().min(1).max(1024) });
export const TotpConfirmBody = z.object({ code: TotpCode });
export const TotpRecoveryCodes = z.object({ recovery_codes: z.array(z.string()) });
export const TotpDisableBody = z.object({ password: z.string().min(1).max(1024) });

/** What a refused sign-in or request says beyond `detail` (the client's ApiError.body). */
export interface AuthRefusal {
  /** The password was right; the second factor is missing or wrong. */
  totp_required?: boolean;
  /** The server requires 2FA of this user: enrol in 'Mi cuenta' (or `adops 2fa enable`) first. */
  totp_setup_required?: boolean;
}

export const authRoutes = {
  login: route({ method: 'POST', path: '/api/login', access: 'public', body: LoginBody, response: LoginResponse }),
  /** Ends the caller's session: its token stops working at once, on every instance. */
  logout: route({ method: 'POST', path: '/api/logout', access: 'user', response: emptyResponse, responseType: 'none' }),
  me: route({ method: 'GET', path: '/api/me', access: 'user', response: Me }),
  /** The caller's open sessions (this one marked `current`). */
  mySessions: route({ method: 'GET', path: '/api/me/sessions', access: 'user', response: z.array(UserSession) }),
  changePassword: route({
    method: 'POST',
    path: '/api/change-password',
    access: 'user',
    body: ChangePasswordBody,
    /** A fresh session token: every other session of the user ends, this one included. */
    response: z.object({ detail: z.string(), access_token: z.string(), token_type: z.literal('bearer') }),
  }),
  /** The caller's two-factor state. */
  totpStatus: route({ method: 'GET', path: '/api/me/totp', access: 'user', response: TotpStatus }),
  /** Starts (or restarts) an enrolment with the current password: a new secret, not active until confirmed. */
  totpBegin: route({ method: 'POST', path: '/api/me/totp', access: 'user', body: TotpBeginBody, response: TotpEnrolment }),
  /** Turns 2FA on with the app's first code (the user's other sessions end); answers the 10 one-time recovery codes (shown once). */
  totpConfirm: route({ method: 'POST', path: '/api/me/totp/confirm', access: 'user', body: TotpConfirmBody, response: TotpRecoveryCodes }),
  /** Turns 2FA off; needs the current password. */
  totpDisable: route({
    method: 'POST',
    path: '/api/me/totp/disable',
    access: 'user',
    body: TotpDisableBody,
    response: z.object({ detail: z.string() }),
  }),
};

/** The routes a user the server requires 2FA of can still call before enrolling. */
export const TOTP_SETUP_ROUTES = [
  authRoutes.logout,
  authRoutes.me,
  authRoutes.mySessions,
  authRoutes.changePassword,
  authRoutes.totpStatus,
  authRoutes.totpBegin,
  authRoutes.totpConfirm,
  authRoutes.totpDisable,
];

export { emptyResponse };
