import {
  CognitoIdentityProviderClient,
  ForgotPasswordCommand,
  LimitExceededException,
  RevokeTokenCommand,
  TooManyRequestsException,
} from '@aws-sdk/client-cognito-identity-provider';
import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import * as z from '../../schema.ts';
import { now } from '../../clock.ts';
import { requireSection } from '../../config.ts';
import { DependencyUnavailable, RateLimited } from '../../errors.ts';
import { answeringOutages, clientOptions, CLIENT_SETTINGS } from '../../aws-clients.ts';

/**
 * Sign-in with Cognito for the administrators, for the rows with `uses.identityProvider:
 * 'sign-in'`: the hosted UI endpoints (authorize, token, logout; plain HTTPS on the
 * client's domain) and the unauthenticated client APIs (RevokeToken, ForgotPassword), none
 * of which needs IAM. Every function takes the app client it acts on (`adminAppClient()`,
 * from COGNITO_*). The customers' password sign-in (`uses.customerIdentity: 'sign-in'`)
 * is in `customer-identity.ts`, through the same SDK client, which finds a local stand-in
 * through AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER.
 *
 * Cognito's admin APIs (AdminCreateUser, AdminDeleteUser, ...) do not belong here: they
 * need IAM on the pool, so they live in `user-admin.ts`, imported only by rows with
 * `manage-users`, the only functions infra grants those actions.
 */

/** One app client of a user pool, and what signing in through it needs. */
export interface AppClient {
  readonly userPoolId: string;
  /** The app client (no secret). */
  readonly clientId: string;
  /** Base URL of the hosted UI, no trailing slash: `https://<prefix>.auth.<region>.amazoncognito.com`. */
  readonly domain: string;
  /** `iss` of the pool's tokens: `https://cognito-idp.<region>.amazonaws.com/<poolId>`. */
  readonly issuer: string;
  readonly jwksUrl: string;
  /** Whether an id token must carry the authorize request's nonce (cognito-local drops it). */
  readonly requireNonce: boolean;
}

const flag = z.lazy(() =>
  z.pipe(
    z._default(z.enum(['true', 'false']), 'true'),
    z.transform((value) => value === 'true'),
  ),
);
const adminSettingsSchema = z.lazy(() =>
  z.object({
    COGNITO_USER_POOL_ID: z.string().check(z.minLength(1)),
    COGNITO_CLIENT_ID: z.string().check(z.minLength(1)),
    COGNITO_DOMAIN: z.url(),
    COGNITO_ISSUER: z.url(),
    /** Default `<issuer>/.well-known/jwks.json` (cognito-local's discovery document names the wrong host, so no discovery). */
    COGNITO_JWKS_URL: z.optional(z.url()),
    /** Cognito puts the authorize request's nonce into the id token; cognito-local drops it (local/test: false). */
    COGNITO_REQUIRE_NONCE: flag,
    ADMIN_UI_URL: z.url(),
  }),
);

const trim = (url: string) => url.replace(/\/+$/, '');

let adminSettings: { client: AppClient; adminUiUrl: string } | undefined;
function admin() {
  if (adminSettings) return adminSettings;
  const env = requireSection('the identity provider', adminSettingsSchema);
  adminSettings = {
    client: {
      userPoolId: env.COGNITO_USER_POOL_ID,
      clientId: env.COGNITO_CLIENT_ID,
      domain: trim(env.COGNITO_DOMAIN),
      issuer: env.COGNITO_ISSUER,
      jwksUrl: env.COGNITO_JWKS_URL ?? `${trim(env.COGNITO_ISSUER)}/.well-known/jwks.json`,
      requireNonce: env.COGNITO_REQUIRE_NONCE,
    },
    adminUiUrl: env.ADMIN_UI_URL,
  };
  return adminSettings;
}

/** The administrators' app client (hosted UI, code flow back to `/auth/callback`), read from the environment on first use. */
export const adminAppClient = (): AppClient => admin().client;

/** The admin SPA (ADMIN_UI_URL): where admin sign-ins land when there is no trusted redirect. */
export const adminUiUrl = (): string => admin().adminUiUrl;

/** Remote key sets, one per JWKS URL, kept for the life of the container (jose caches the keys). */
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
const jwksOf = ({ jwksUrl }: AppClient) =>
  keySets.get(jwksUrl) ??
  keySets.set(jwksUrl, createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: 3_000 })).get(jwksUrl)!;

let sdkClient: CognitoIdentityProviderClient | undefined;
/** The sign-in APIs' client, built on first use (exported for the fault-injection tests' middleware). */
export const identitySdkClient = () =>
  (sdkClient ??= answeringOutages(
    new CognitoIdentityProviderClient(clientOptions('identity provider')),
    'identity provider',
  ));
const cognito = identitySdkClient;

