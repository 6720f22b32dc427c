import path from 'node:path';
import { Duration, Tags, Validations } from 'aws-cdk-lib';
import { HttpMethod, HttpRoute, HttpRouteKey, type IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { type IRole, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Alarm, ComparisonOperator, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { type ILambdaApplication, LambdaDeploymentConfig, LambdaDeploymentGroup } from 'aws-cdk-lib/aws-codedeploy';
import { Alias, Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { RouteRow } from '#shared/routes';
import { API_PREFIX } from '#shared/api-prefix';
import { concurrencyOf } from './concurrency.ts';
import type { CustomerIdentity } from './customer-identity.ts';
import { functionDefaults, PROJECT_ROOT } from './function-defaults.ts';
import {
  acknowledgeWildcard,
  arnOf,
  CUSTOMER_IDENTITY_ACTIONS,
  grantEmailSending,
  grantTableAccess,
  IDENTITY_PROVIDER_ACTIONS,
} from './function-grants.ts';
import type { IdentityProvider } from './identity-provider.ts';
import type { PhotoStore } from './photo-store.ts';
import type { StageSettings } from './stages.ts';
import { grantWebhookSecretsKey } from './webhook-secrets-key.ts';

/** Tag on every route function (value: the row's handler): how tests and operators find them. */
export const ROUTE_TAG = 'ticketing:handler';

/** Where the handler modules live: `functions/<row.handler>.ts`. */
export const FUNCTIONS_DIR = path.join(PROJECT_ROOT, 'functions');

export interface RouteFunctionProps {
  row: RouteRow;
  api: IHttpApi;
  settings: StageSettings;
  /** Variables every function gets (STAGE, JWT_PUBLIC_KEYS, ...); resource variables come from the bind methods. */
  environment: Record<string, string>;
  /** Defaults to FUNCTIONS_DIR; tests point synthetic rows at stub handlers. */
  functionsDir?: string;
}

/**
 * Functions that need more than the default 1024 MB. Lambda's CPU grows with memory: the
 * photo upload decodes and re-encodes the image in pure JS (about 2 s of CPU for a 12 MP
 * JPEG measured locally, up to twice that at the 4096 x 4096 limit), which at 1024 MB
 * (about 0.6 vCPU) would come near the 10 s timeout; 2048 MB gives about 1.2 vCPU.
 */
const MEMORY_MB: Readonly<Record<string, number>> = { 'tickets/profile-photo': 2048 };

/**
 * One route row as a Lambda function plus its API route. Fixes every function's
 * defaults in one place (runtime, architecture, memory, bundling, logs), like the
 * Powertools example app. Access is added only through the `bind*` methods, each of which
 * grants and sets the matching environment variables together, so a function can never
 * see a resource name it has no permission for (or the reverse).
 */
export class RouteFunction extends Construct {
  readonly function: LambdaFunction;
  /** `live`: the alias the API route calls, moved to each new version (by canary where `deployByCanary` was called). */
  readonly alias: Alias;

  constructor(
    scope: Construct,
    id: string,
    { row, api, settings, environment, functionsDir = FUNCTIONS_DIR }: RouteFunctionProps,
  ) {
    super(scope, id);
    this.function = new LambdaFunction(this, 'Function', {
      ...functionDefaults(this, settings, path.join(functionsDir, `${row.handler}.ts`)),
      description: `${row.method} ${API_PREFIX}${row.path}`,
      memorySize: MEMORY_MB[row.handler] ?? 1024,
      // API Gateway gives up after 30 s; a request path that needs 10 s is a bug.
      timeout: Duration.seconds(10),
      reservedConcurrentExecutions: concurrencyOf(row, settings).reserved,
      environment: { ...environment, NODE_OPTIONS: '--enable-source-maps' },
    });
    Tags.of(this.function).add(ROUTE_TAG, row.handler);
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Pinned to nodejs22.x, the runtime the bundles target and the project is tested on; moving to a newer one is a deliberate change.',
    });

    this.alias = new Alias(this, 'Live', { aliasName: 'live', version: this.function.currentVersion });
    new HttpRoute(this, 'Route', {
      httpApi: api,
      routeKey: HttpRouteKey.with(`${API_PREFIX}${row.path}`, HttpMethod[row.method]),
      integration: new HttpLambdaIntegration('Integration', this.alias),
    });
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'Every handler authenticates in its shared middleware (own JWT from header or cookie, per-route permission from shared/routes.ts); public rows are login-type routes.',
    });
  }

  /** Table access (`grantTableAccess`): the row's `uses.table`, `uses.indexes` and `uses.tableWrites`. */
  bindTable(table: ITableV2, uses: RouteRow['uses']): void {
    if (!uses.table) return;
    grantTableAccess(this.function, table, { actions: uses.table, indexes: uses.indexes }, uses.tableWrites);
  }

  /** Read, write and delete objects in the photo bucket; URLs are built on the CDN's base URL. */
  bindPhotos(photos: PhotoStore): void {
    // Object actions only (not grantReadWrite's s3:List*/GetBucket*/Abort*): the handlers
    // put, read back and delete single objects by key.
    this.function.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
        resources: [photos.bucket.arnForObjects('*')],
      }),
    );
    this.function.addEnvironment('PHOTO_BUCKET', photos.bucket.bucketName);
    this.function.addEnvironment('PHOTO_BASE_URL', photos.baseUrl);
    this.acknowledgeWildcard(
      `Resource::${arnOf(photos.bucket, this)}/*`,
      'Object keys are chosen at run time (one per ticket photo); the grant stays within this one bucket.',
    );
  }

  /** Mail (`grantEmailSending`), for rows with `uses.email`. */
  bindEmail(from: string, portalUrl: string): void {
    grantEmailSending(this, this.function, from, portalUrl);
  }

  /**
   * The app client's settings, for both kinds. `sign-in` (hosted UI, RevokeToken,
   * ForgotPassword, InitiateAuth: unauthenticated client APIs) gets no IAM at all;
   * `manage-users` also gets the admin actions on this one pool.
   */
  bindIdentityProvider(idp: IdentityProvider, use: NonNullable<RouteRow['uses']['identityProvider']>): void {
    if (use === 'manage-users') idp.userPool.grant(this.function, ...IDENTITY_PROVIDER_ACTIONS);
    this.function.addEnvironment('COGNITO_USER_POOL_ID', idp.userPool.userPoolId);
    this.function.addEnvironment('COGNITO_CLIENT_ID', idp.client.userPoolClientId);
    this.function.addEnvironment('COGNITO_DOMAIN', idp.domain.baseUrl());
    this.function.addEnvironment('COGNITO_ISSUER', idp.issuer);
  }

  /**
   * The customers' pool and app client, for both kinds. `sign-in` (InitiateAuth, and
   * UpdateUserAttributes with the user's own access token: public client APIs) gets no
   * IAM; `manage-users` gets exactly the admin actions user-admin.ts calls, on this pool.
   */
  bindCustomerIdentity(customers: CustomerIdentity, use: NonNullable<RouteRow['uses']['customerIdentity']>): void {
    if (use === 'manage-users') customers.userPool.grant(this.function, ...CUSTOMER_IDENTITY_ACTIONS);
    this.function.addEnvironment('CUSTOMER_COGNITO_USER_POOL_ID', customers.userPool.userPoolId);
    this.function.addEnvironment('CUSTOMER_COGNITO_CLIENT_ID', customers.client.userPoolClientId);
  }

  /**
   * The private signing keys, for rows with `uses.signingKey` (those that issue tokens or
   * sign the login state): GetSecretValue on that one secret, and its name. Every other
   * function only has the public keys (JWT_PUBLIC_KEYS, set for all).
   */
  bindSigningKey(secret: ISecret): void {
    this.function.addToRolePolicy(
      new PolicyStatement({
        actions: ['secretsmanager:GetSecretValue'],
        // Imported by name, so its ARN's random 6-character suffix is unknown: `-??????`
        // matches exactly that suffix, never a secret whose name merely starts the same.
        resources: [`${secret.secretArn}-??????`],
      }),
    );
    this.function.addEnvironment('JWT_SIGNING_KEY_SECRET', secret.secretName);
  }

  /**
   * Stripe, for rows with `uses.payments` (shared/selling/services/payments.ts): GetSecretValue on the stage's Stripe
   * secret only (its secret key and webhook secret, read at run time) and its name. The publishable key is
   * public: every function's environment has it.
   */
  bindPayments(secret: ISecret): void {
    this.function.addToRolePolicy(
      new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [`${secret.secretArn}-??????`] }),
    );
    this.function.addEnvironment('STRIPE_SECRET', secret.secretName);
  }

  /** The key sealing webhooks' signing secrets, for rows with `uses.webhookSecrets` (infra/webhook-secrets-key.ts). */
  bindWebhookSecretsKey(secret: ISecret): void {
    grantWebhookSecretsKey(this.function, secret);
  }

  /** Every function reads the origin-verify values at run time (shared/services/origin-verify-secret.ts): GetSecretValue on that one secret. */
  bindOriginVerify(secret: ISecret): void {
    this.function.addToRolePolicy(
      new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secret.secretArn] }),
    );
  }

  /**
   * Releases by canary (staging, prod): CodeDeploy moves `live` to a new version for 10 % of
   * requests for 5 minutes, then all; its `NewVersionErrors` alarm firing meanwhile rolls it
   * back to the old version (README "Deploying", a release).
   *
   * That alarm measures the new version only: Errors with the alias' `Resource` and the
   * `ExecutedVersion` dimension of this deploy's version (Lambda publishes that combination for
   * each version behind a weighted alias: https://docs.aws.amazon.com/lambda/latest/dg/monitoring-metrics.html,
   * as AWS SAM's gradual deployments do: https://docs.aws.amazon.com/serverless-application-model/latest/developerguide/automating-updates-to-serverless-apps.html).
   * Not every version's errors (the 90 % still on the old version would roll back the fix for
   * them), and not the stage-wide 5xx rate (another route's errors, and a stage alarm in ALARM
   * would stop every deploy, the fix's too: CodeDeploy does not start a deployment whose alarm
   * is in ALARM). Those still page (infra/operations.ts). It is in this stack, beside the
   * deployment group, so CloudFormation updates it to the new version before the alias moves.
   */
  deployByCanary(application: ILambdaApplication, role: IRole): Alarm {
    const version = this.function.currentVersion;
    const newVersionErrors = new Alarm(this, 'NewVersionErrors', {
      alarmDescription: `${this.function.node.path}: the version this release deploys failed during its canary (rolls the release back).`,
      metric: new Metric({
        namespace: 'AWS/Lambda',
        metricName: 'Errors',
        dimensionsMap: {
          FunctionName: this.function.functionName,
          Resource: `${this.function.functionName}:${this.alias.aliasName}`,
          ExecutedVersion: version.version,
        },
        statistic: 'Sum',
        period: Duration.minutes(1),
      }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    new LambdaDeploymentGroup(this, 'Release', {
      application,
      alias: this.alias,
      role,
      deploymentConfig: LambdaDeploymentConfig.CANARY_10PERCENT_5MINUTES,
      alarms: [newVersionErrors],
      autoRollback: { failedDeployment: true, deploymentInAlarm: true, stoppedDeployment: true },
    });
    return newVersionErrors;
  }

  private acknowledgeWildcard(finding: string, reason: string): void {
    acknowledgeWildcard(this, finding, reason);
  }
}
