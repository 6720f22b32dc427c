import { LOGIN_TTL_SECONDS } from '../auth/login-lifetime.ts';
import { TOKEN_TTL_SECONDS } from '../auth/tokens.ts';

/**
 * The auth cookie. `__Host-` binds it to this exact host over HTTPS with `Path=/`;
 * `HttpOnly` keeps it from scripts; `SameSite=Lax` stops cross-site sub-requests from
 * carrying it (unsafe cookie requests also pass the CSRF check in `authenticate.ts`).
 */
export const AUTH_COOKIE = '__Host-ticketing-auth';

/** Every cookie of the service: host-bound, HttpOnly, Secure, Lax (see above); Max-Age 0 clears it. */
function hostCookie(name: string, value: string, maxAgeSeconds: number): string {
  return `${name}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; Secure; SameSite=Lax`;
}

/** The cookie carrying a session's token, living as long as the token. */
export const sessionCookie = (jwt: string): string => hostCookie(AUTH_COOKIE, jwt, TOKEN_TTL_SECONDS);

export const clearedAuthCookie = (): string => hostCookie(AUTH_COOKIE, '', 0);

/**
 * The hosted-UI login's browser binding (shared/identity/services/login-state.ts): set by POST /auth/login,
 * read and cleared by GET /auth/callback, living as long as the login's state. `SameSite=Lax`
 * still sends it on the provider's top-level redirect back to the callback.
 */
export const LOGIN_COOKIE = '__Host-ticketing-login';

export const loginCookie = (value: string): string => hostCookie(LOGIN_COOKIE, value, LOGIN_TTL_SECONDS);

export const clearedLoginCookie = (): string => hostCookie(LOGIN_COOKIE, '', 0);

/** API Gateway v2 hands cookies over as `name=value` strings. */
export function readCookie(cookies: readonly string[] | undefined, name: string): string | undefined {
  for (const cookie of cookies ?? []) {
    const eq = cookie.indexOf('=');
    if (eq > 0 && cookie.slice(0, eq).trim() === name) return cookie.slice(eq + 1).trim();
  }
  return undefined;
}
