import {
  AliasExistsException,
  InitiateAuthCommand,
  InvalidPasswordException,
  LimitExceededException,
  NotAuthorizedException,
  PasswordResetRequiredException,
  TooManyRequestsException,
  UpdateUserAttributesCommand,
  UserNotConfirmedException,
  UserNotFoundException,
  UsernameExistsException,
  type AuthenticationResultType,
} from '@aws-sdk/client-cognito-identity-provider';
import { decodeJwt } from 'jose';
import * as z from '../../schema.ts';
import { requireSection } from '../../config.ts';
import { Conflict, RateLimited } from '../../errors.ts';
import { logger } from '../../logger.ts';
import { identitySdkClient as cognito, type AppClient } from './identity-provider.ts';

/**
 * Sign-in with Cognito for the customers (the portal's accounts), for the rows with
 * `uses.customerIdentity: 'sign-in'`: a password sign-in through the API (InitiateAuth)
 * and the user's own email change (UpdateUserAttributes with their access token), public
 * client APIs that need no IAM, on `customerAppClient()` (from CUSTOMER_COGNITO_*). Apart
 * from identity-provider.ts, the administrators' hosted-UI sign-in, whose SDK client it
 * shares; creating and deleting customers (`manage-users`) is user-admin.ts.
 */

/**
 * An app client that signs in with a password through the API (InitiateAuth
 * USER_PASSWORD_AUTH): no hosted UI, no redirect, so only the pool and the client.
 */
export type PasswordClient = Pick<AppClient, 'userPoolId' | 'clientId'>;

const customerSettingsSchema = z.lazy(() =>
  z.object({
    CUSTOMER_COGNITO_USER_POOL_ID: z.string().check(z.minLength(1)),
    CUSTOMER_COGNITO_CLIENT_ID: z.string().check(z.minLength(1)),
  }),
);

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
