import { Aws, Duration, Token, Validations } from 'aws-cdk-lib';
import {
  AccountRecovery,
  FeaturePlan,
  Mfa,
  OAuthScope,
  type PasswordPolicy,
  UserPool,
  type UserPoolClient,
  UserPoolClientIdentityProvider,
  type UserPoolDomain,
} from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { registeredCallbackUrls, registeredLogoutUrls } from '#shared/auth/oidc';
import { protectedRemovalPolicyOf, type StageSettings } from './stages.ts';

export interface IdentityProviderProps {
  settings: StageSettings;
  /**
   * The admin origins (ADMIN_ORIGINS; the portal's never start an administrator's login), the admin UI's first (front ends' origins may be deploy-time
   * tokens). Each origin's `/api/v2/auth/callback` is a redirect target of the hosted UI: a
   * login returns to the front end it started on, whose `/api/*` is the API.
   */
  allowedOrigins: readonly string[];
}

/** The administrators' password policy, the customers' pool's too (infra/customer-identity.ts). */
export const PASSWORD_POLICY: PasswordPolicy = {
  minLength: 12,
  requireDigits: true,
  requireLowercase: true,
  requireUppercase: true,
  requireSymbols: true,
};

/**
 * Cognito for `SITE_AUTH_METHOD=idp`: a user pool, a hosted UI domain and one app client
 * doing the authorization code flow with PKCE. The client has no secret: the API is the
 * OAuth client, and PKCE (checked by the callback) binds the code to the login request.
 */
export class IdentityProvider extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;
  readonly domain: UserPoolDomain;

  constructor(scope: Construct, id: string, { settings, allowedOrigins }: IdentityProviderProps) {
    super(scope, id);
    this.userPool = new UserPool(this, 'Users', {
      // Staff accounts are created by an operator (README "Deploying": the first administrator), never by strangers.
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      autoVerify: { email: true },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      passwordPolicy: PASSWORD_POLICY,
      mfa: Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      featurePlan: FeaturePlan.ESSENTIALS,
      deletionProtection: settings.deletionProtection,
      removalPolicy: protectedRemovalPolicyOf(settings),
    });
    this.client = this.userPool.addClient('ApiClient', {
      generateSecret: false,
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL, OAuthScope.PROFILE],
        // The same lists the functions check (shared/auth/oidc.ts): Cognito compares verbatim.
        callbackUrls: withTokenOrigins(allowedOrigins, registeredCallbackUrls),
        // Cognito's /logout returns only to these: the same list POST /auth/logout accepts (admin UI = first origin).
        logoutUrls: withTokenOrigins(allowedOrigins, (origins) => registeredLogoutUrls(origins, origins[0]!)),
      },
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      accessTokenValidity: Duration.minutes(15),
      idTokenValidity: Duration.minutes(15),
    });
    // Prefixes are global per region: the account id keeps stages of different accounts apart.
    this.domain = this.userPool.addDomain('HostedUi', {
      cognitoDomain: { domainPrefix: `ticketing-${settings.name}-${Aws.ACCOUNT_ID}` },
    });

    Validations.of(this).acknowledge({
      id: 'AwsSolutions-COG2',
      reason: 'MFA is optional (TOTP) for the pool; requiring it is a product decision for the admin UI rollout.',
    });
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-COG8',
      reason:
        'Essentials plan: threat protection (Plus) is billed per monthly active user; revisit before customer sign-in goes live.',
    });
  }

  /** The `iss` of the pool's tokens; its JWKS is at `<issuer>/.well-known/jwks.json`. */
  get issuer(): string {
    return this.userPool.userPoolProviderUrl;
  }
}

/**
 * Applies `urls` (a function of literal origins, e.g. shared/auth/oidc.ts's) to origins that
 * may be deploy-time tokens: each token is swapped for a stand-in URL first and back after,
 * so the shared function's URL parsing never sees a token.
 */
function withTokenOrigins(origins: readonly string[], urls: (origins: string[]) => string[]): string[] {
  const standIns = origins.map((origin, i) =>
    Token.isUnresolved(origin) ? `https://origin-${i}-stand-in.invalid` : origin,
  );
  return urls(standIns).map((url) =>
    standIns.reduce((out, standIn, i) => (standIn === origins[i] ? out : out.split(standIn).join(origins[i]!)), url),
  );
}
