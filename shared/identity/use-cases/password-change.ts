import { hashPassword, verifyPassword } from '../../auth/passwords.ts';
import type { AdminPrincipal } from '../../auth/tokens.ts';
import { forgetSessionVersion } from './session-check.ts';
import { replacePasswordHash } from '../data/administrators.ts';
import { voidResetTokens } from '../data/reset-tokens.ts';
import { Conflict, Forbidden, ValidationError } from '../../errors.ts';
import { currentAdministrator } from './admin-session.ts';
import { requireAuthMode } from './auth-mode.ts';
import { guardLogin } from './login-guard.ts';
import { passwordProblems } from '../domain/password-policy.ts';

/**
 * Legacy change-password: only for records with their own password; the old one must
 * verify, the new one must meet the policy and differ. Outstanding reset tokens are
 * voided, since whoever asked for them is superseded by this change. Every session ends,
 * the caller's included (README "Sessions and revocation"): sign in with the new password.
 */
export async function changeLegacyPassword(
  caller: AdminPrincipal,
  oldPassword: string,
  newPassword: string,
  client: string,
) {
  requireAuthMode('legacy');
  const admin = await currentAdministrator(caller);
  if (!admin.passwordHash)
    throw new Forbidden('This account signs in through the identity provider: use POST /api/v2/auth/change-password.');
  // A stolen token must not become a free oracle for the password: the same limits as the login.
  const guard = await guardLogin('legacy', admin.login.trim().toLowerCase(), client);
  if (!(await verifyPassword(oldPassword, admin.passwordHash))) {
    await guard.failed('wrong_old_password');
    throw new ValidationError('The current password is wrong.', [
      { path: 'body.oldPassword', message: 'Wrong password.' },
    ]);
  }
  await guard.succeeded();
  const problems = passwordProblems(newPassword, 'body.newPassword', oldPassword);
  if (problems.length) throw new ValidationError('The new password does not meet the policy.', problems);
  if (!(await replacePasswordHash(admin.id, await hashPassword(newPassword), admin.passwordHash))) {
    throw new Conflict('The password changed meanwhile; try again.', 'password_changed');
  }
  // The hash's update raised the session version: every earlier token, the caller's too, has ended.
  forgetSessionVersion('admin', admin.id);
  await voidResetTokens(admin.id);
  return { success: true, message: 'The password has been changed.' };
}
