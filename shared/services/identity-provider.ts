import {
  AliasExistsException,
  CognitoIdentityProviderClient,
  ForgotPasswordCommand,
  InitiateAuthCommand,
  InvalidPasswordException,
  LimitExceededException,
  NotAuthorizedException,
  PasswordResetRequiredException,
  RevokeTokenCommand,
  TooManyRequestsException,
  UpdateUserAttributesCommand,
  UserNotConfirmedException,
  UserNotFoundException,
  UsernameExistsException,
  type AuthenticationResultType,
} from '@aws-sdk/client-cognito-identity-provider';
import { createRemoteJWKSet, decodeJwt, errors, jwtVerify } from 'jose';
import * as z from '../schema.ts';
import { now } from '../clock.ts';
import { requireSection } from '../config.ts';
import { Conflict, DependencyUnavailable, RateLimited } from '../errors.ts';
import { logger } from '../logger.ts';
import { answeringOutages, clientOptions, CLIENT_SETTINGS } from '../aws-clients.ts';

/**
 * Sign-in with Cognito, for the rows with `uses.identityProvider: 'sign-in'` or
 * `uses.customerIdentity: 'sign-in'`: the hosted UI endpoints (authorize, token, logout;
 * plain HTTPS on the client's domain) and the unauthenticated client APIs (RevokeToken,
 * ForgotPassword, InitiateAuth, UpdateUserAttributes with the user's own access token),
 * none of which needs IAM. Every function takes the client it acts on: the
 * administrators' (`adminAppClient()`, from COGNITO_*, hosted UI) or the customers'
 * (`customerAppClient()`, from CUSTOMER_COGNITO_*, password sign-in through the API).
 * The SDK client finds a local stand-in through AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER.
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

const flag = z.pipe(
  z._default(z.enum(['true', 'false']), 'true'),
  z.transform((value) => value === 'true'),
);
const adminSettingsSchema = z.object({
  COGNITO_USER_POOL_ID: z.string().check(z.minLength(1)),
  COGNITO_CLIENT_ID: z.string().check(z.minLength(1)),
  COGNITO_DOMAIN: z.url(),
  COGNITO_ISSUER: z.url(),
  /** Default `<issuer>/.well-known/jwks.json` (cognito-local's discovery document names the wrong host, so no discovery). */
  COGNITO_JWKS_URL: z.optional(z.url()),
  /** Cognito puts the authorize request's nonce into the id token; cognito-local drops it (local/test: false). */
  COGNITO_REQUIRE_NONCE: flag,
  ADMIN_UI_URL: z.url(),
});

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

/**
 * An app client that signs in with a password through the API (InitiateAuth
 * USER_PASSWORD_AUTH): no hosted UI, no redirect, so only the pool and the client.
 */
export type PasswordClient = Pick<AppClient, 'userPoolId' | 'clientId'>;

const customerSettingsSchema = z.object({
  CUSTOMER_COGNITO_USER_POOL_ID: z.string().check(z.minLength(1)),
  CUSTOMER_COGNITO_CLIENT_ID: z.string().check(z.minLength(1)),
});

let customerClient: PasswordClient | undefined;
/**
 * The customers' pool and its app client (the portal's accounts; a pool apart from the
 * administrators'), read from the environment on first use. Use cases that need it call
 * it at module load, so a function missing the variables fails its cold start.
 */
export function customerAppClient(): PasswordClient {
  if (customerClient) return customerClient;
  const env = requireSection('the customer identity provider', customerSettingsSchema);
  customerClient = { userPoolId: env.CUSTOMER_COGNITO_USER_POOL_ID, clientId: env.CUSTOMER_COGNITO_CLIENT_ID };
  return customerClient;
}

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

/** Cognito's per-user limit (LimitExceeded): a 429 for the client; pool-wide throttling is a 503 (shared/aws-clients.ts). */
function throttled(error: unknown): RateLimited | undefined {
  if (error instanceof LimitExceededException || error instanceof TooManyRequestsException) {
    return new RateLimited('The identity provider refuses more requests for now; try again later.', 60);
  }
  return undefined;
}

/** What a password sign-in proves: the user, from the id token Cognito answered with. */
export interface PasswordSignIn {
  sub: string;
  username: string;
  email: string;
  /** Cognito's own `email_verified`; the customers' verification is the service's (see use-cases/customers). */
  emailVerified: boolean;
  /** For the user's own attribute changes (UpdateUserAttributes): valid as long as Cognito says (an hour by default). */
  accessToken: string;
}

/**
 * Signs in with a login (the email) and password: InitiateAuth USER_PASSWORD_AUTH, a
 * public client API (no IAM). Undefined for a wrong password or an unknown user, which
 * the caller must not tell apart: AWS answers NotAuthorizedException for both (the pool
 * prevents user-existence errors), cognito-local InvalidPasswordException for a wrong
 * password, and UserNotFoundException is possible where that prevention is off. A
 * challenge (a new password required, MFA) is a refusal too: customers are created with a
 * permanent password and no MFA, so one means the account is not usable by this route.
 * The id token came straight from Cognito over TLS, so it is decoded, not verified
 * against the JWKS (which would cost a fetch per cold start).
 */
export async function signInWithPassword(
  client: PasswordClient,
  login: string,
  password: string,
): Promise<PasswordSignIn | undefined> {
  let result: AuthenticationResultType | undefined;
  try {
    ({ AuthenticationResult: result } = await cognito().send(
      new InitiateAuthCommand({
        ClientId: client.clientId,
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: login, PASSWORD: password },
      }),
    ));
  } catch (error) {
    if (
      error instanceof NotAuthorizedException ||
      error instanceof InvalidPasswordException ||
      error instanceof UserNotFoundException
    )
      return undefined;
    // Users the service creates are confirmed and never reset; one in either state cannot sign in here.
    if (error instanceof PasswordResetRequiredException || error instanceof UserNotConfirmedException) return undefined;
    throw throttled(error) ?? error;
  }
  if (!result?.IdToken || !result.AccessToken) {
    logger.warn('Customer sign-in answered a challenge instead of tokens', { clientId: client.clientId });
    return undefined;
  }
  const claims = decodeJwt(result.IdToken);
  const username = claims['cognito:username'];
  if (typeof claims.sub !== 'string' || typeof username !== 'string' || typeof claims.email !== 'string') {
    throw new Error('The identity provider answered an id token without sub, cognito:username or email.');
  }
  // Cognito sends the claim as a boolean; some versions of cognito-local as the string 'true'.
  const verified = claims.email_verified === true || claims.email_verified === 'true';
  return { sub: claims.sub, username, email: claims.email, emailVerified: verified, accessToken: result.AccessToken };
}

/**
 * Changes the signed-in user's email (their login, in a pool that signs in by email) with
 * the access token of their sign-in: UpdateUserAttributes, a public API acting on the
 * token's own user, so no IAM and no admin rights. Another user with that address is a
 * 409 `email_taken`.
 */
export async function changeOwnEmail(accessToken: string, email: string): Promise<void> {
  try {
    await cognito().send(
      new UpdateUserAttributesCommand({ AccessToken: accessToken, UserAttributes: [{ Name: 'email', Value: email }] }),
    );
  } catch (error) {
    if (error instanceof AliasExistsException || error instanceof UsernameExistsException) {
      throw new Conflict(`The address ${email} belongs to another account.`, 'email_taken');
    }
    throw throttled(error) ?? error;
  }
}
