import { TOKEN_TTL_SECONDS } from '../auth/tokens.ts';

/**
 * The auth cookie. `__Host-` binds it to this exact host over HTTPS with `Path=/`;
 * `HttpOnly` keeps it from scripts; `SameSite=Lax` stops cross-site sub-requests from
 * carrying it (unsafe cookie requests also pass the CSRF check in `authenticate.ts`).
 */
export const AUTH_COOKIE = '__Host-ticketing-auth';

function authCookie(token: string, maxAgeSeconds: number): string {
  return `${AUTH_COOKIE}=${token}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; Secure; SameSite=Lax`;
}

/** The cookie carrying a session's token, living as long as the token. */
export const sessionCookie = (jwt: string): string => authCookie(jwt, TOKEN_TTL_SECONDS);

export function clearedAuthCookie(): string {
  return `${AUTH_COOKIE}=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax`;
}

/** API Gateway v2 hands cookies over as `name=value` strings. */
export function readCookie(cookies: readonly string[] | undefined, name: string): string | undefined {
  for (const cookie of cookies ?? []) {
    const eq = cookie.indexOf('=');
    if (eq > 0 && cookie.slice(0, eq).trim() === name) return cookie.slice(eq + 1).trim();
  }
  return undefined;
}
