import type { AdminPrincipal } from '../../auth/tokens.ts';
import { registeredLogoutUrls } from '../../auth/oidc.ts';
import { config } from '../../config.ts';
import { Forbidden, ValidationError } from '../../errors.ts';
import * as idp from '../../services/identity-provider.ts';
import { currentAdministrator } from './admin-session.ts';
import { requireAuthMode } from './auth-mode.ts';

// The administrators' app client, read when the function starts: a missing COGNITO_* setting fails the cold start, not a request.
const client = idp.adminAppClient();

/**
 * POST /auth/logout: the provider's logout URL, returning to `returnTo` (default: the
 * admin UI). Cognito only returns to registered logout URLs, and so only those are
 * accepted here (no open redirect).
 */
export function idpLogout(returnTo: string | undefined): { success: true; logout_url: string } {
  requireAuthMode('idp');
  const target = returnTo ?? idp.adminUiUrl();
  if (!registeredLogoutUrls(config().ALLOWED_ORIGINS, idp.adminUiUrl()).includes(target)) {
    throw new ValidationError('return_to must be one of the allowed origins or the admin UI URL.', [
      { path: 'query.return_to', message: 'Not an allowed return address.' },
    ]);
  }
  return { success: true, logout_url: idp.logoutUrl(client, target) };
}

/** POST /auth/change-password: the provider emails the user a reset code (ForgotPassword). */
export async function changeIdpPassword(caller: AdminPrincipal): Promise<{ success: true; message: string }> {
  requireAuthMode('idp');
  const admin = await currentAdministrator(caller);
  if (!admin.idpUsername) {
    throw new Forbidden('Only accounts that sign in through the identity provider can change their password here.');
  }
  await idp.sendPasswordResetEmail(client, admin.idpUsername);
  return { success: true, message: 'The identity provider has emailed you a code to set a new password.' };
}
