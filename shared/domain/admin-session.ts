import { issueToken, SESSION_LIMIT_SECONDS, TOKEN_TTL_SECONDS, type Principal } from '../auth/tokens.ts';
import { epochSeconds } from '../clock.ts';
import { getAdministrator, type Administrator } from '../data/administrators.ts';
import { authCookie } from '../http/cookies.ts';
import { Unauthorized } from '../http/errors.ts';

/**
 * A session for an administrator: the token and the cookie that carries it. `authTime`
 * is the original sign-in; a refresh keeps it, so the absolute limit counts from there.
 */
export async function startAdminSession(admin: Administrator, authTime = epochSeconds()): Promise<{ jwt: string; cookie: string }> {
  const jwt = await issueToken({
    kind: 'admin',
    id: admin.id,
    login: admin.login,
    permissions: admin.permissions,
    vendorUser: admin.vendorUser === 1,
    authTime,
  });
  return { jwt, cookie: authCookie(jwt, TOKEN_TTL_SECONDS) };
}

/** The caller's record; read rather than echoed from the token, so a removed account shows at once. */
export async function currentAdministrator(caller: Principal | undefined): Promise<Administrator> {
  const admin = caller?.kind === 'admin' ? await getAdministrator(caller.id) : undefined;
  if (!admin) throw new Unauthorized('The account behind this token no longer exists.');
  return admin;
}

/**
 * A new token for a still-valid one (the middleware already refused expired ones), with
 * the permissions of the record as it is now, until `SESSION_LIMIT_SECONDS` after the
 * original sign-in: past that, sign in again.
 */
export async function refreshAdminSession(caller: Principal | undefined): Promise<{ jwt: string; cookie: string }> {
  if (caller && epochSeconds() >= caller.authTime + SESSION_LIMIT_SECONDS) {
    throw new Unauthorized('The session has reached its absolute limit: sign in again.');
  }
  const admin = await currentAdministrator(caller);
  return startAdminSession(admin, caller!.authTime);
}
