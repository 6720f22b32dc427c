import { spendVerificationTime, verifyPassword } from '../auth/passwords.ts';
import { config } from '../config.ts';
import { findAdministratorByLogin, toProfile, type AdministratorProfile } from '../data/administrators.ts';
import { Forbidden, Unauthorized } from '../http/errors.ts';
import { startAdminSession } from './admin-session.ts';

export interface LegacyLoginResult {
  jwt: string;
  cookie: string;
  user: AdministratorProfile;
}

/**
 * Legacy sign-in against the service's own records. An unknown login and a wrong
 * password give the same 401 after the same work, so neither reveals which logins exist.
 */
export async function legacyLogin(login: string, password: string): Promise<LegacyLoginResult> {
  if (config().SITE_AUTH_METHOD !== 'legacy') {
    throw new Forbidden('Legacy login is disabled: this site signs in through the identity provider (POST /api/v2/auth/login).');
  }
  const admin = await findAdministratorByLogin(login);
  const valid = admin?.passwordHash ? await verifyPassword(password, admin.passwordHash) : (await spendVerificationTime(password), false);
  if (!admin || !valid) throw new Unauthorized('The login or password is wrong.');
  if (admin.vendorUser === 1) {
    throw new Forbidden('Vendor users sign in through the vendor login channel (POST /api/v2/auth/vendor/login).', {
      error: 'vendor_login_required',
    });
  }
  return { ...(await startAdminSession(admin)), user: toProfile(admin) };
}
