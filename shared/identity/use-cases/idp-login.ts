import { randomBytes } from 'node:crypto';
import { LOGIN_TTL_SECONDS } from '../../auth/login-lifetime.ts';
import {
  browserBinding,
  sameBrowser,
  signLoginState,
  verifyLoginState,
  type LoginChannel,
} from '../services/login-state.ts';
import { callbackUrlFor, pkceChallenge, vendorRejectionUrl, withErrorCode } from '../../auth/oidc.ts';
import { config } from '../../config.ts';
import { findAdministratorByEmail, linkIdentity } from '../data/administrators.ts';
import { storeLoginVerifier, takeLoginVerifier } from '../data/oauth-logins.ts';
import { DependencyUnavailable, ValidationError } from '../../errors.ts';
import { logger } from '../../logger.ts';
import { recordFailedLogin } from '../../services/metrics.ts';
import * as idp from '../services/identity-provider.ts';
import { startAdminSession } from './admin-session.ts';
import { requireAuthMode } from './auth-mode.ts';

// The administrators' app client, read when the function starts: a missing COGNITO_* setting fails the cold start, not a request.
const client = idp.adminAppClient();

const random = (bytes: number) => randomBytes(bytes).toString('base64url');

/** The redirect URI must lie on one of the admin UI origins (ADMIN_ORIGINS; the portal's are not): no open redirect. */
function assertAllowedRedirect(redirectUri: string): void {
  const origin = URL.canParse(redirectUri) ? new URL(redirectUri).origin : undefined;
  if (!origin || !config().ADMIN_ORIGINS.includes(origin)) {
    throw new ValidationError('redirect_uri must be on one of the admin origins.', [
      { path: 'body.redirect_uri', message: 'Not on an admin origin.' },
    ]);
  }
}

/**
 * POST /auth/login (and the deprecated vendor channel): the hosted UI's authorize URL
 * for an authorization-code login with PKCE. Spec: outside idp mode, 403 with
 * `error: "vendor_user_restricted"`. `browserSecret` goes into the login cookie (only its hash
 * is in the state, see login-state.ts).
 */
export async function beginLogin(
  redirectUri: string,
  channel: LoginChannel,
): Promise<{ auth_url: string; browserSecret: string }> {
  requireAuthMode('idp', { error: 'vendor_user_restricted' });
  assertAllowedRedirect(redirectUri);
  const verifier = random(32);
  const ref = random(16);
  const nonce = random(16);
  const browserSecret = random(32);
  await storeLoginVerifier(ref, verifier, LOGIN_TTL_SECONDS);
  // The provider comes back to the API through the front end the login started on (its
  // /api/* proxy), so the cookie is first-party there. The signed state's redirect_uri
  // fixes that origin, so the token exchange repeats the same callback URL.
  const state = await signLoginState({ redirectUri, nonce, ref, channel, browser: browserBinding(browserSecret) });
  const callbackUrl = callbackUrlFor(redirectUri);
  return {
    auth_url: idp.authorizeUrl(client, { state, codeChallenge: pkceChallenge(verifier), nonce, callbackUrl }),
    browserSecret,
  };
}

export interface CallbackQuery {
  code?: string | undefined;
  state?: string | undefined;
  error?: string | undefined;
}

export interface CallbackOutcome {
  location: string;
  /** The session's token, when the login succeeded. */
  jwt?: string;
}

/** Revocation is best effort: the user is being turned away either way. */
async function revokeQuietly(client: idp.AppClient, refreshToken: string | undefined): Promise<void> {
  if (!refreshToken) return;
  await idp
    .revokeTokens(client, refreshToken)
    .catch((error: unknown) => logger.warn('RevokeToken failed', { error: error as Error }));
}

/**
 * GET /auth/callback. Every outcome is a redirect: to the state's redirect URI with the
 * session cookie, or with `?error_code=` (to the admin UI when the state cannot be
 * trusted). Codes: idp_disabled, invalid_state, login_csrf (the browser does not hold the
 * login cookie the state is bound to), login_expired (state already used or too old:
 * replays land here), access_denied, invalid_request, code_rejected, invalid_id_token,
 * unknown_user, not_vendor_user (via the provider's logout). `browserSecret` is the login
 * cookie's value, which the caller clears whatever the outcome.
 */
export async function completeLogin(query: CallbackQuery, browserSecret: string | undefined): Promise<CallbackOutcome> {
  if (config().SITE_AUTH_METHOD !== 'idp') {
    recordFailedLogin('idp', 'idp_disabled');
    return { location: withErrorCode(idp.adminUiUrl(), 'idp_disabled') };
  }
  const state = await verifyLoginState(query.state);
  if (!state) {
    recordFailedLogin('idp', 'invalid_state');
    return { location: withErrorCode(idp.adminUiUrl(), 'invalid_state') };
  }
  const login = state.channel === 'vendor' ? 'vendor' : 'idp';
  const fail = (code: string): CallbackOutcome => {
    recordFailedLogin(login, code);
    return { location: withErrorCode(state.redirectUri, code) };
  };

  // Before the verifier is taken: a state planted in another browser neither logs it in nor burns the real login.
  if (!sameBrowser(state, browserSecret)) return fail('login_csrf');
  // Consumed first, whatever follows: a state (and the code it came with) works once.
  const verifier = await takeLoginVerifier(state.ref);
  if (!verifier) return fail('login_expired');
  if (query.error) return fail('access_denied');
  if (!query.code) return fail('invalid_request');

  // The browser is mid-redirect: a provider outage goes back to the front end as an error code, not a 503 page.
  const outage = (error: unknown) => {
    if (!(error instanceof DependencyUnavailable)) throw error;
    logger.warn('Identity provider unavailable at the callback', { error });
    return 'unavailable' as const;
  };
  const tokens = await idp.exchangeCode(client, query.code, verifier, callbackUrlFor(state.redirectUri)).catch(outage);
  if (tokens === 'unavailable') return fail('provider_unavailable');
  if (!tokens) return fail('code_rejected');
  const identity = await idp.verifyIdToken(client, tokens.idToken, state.nonce).catch(outage);
  if (identity === 'unavailable') return fail('provider_unavailable');
  if (!identity) {
    await revokeQuietly(client, tokens.refreshToken);
    return fail('invalid_id_token');
  }

  const admin = identity.emailVerified ? await findAdministratorByEmail(identity.email) : undefined;
  if (!admin || !(await linkIdentity(admin.id, identity.sub, identity.username))) {
    await revokeQuietly(client, tokens.refreshToken);
    return fail('unknown_user');
  }
  if (state.channel === 'vendor' && admin.vendorUser !== 1) {
    // Spec: rejected, tokens revoked, and the redirect passes through the provider's logout.
    await revokeQuietly(client, tokens.refreshToken);
    recordFailedLogin('vendor', 'not_vendor_user');
    return { location: idp.logoutUrl(client, vendorRejectionUrl(idp.adminUiUrl())) };
  }
  const { jwt } = await startAdminSession(admin);
  return { location: state.redirectUri, jwt };
}
