import {
  CognitoIdentityProviderClient,
  ForgotPasswordCommand,
  LimitExceededException,
  RevokeTokenCommand,
  TooManyRequestsException,
} from '@aws-sdk/client-cognito-identity-provider';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as z from '../schema.ts';
import { now } from '../clock.ts';
import { requireSection } from '../config.ts';
import { RateLimited } from '../errors.ts';

/**
 * Cognito as the OIDC provider of `SITE_AUTH_METHOD=idp`, imported only by the handlers
 * whose row `uses.identityProvider`. The hosted UI endpoints (authorize, token, logout)
 * are plain HTTPS on COGNITO_DOMAIN; the SDK client (RevokeToken, ForgotPassword, both
 * unauthenticated client APIs) finds a local stand-in through
 * AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER.
 */
const flag = z.pipe(z._default(z.enum(['true', 'false']), 'true'), z.transform((value) => value === 'true'));
const settings = requireSection(
  'the identity provider',
  z.object({
    COGNITO_USER_POOL_ID: z.string().check(z.minLength(1)),
    COGNITO_CLIENT_ID: z.string().check(z.minLength(1)),
    /** Base URL of the hosted UI: `https://<prefix>.auth.<region>.amazoncognito.com`. */
    COGNITO_DOMAIN: z.url(),
    /** `iss` of the pool's tokens: `https://cognito-idp.<region>.amazonaws.com/<poolId>`. */
    COGNITO_ISSUER: z.url(),
    /** Default `<issuer>/.well-known/jwks.json` (cognito-local's discovery document names the wrong host, so no discovery). */
    COGNITO_JWKS_URL: z.optional(z.url()),
    /** Cognito puts the authorize request's nonce into the id token; cognito-local drops it (local/test: false). */
    COGNITO_REQUIRE_NONCE: flag,
    /** This API's base URL (`…/api/v2`): the callback is `<API_BASE_URL>/auth/callback`. */
    API_BASE_URL: z.url(),
    ADMIN_UI_URL: z.url(),
  }),
);

const trim = (url: string) => url.replace(/\/+$/, '');
const domain = trim(settings.COGNITO_DOMAIN);
export const callbackUrl = `${trim(settings.API_BASE_URL)}/auth/callback`;
export const adminUiUrl = settings.ADMIN_UI_URL;

const jwks = createRemoteJWKSet(new URL(settings.COGNITO_JWKS_URL ?? `${trim(settings.COGNITO_ISSUER)}/.well-known/jwks.json`), {
  timeoutDuration: 3_000,
});

let client: CognitoIdentityProviderClient | undefined;
const cognito = () => (client ??= new CognitoIdentityProviderClient({ maxAttempts: 2, requestHandler: { connectionTimeout: 2_000, requestTimeout: 4_000 } }));

/** The hosted UI's authorize URL for an authorization-code login with PKCE S256. */
export function authorizeUrl({ state, codeChallenge, nonce }: { state: string; codeChallenge: string; nonce: string }): string {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: settings.COGNITO_CLIENT_ID,
    redirect_uri: callbackUrl,
    scope: 'openid email profile',
    state,
    nonce,
    code_challenge: codeChallenge,
    code_challenge_method: 'S256',
  });
  return `${domain}/oauth2/authorize?${query}`;
}

/** The provider's logout, then back to `returnTo` (which must be a registered logout URL). */
export function logoutUrl(returnTo: string): string {
  return `${domain}/logout?${new URLSearchParams({ client_id: settings.COGNITO_CLIENT_ID, logout_uri: returnTo })}`;
}

export interface ProviderTokens {
  idToken: string;
  refreshToken?: string;
}

/** Exchanges an authorization code at the token endpoint; undefined when the provider refuses it (used, expired, wrong verifier). */
export async function exchangeCode(code: string, codeVerifier: string): Promise<ProviderTokens | undefined> {
  const response = await fetch(`${domain}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: settings.COGNITO_CLIENT_ID, code, redirect_uri: callbackUrl, code_verifier: codeVerifier }),
    signal: AbortSignal.timeout(5_000),
  });
  if (!response.ok) return undefined;
  const body = (await response.json()) as { id_token?: unknown; refresh_token?: unknown };
  if (typeof body.id_token !== 'string') return undefined;
  return { idToken: body.id_token, ...(typeof body.refresh_token === 'string' ? { refreshToken: body.refresh_token } : {}) };
}

export interface ProviderIdentity {
  sub: string;
  username: string;
  email: string;
  emailVerified: boolean;
}

/**
 * Verifies an id token against the pool's JWKS: RS256, issuer, audience (our client),
 * expiry, `token_use: id` and the nonce of this login. Undefined when anything is off.
 */
export async function verifyIdToken(idToken: string, nonce: string): Promise<ProviderIdentity | undefined> {
  try {
    const { payload } = await jwtVerify(idToken, jwks, {
      algorithms: ['RS256'],
      issuer: settings.COGNITO_ISSUER,
      audience: settings.COGNITO_CLIENT_ID,
      requiredClaims: ['sub', 'exp', 'iat'],
      currentDate: now(),
    });
    if (payload.token_use !== 'id') return undefined;
    if (payload.nonce !== undefined ? payload.nonce !== nonce : settings.COGNITO_REQUIRE_NONCE) return undefined;
    const username = payload['cognito:username'];
    if (typeof payload.email !== 'string' || typeof username !== 'string') return undefined;
    return { sub: payload.sub!, username, email: payload.email, emailVerified: payload.email_verified === true };
  } catch {
    return undefined;
  }
}

/** Revokes a refresh token and the access tokens issued with it (RevokeToken; GlobalSignOut would need the access token). */
export async function revokeTokens(refreshToken: string): Promise<void> {
  await cognito().send(new RevokeTokenCommand({ ClientId: settings.COGNITO_CLIENT_ID, Token: refreshToken }));
}

/**
 * Has the provider email a password-reset code to the user (the hosted UI's "forgot
 * password" flow). Cognito's own per-user limits surface as 429, not as a 500.
 */
export async function sendPasswordResetEmail(username: string): Promise<void> {
  try {
    await cognito().send(new ForgotPasswordCommand({ ClientId: settings.COGNITO_CLIENT_ID, Username: username }));
  } catch (error) {
    if (error instanceof LimitExceededException || error instanceof TooManyRequestsException) {
      throw new RateLimited('The identity provider refuses more reset emails for now; try again later.', 60);
    }
    throw error;
  }
}
