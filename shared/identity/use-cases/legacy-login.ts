import { hashPassword, needsRehash, spendVerificationTime, verifyPassword } from '../../auth/passwords.ts';
import { findAdministratorByLogin, replacePasswordHash } from '../data/administrators.ts';
import { toProfile, type LegacyLoginResult } from '../domain/administrator.ts';
import { Forbidden, RateLimited, Unauthenticated } from '../../errors.ts';
import { recordFailedLogin } from '../../services/metrics.ts';
import { startAdminSession } from './admin-session.ts';
import { requireAuthMode } from './auth-mode.ts';
import { guardLogin } from './login-guard.ts';

/**
 * Legacy sign-in against the service's own records. An unknown login and a wrong
 * password give the same 401 after the same work, so neither reveals which logins exist.
 * A hash in an old format (bcrypt from the old system) is replaced by scrypt on success.
 * Failures are throttled per login and per client address (login-guard.ts).
 */
export async function legacyLogin(login: string, password: string, client: string): Promise<LegacyLoginResult> {
  requireAuthMode('legacy');
  const guard = await guardLogin('legacy', login.trim().toLowerCase(), client).catch((error: unknown) => {
    if (error instanceof RateLimited) recordFailedLogin('legacy', 'locked_out');
    throw error;
  });
  const admin = await findAdministratorByLogin(login);
  const valid = admin?.passwordHash
    ? await verifyPassword(password, admin.passwordHash)
    : await spendVerificationTime(password).then(() => false);
  if (!admin || !valid) {
    recordFailedLogin('legacy', 'wrong_credentials');
    await guard.failed('wrong_credentials');
    throw new Unauthenticated('The login or password is wrong.');
  }
  await guard.succeeded();
  if (admin.vendorUser === 1) {
    recordFailedLogin('legacy', 'vendor_login_required');
    throw new Forbidden('Vendor users sign in through the vendor login channel (POST /api/v2/auth/vendor/login).', {
      error: 'vendor_login_required',
    });
  }
  if (needsRehash(admin.passwordHash!)) {
    // Conditional on the old hash: a concurrent password change wins over the upgrade.
    await replacePasswordHash(admin.id, await hashPassword(password), admin.passwordHash!, false);
  }
  return { ...(await startAdminSession(admin)), user: toProfile(admin) };
}
