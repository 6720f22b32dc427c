import {
  AdminCreateUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
} from '@aws-sdk/client-cognito-identity-provider';

/**
 * Sets cognito-local up as infra/identity-provider.ts sets Cognito up in AWS: a pool
 * that signs in by email, one app client without a secret doing the code flow back to
 * the API's callback on each front end's origin (`registeredCallbackUrls`: the callback
 * is reached through the front end's /api proxy, so the cookie it sets is first-party). Returns the environment of the identity-provider section
 * (shared/identity/services/identity-provider.ts), with cognito-local's differences handled:
 * its discovery document names localhost:9229 whatever it listens on, so JWKS URL and
 * issuer are given directly; it drops the authorize request's nonce, so the nonce is
 * checked when present but not required; its hosted UI is the server itself.
 */
export interface CognitoSetup {
  endpoint: string;
  /** One per allowed origin: `<origin>/api/v2/auth/callback`. */
  callbackUrls: string[];
  logoutUrls: string[];
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
}

export interface LocalCognito {
  env: Record<string, string>;
  /** Creates a confirmed user with a permanent password and a verified email; returns its user name (a UUID). */
  createUser(email: string, password: string): Promise<string>;
  close(): void;
}

export async function configureCognito(setup: CognitoSetup): Promise<LocalCognito> {
  const client = new CognitoIdentityProviderClient({
    endpoint: setup.endpoint,
    region: setup.region,
    credentials: setup.credentials,
  });
  const { UserPool } = await client.send(
    new CreateUserPoolCommand({
      PoolName: 'ticketing-local',
      UsernameAttributes: ['email'],
      AutoVerifiedAttributes: ['email'],
    }),
  );
  const poolId = UserPool!.Id!;
  const { UserPoolClient } = await client.send(
    new CreateUserPoolClientCommand({
      UserPoolId: poolId,
      ClientName: 'ticketing-api',
      GenerateSecret: false,
      AllowedOAuthFlows: ['code'],
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthScopes: ['openid', 'email', 'profile'],
      SupportedIdentityProviders: ['COGNITO'],
      CallbackURLs: setup.callbackUrls,
      LogoutURLs: setup.logoutUrls,
      EnableTokenRevocation: true,
    }),
  );
  const env = {
    COGNITO_USER_POOL_ID: poolId,
    COGNITO_CLIENT_ID: UserPoolClient!.ClientId!,
    COGNITO_DOMAIN: setup.endpoint,
    COGNITO_ISSUER: `${setup.endpoint}/${poolId}`,
    COGNITO_JWKS_URL: `${setup.endpoint}/${poolId}/.well-known/jwks.json`,
    COGNITO_REQUIRE_NONCE: 'false',
  };
  return {
    env,
    createUser: (email, password) => createIdentityUser(client, poolId, email, password),
    close: () => client.destroy(),
  };
}

export interface LocalCustomerCognito {
  /** CUSTOMER_COGNITO_USER_POOL_ID and CUSTOMER_COGNITO_CLIENT_ID. */
  env: Record<string, string>;
  close(): void;
}

/**
 * The customers' pool as infra/customer-identity.ts makes it in AWS: sign-in by email, a
 * client without a secret allowing USER_PASSWORD_AUTH and refresh, no OAuth. No
 * auto-verified attributes: the service verifies addresses itself, so Cognito sends no
 * codes (locally: prints none).
 */
export async function configureCustomerCognito(
  setup: Pick<CognitoSetup, 'endpoint' | 'region' | 'credentials'>,
): Promise<LocalCustomerCognito> {
  const client = new CognitoIdentityProviderClient({
    endpoint: setup.endpoint,
    region: setup.region,
    credentials: setup.credentials,
  });
  try {
    const { UserPool } = await client.send(
      new CreateUserPoolCommand({ PoolName: 'ticketing-customers-local', UsernameAttributes: ['email'] }),
    );
    const poolId = UserPool!.Id!;
    const { UserPoolClient } = await client.send(
      new CreateUserPoolClientCommand({
        UserPoolId: poolId,
        ClientName: 'ticketing-portal',
        GenerateSecret: false,
        ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
      }),
    );
    return {
      env: { CUSTOMER_COGNITO_USER_POOL_ID: poolId, CUSTOMER_COGNITO_CLIENT_ID: UserPoolClient!.ClientId! },
      close: () => client.destroy(),
    };
  } catch (error) {
    client.destroy();
    throw error;
  }
}

/** A confirmed user with a permanent password and a verified email (the callback trusts only verified ones). */
export async function createIdentityUser(
  client: CognitoIdentityProviderClient,
  poolId: string,
  email: string,
  password: string,
): Promise<string> {
  const { User } = await client.send(
    new AdminCreateUserCommand({
      UserPoolId: poolId,
      Username: email,
      UserAttributes: [
        { Name: 'email', Value: email },
        { Name: 'email_verified', Value: 'true' },
      ],
      MessageAction: 'SUPPRESS',
    }),
  );
  await client.send(
    new AdminSetUserPasswordCommand({
      UserPoolId: poolId,
      Username: User!.Username!,
      Password: password,
      Permanent: true,
    }),
  );
  return User!.Username!;
}
