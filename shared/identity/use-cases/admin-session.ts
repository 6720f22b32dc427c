import { issueSessionToken } from '../services/token-issuer.ts';
import { SESSION_LIMIT_SECONDS, type AdminPrincipal } from '../../auth/tokens.ts';
import { epochSeconds } from '../../clock.ts';
import { getAdministrator } from '../data/administrators.ts';
import { toProfile, type Administrator, type AdministratorProfile } from '../domain/administrator.ts';
import { Unauthenticated } from '../../errors.ts';

/** A session's token and its expiry (epoch seconds, the token's `exp`). */
export interface AdminSession {
  jwt: string;
  expiresAt: number;
}

/**
 * A session for an administrator: its token (the handler also sets it as the cookie). `authTime`
 * is the original sign-in; a refresh keeps it, so the absolute limit counts from there.
 */
export async function startAdminSession(admin: Administrator, authTime = epochSeconds()): Promise<AdminSession> {
  const { token, expiresAt } = await issueSessionToken({
    kind: 'admin',
    id: admin.id,
    login: admin.login,
    permissions: admin.permissions,
    vendorUser: admin.vendorUser === 1,
    authTime,
    sessionVersion: admin.sessionVersion ?? 0,
    // In the token, so the checks cost no read; a refresh picks up a changed scope.
    ...(admin.eventScope ? { eventScope: admin.eventScope } : {}),
  });
  return { jwt: token, expiresAt };
}

/** The caller's record; read rather than echoed from the token, so a removed account shows at once. */
export async function currentAdministrator(caller: AdminPrincipal): Promise<Administrator> {
  const admin = await getAdministrator(caller.id);
  if (!admin) throw new Unauthenticated('The account behind this token no longer exists.');
  return admin;
}

/** The caller's profile and permissions (`GET /auth/me`). */
export const currentProfile = async (caller: AdminPrincipal): Promise<AdministratorProfile> =>
  toProfile(await currentAdministrator(caller));

/**
 * A new token for a still-valid one (the middleware already refused expired ones), with
 * the permissions of the record as it is now, until `SESSION_LIMIT_SECONDS` after the
 * original sign-in: past that, sign in again.
 */
export async function refreshAdminSession(caller: AdminPrincipal): Promise<AdminSession> {
  if (epochSeconds() >= caller.authTime + SESSION_LIMIT_SECONDS) {
    throw new Unauthenticated('The session has reached its absolute limit: sign in again.');
  }
  const admin = await currentAdministrator(caller);
  // Exact here (the record is read anyway): the middleware's cached check may be up to
  // SESSION_CHECK_SECONDS behind, and a refresh must never carry an ended session on.
  if ((admin.sessionVersion ?? 0) !== (caller.sessionVersion ?? 0)) {
    throw new Unauthenticated(
      'This session has ended (signed out everywhere, or the password changed): sign in again.',
    );
  }
  return startAdminSession(admin, caller.authTime);
}
