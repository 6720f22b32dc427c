import { hashPassword } from '../../auth/passwords.ts';
import { forgetSessionVersion } from './session-check.ts';
import { epochSeconds } from '../../clock.ts';
import { getAdministrator } from '../data/administrators.ts';
import { findResetToken, spendResetToken } from '../data/reset-tokens.ts';
import { Conflict, ValidationError } from '../../errors.ts';
import { requireAuthMode } from './auth-mode.ts';
import { passwordProblems } from '../domain/password-policy.ts';
import { hashResetToken } from '../domain/reset-token-hash.ts';

const refused = () =>
  new ValidationError('The reset token is invalid, expired or already used.', [
    { path: 'body.token', message: 'Invalid, expired or already used.' },
  ]);

/** Reset-password: a valid, unexpired, unused token sets the new password once (see `spendResetToken`). */
export async function resetPassword(token: string, newPassword: string): Promise<{ success: true; message: string }> {
  requireAuthMode('legacy');
  const problems = passwordProblems(newPassword, 'body.newPassword');
  if (problems.length) throw new ValidationError('The new password does not meet the policy.', problems);
  const stored = await findResetToken(hashResetToken(token));
  if (!stored || stored.expiresAt <= epochSeconds()) throw refused();
  const admin = await getAdministrator(stored.adminId);
  if (!admin?.passwordHash) throw refused();
  const outcome = await spendResetToken(stored, await hashPassword(newPassword), admin.passwordHash);
  if (outcome === 'token-spent') throw refused();
  if (outcome === 'password-changed')
    throw new Conflict(
      'The password changed while resetting it; the token is still valid, try again.',
      'password_changed',
    );
  // The transaction raised the session version: every earlier token has ended.
  forgetSessionVersion('admin', admin.id);
  return { success: true, message: 'The password has been reset. Sign in with the new one.' };
}