/** `callbackUrl`: on the front end's origin (`callbackUrlFor` in auth/oidc.ts), one the client registered. */
export interface AuthorizeRequest {
  state: string;
  codeChallenge: string;
  nonce: string;
  callbackUrl: string;
}

/** The hosted UI's authorize URL for an authorization-code login with PKCE S256. */
export function authorizeUrl(
  client: AppClient,
  { state, codeChallenge, nonce, callbackUrl }: AuthorizeRequest,
): string {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: callbackUrl,
    scope: 'openid email profile',
    state,
    nonce,
    code_challenge: codeChallenge,
    code_challenge_method: 'S256',
  });
  return `${client.domain}/oauth2/authorize?${query}`;
}

/** The provider's logout, then back to `returnTo` (which must be a registered logout URL). */
export function logoutUrl(client: AppClient, returnTo: string): string {
  return `${client.domain}/logout?${new URLSearchParams({ client_id: client.clientId, logout_uri: returnTo })}`;
}

export interface ProviderTokens {
  idToken: string;
  refreshToken?: string;
}

/** Exchanges a code at the token endpoint; undefined when refused (used, expired, wrong verifier, another `callbackUrl`). */
export async function exchangeCode(
  client: AppClient,
  code: string,
  codeVerifier: string,
  callbackUrl: string,
): Promise<ProviderTokens | undefined> {
  const response = await fetch(`${client.domain}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: client.clientId,
      code,
      redirect_uri: callbackUrl,
      code_verifier: codeVerifier,
    }),
    signal: AbortSignal.timeout(CLIENT_SETTINGS['identity provider'].requestTimeout),
    // Unreachable or too slow: plain fetch, outside the SDK clients' outage handling.
  }).catch((error: unknown) => Promise.reject(providerUnavailable(error)));
  // Not retried: an authorization code is single-use, and Cognito may have spent it.
  if (response.status >= 500 || response.status === 429)
    throw providerUnavailable(new Error(`token endpoint answered ${response.status}`));
  if (!response.ok) return undefined;
  const body = (await response.json()) as { id_token?: unknown; refresh_token?: unknown };
  if (typeof body.id_token !== 'string') return undefined;
  return {
    idToken: body.id_token,
    ...(typeof body.refresh_token === 'string' ? { refreshToken: body.refresh_token } : {}),
  };
}

export interface ProviderIdentity {
  sub: string;
  username: string;
  email: string;
  emailVerified: boolean;
}

/**
 * Verifies an id token against the pool's JWKS: RS256, issuer, audience (the client),
 * expiry, `token_use: id` and the nonce of this login. Undefined when anything is off.
 */
export async function verifyIdToken(
  client: AppClient,
  idToken: string,
  nonce: string,
): Promise<ProviderIdentity | undefined> {
  try {
    const { payload } = await jwtVerify(idToken, jwksOf(client), {
      algorithms: ['RS256'],
      issuer: client.issuer,
      audience: client.clientId,
      requiredClaims: ['sub', 'exp', 'iat'],
      currentDate: now(),
    });
    if (payload.token_use !== 'id') return undefined;
    if (payload.nonce !== undefined ? payload.nonce !== nonce : client.requireNonce) return undefined;
    const username = payload['cognito:username'];
    if (typeof payload.email !== 'string' || typeof username !== 'string') return undefined;
    return { sub: payload.sub!, username, email: payload.email, emailVerified: payload.email_verified === true };
  } catch (error) {
    // The pool's keys could not be fetched: the provider is down, not the token bad.
    if (error instanceof errors.JWKSTimeout || (error instanceof TypeError && /fetch failed/.test(error.message)))
      throw providerUnavailable(error);
    return undefined;
  }
}

const providerUnavailable = (cause: unknown) =>
  new DependencyUnavailable('identity provider', CLIENT_SETTINGS['identity provider'].retryAfterSeconds, { cause });

/** Revokes a refresh token and the access tokens issued with it (RevokeToken; GlobalSignOut would need the access token). */
export async function revokeTokens(client: AppClient, refreshToken: string): Promise<void> {
  await cognito().send(new RevokeTokenCommand({ ClientId: client.clientId, Token: refreshToken }));
}

/**
 * Has the provider email a password-reset code to the user (the hosted UI's "forgot
 * password" flow). Cognito's own per-user limits surface as 429, not as a 500.
 */
export async function sendPasswordResetEmail(client: AppClient, username: string): Promise<void> {
  try {
    await cognito().send(new ForgotPasswordCommand({ ClientId: client.clientId, Username: username }));
  } catch (error) {
    if (error instanceof LimitExceededException || error instanceof TooManyRequestsException) {
      throw new RateLimited('The identity provider refuses more reset emails for now; try again later.', 60);
    }
    throw error;
  }
}
