import { Duration, Validations } from 'aws-cdk-lib';
import {
  AccountRecovery,
  ClientAttributes,
  FeaturePlan,
  Mfa,
  UserPool,
  type UserPoolClient,
} from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { PASSWORD_POLICY } from './identity-provider.ts';
import { protectedRemovalPolicyOf, type StageSettings } from './stages.ts';

export interface CustomerIdentityProps {
  settings: StageSettings;
}

/**
 * The customers' own Cognito user pool (the portal's accounts), apart from the
 * administrators' so that neither population can sign in as the other and each has its
 * own policies. Customers sign in through the API (`PUT /my-account`: InitiateAuth
 * USER_PASSWORD_AUTH), never through a hosted UI, so the app client has no OAuth and
 * no secret. The service verifies email addresses itself (its own mailed token), so the
 * pool auto-verifies nothing and sends no mail of its own.
 */
export class CustomerIdentity extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;

  constructor(scope: Construct, id: string, { settings }: CustomerIdentityProps) {
    super(scope, id);
    this.userPool = new UserPool(this, 'Customers', {
      // Accounts are created by administrators (POST /my-account), never by strangers.
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      // CDK would auto-verify the sign-in alias: Cognito would then mail its own code on every address switch.
      autoVerify: { email: false },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      // The administrators' policy: the API bounds passwords to 12–256 characters first.
      passwordPolicy: PASSWORD_POLICY,
      // A second factor would answer InitiateAuth with a challenge the API does not relay.
      mfa: Mfa.OFF,
      featurePlan: FeaturePlan.ESSENTIALS,
      deletionProtection: settings.deletionProtection,
      removalPolicy: protectedRemovalPolicyOf(settings),
    });
    this.client = this.userPool.addClient('PortalClient', {
      generateSecret: false,
      // ALLOW_USER_PASSWORD_AUTH; CDK adds ALLOW_REFRESH_TOKEN_AUTH, which every client has.
      authFlows: { userPassword: true },
      disableOAuth: true,
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      // The API uses Cognito's tokens only within the login request (the access token for
      // an address switch); customers get the service's own token. Cognito's minimums.
      accessTokenValidity: Duration.minutes(5),
      idTokenValidity: Duration.minutes(5),
      refreshTokenValidity: Duration.minutes(60),
      // Only the login may change with the user's own token (the API's verified switch);
      // name and email_verified stay the administrators' and the service's.
      writeAttributes: new ClientAttributes().withStandardAttributes({ email: true }),
    });

    Validations.of(this).acknowledge({
      id: 'AwsSolutions-COG2',
      reason:
        'Customers sign in through the API with a password; MFA challenges are not relayed by PUT /my-account (a product decision for the portal).',
    });
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-COG8',
      reason:
        'Essentials plan: threat protection (Plus) is billed per monthly active user; the API rate-limits logins per address itself.',
    });
  }
}
