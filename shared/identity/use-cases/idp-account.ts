import type { AdminPrincipal } from '../../auth/tokens.ts';
import { registeredLogoutUrls } from '../../auth/oidc.ts';
import { config } from '../../config.ts';
import { requireSlots } from '../../data/rate-limits.ts';
import { Forbidden, ValidationError } from '../../errors.ts';
import * as idp from '../services/identity-provider.ts';
import { currentAdministrator } from './admin-session.ts';
import { requireAuthMode } from './auth-mode.ts';
import { RESET_MAIL_CLIENT } from './login-guard.ts';

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
  if (!registeredLogoutUrls(config().ADMIN_ORIGINS, idp.adminUiUrl()).includes(target)) {
    throw new ValidationError('return_to must be one of the admin origins or the admin UI URL.', [
      { path: 'query.return_to', message: 'Not an allowed return address.' },
    ]);
  }
  return { success: true, logout_url: idp.logoutUrl(client, target) };
}

/** Reset mails per account in any 24 hours, as the legacy forgot-password (the OpenAPI description of POST /auth/change-password). */
export const IDP_RESET_MAIL_LIMIT = 3;

/**
 * POST /auth/change-password: the provider emails the user a reset code (ForgotPassword).
 * The mail is limited per client address (the forgot-password window: any reset mail counts)
 * and per account, so a token cannot be used to flood a mailbox.
 */
export async function changeIdpPassword(
  caller: AdminPrincipal,
  clientAddress: string,
): Promise<{ success: true; message: string }> {
  requireAuthMode('idp');
  const admin = await currentAdministrator(caller);
  if (!admin.idpUsername) {
    throw new Forbidden('Only accounts that sign in through the identity provider can change their password here.');
  }
  await requireSlots(
    [
      {
        name: RESET_MAIL_CLIENT.name,
        subject: clientAddress,
        limit: RESET_MAIL_CLIENT.limit,
        windowSeconds: RESET_MAIL_CLIENT.windowSeconds,
      },
      { name: 'IDP_RESET_MAIL', subject: String(admin.id), limit: IDP_RESET_MAIL_LIMIT, windowSeconds: 24 * 60 * 60 },
    ],
    () => 'Too many password reset mails: use the code already sent, or try later.',
  );
  await idp.sendPasswordResetEmail(client, admin.idpUsername);
  return { success: true, message: 'The identity provider has emailed you a code to set a new password.' };
}
