import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { type CfnElement, Duration, Names, Stack, Tags, Validations } from 'aws-cdk-lib';
import { HttpMethod, HttpRoute, HttpRouteKey, type IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { type IRole, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IAlarm } from 'aws-cdk-lib/aws-cloudwatch';
import { type ILambdaApplication, LambdaDeploymentConfig, LambdaDeploymentGroup } from 'aws-cdk-lib/aws-codedeploy';
import { Alias, Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { RouteRow } from '#shared/routes';
import { API_PREFIX } from '#shared/api-prefix';
import { concurrencyOf } from './concurrency.ts';
import { deployedEntry } from './deployed-entry.ts';
import type { CustomerIdentity } from './customer-identity.ts';
import type { IdentityProvider } from './identity-provider.ts';
import type { PhotoStore } from './photo-store.ts';
import { nagName } from './nag-names.ts';
import { removalPolicyOf, type StageSettings } from './stages.ts';

/** Tag on every route function (value: the row's handler): how tests and operators find them. */
export const ROUTE_TAG = 'ticketing:handler';

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
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

/** How every function of the stack is bundled (the route functions and the migration runner). */
const BUNDLING = {
  format: OutputFormat.ESM,
  minify: true,
  sourceMap: true,
  target: 'node22',
  mainFields: ['module', 'main'],
  // Some CommonJS dependencies call require() for Node built-ins; ESM has none.
  banner: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  // Bundle the AWS SDK too: resolving the runtime's copy measured 1.6x slower init.
  externalModules: [],
  bundleAwsSDK: true,
};

/**
 * What every function of the stack shares (the route functions and the migration runner):
 * runtime, architecture, bundling, and a log group and role of its own, made in `scope`. An
 * own role instead of the default one: the managed AWSLambdaBasicExecutionRole may write to
 * any log group; this one writes only to the function's own.
 */
export function functionDefaults(scope: Construct, settings: StageSettings, handlerModule: string) {
  const logGroup = new LogGroup(scope, 'Logs', {
    retention: settings.logRetention,
    removalPolicy: removalPolicyOf(settings),
  });
  const role = new Role(scope, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
  logGroup.grantWrite(role);
  return {
    entry: deployedEntry(handlerModule),
    projectRoot: PROJECT_ROOT,
    depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
    runtime: Runtime.NODEJS_22_X,
    architecture: Architecture.ARM_64,
    role,
    logGroup,
    bundling: BUNDLING,
  };
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
  readonly function: NodejsFunction;
  /** `live`: the alias the API route calls, moved to each new version (by canary where `deployByCanary` was called). */
  readonly alias: Alias;

  constructor(
    scope: Construct,
    id: string,
    { row, api, settings, environment, functionsDir = FUNCTIONS_DIR }: RouteFunctionProps,
  ) {
    super(scope, id);
    this.function = new NodejsFunction(this, 'Function', {
      ...functionDefaults(this, settings, path.join(functionsDir, `${row.handler}.ts`)),
      description: `${row.method} ${API_PREFIX}${row.path}`,
      memorySize: MEMORY_MB[row.handler] ?? 1024,
      // API Gateway gives up after 30 s; a request path that needs 10 s is a bug.
      timeout: Duration.seconds(10),
      reservedConcurrentExecutions: concurrencyOf(row, settings.name).reserved,
      tracing: settings.tracing ? Tracing.ACTIVE : undefined,
      environment: { ...environment, NODE_OPTIONS: '--enable-source-maps' },
    });
    Tags.of(this.function).add(ROUTE_TAG, row.handler);
    if (settings.tracing) {
      this.acknowledgeWildcard(
        'Resource::*',
        "X-Ray PutTraceSegments and PutTelemetryRecords take no resource: Lambda's tracing grants them on *.",
      );
    }
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

  /** Table access (`grantTableAccess`): the row's `uses.table` and `uses.tableWrites`. */
  bindTable(table: ITableV2, access: 'read' | 'read-write', writes?: readonly string[]): void {
    grantTableAccess(this, this.function, table, access, writes);
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

  /** Every function reads the origin-verify values at run time (shared/services/origin-verify-secret.ts): GetSecretValue on that one secret. */
  bindOriginVerify(secret: ISecret): void {
    this.function.addToRolePolicy(
      new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secret.secretArn] }),
    );
  }

  /**
   * Releases by canary (staging, prod): CodeDeploy moves `live` to a new version for 10 % of
   * requests for 5 minutes, then all; any of `alarms` firing meanwhile (the function's errors,
   * the API's 5xx rate) rolls it back to the old version (README "Deploying", a release).
   */
  deployByCanary(application: ILambdaApplication, role: IRole, alarms: IAlarm[]): void {
    new LambdaDeploymentGroup(this, 'Release', {
      application,
      alias: this.alias,
      role,
      deploymentConfig: LambdaDeploymentConfig.CANARY_10PERCENT_5MINUTES,
      alarms,
      autoRollback: { failedDeployment: true, deploymentInAlarm: true, stoppedDeployment: true },
    });
  }

  private acknowledgeWildcard(finding: string, reason: string): void {
    acknowledgeWildcard(this, finding, reason);
  }
}

/** A cdk-nag IAM5 finding (a wildcard in a policy of `scope`'s subtree) acknowledged, with why it is fine. */
export function acknowledgeWildcard(scope: Construct, finding: string, reason: string): void {
  Validations.of(scope).acknowledge({ id: `AwsSolutions-IAM5[${finding}]`, reason });
}

/**
 * Table access for `fn` (made in `scope`, with its role: functionDefaults), granted and named in
 * TABLE_NAME together: `read` can Get/Query/Scan only; `read-write` adds writes and
 * transactions, on any item, or, with `writes` (a row's `tableWrites`), only on partitions whose
 * key matches one of those patterns: a `dynamodb:LeadingKeys` condition, checked by DynamoDB per
 * item of a transaction too.
 */
export function grantTableAccess(
  scope: Construct,
  fn: NodejsFunction,
  table: ITableV2,
  access: 'read' | 'read-write',
  writes?: readonly string[],
): void {
  if (access === 'read' || writes) table.grantReadData(fn);
  if (access === 'read-write' && !writes) table.grantReadWriteData(fn);
  if (access === 'read-write' && writes) {
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: [
          'dynamodb:PutItem',
          'dynamodb:UpdateItem',
          'dynamodb:DeleteItem',
          'dynamodb:BatchWriteItem',
          'dynamodb:ConditionCheckItem',
        ],
        resources: [table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...writes] } },
      }),
    );
  }
  fn.addEnvironment('TABLE_NAME', table.tableName);
  acknowledgeWildcard(
    scope,
    `Resource::${tableArnOf(table, scope)}/index/*`,
    "Queries may use any of the table's GSIs; the grant stays within this one table.",
  );
}

/**
 * Mail for `fn` (made in `scope`), only from the stage's sender address, granted and named in
 * EMAIL_FROM together; links in customer mail open `portalUrl` (PORTAL_URL).
 */
export function grantEmailSending(scope: Construct, fn: NodejsFunction, from: string, portalUrl: string): void {
  const identities = Stack.of(scope).formatArn({ service: 'ses', resource: 'identity', resourceName: '*' });
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: ['ses:SendEmail', 'ses:SendRawEmail'],
      // identity/* because in the SES sandbox the recipient identities are checked
      // too; the condition pins the sender.
      resources: [identities],
      conditions: { StringEquals: { 'ses:FromAddress': from } },
    }),
  );
  fn.addEnvironment('EMAIL_FROM', from);
  fn.addEnvironment('PORTAL_URL', portalUrl);
  acknowledgeWildcard(
    scope,
    `Resource::${nagName(scope, identities)}`,
    'Recipient identities are checked in the SES sandbox; the ses:FromAddress condition restricts the sender to the stage address.',
  );
}

/**
 * How cdk-nag renders a resource's `Arn` attribute in a finding id of a policy in `consumer`'s
 * stack: `<LogicalId.Arn>` in its own stack, or the parameter CDK passes it through to a
 * nested stack (`<referenceto<unique id>Arn>`).
 */
function arnOf(resource: Construct, consumer: Construct): string {
  const element = resource.node.defaultChild as CfnElement;
  if (Stack.of(resource) === Stack.of(consumer)) return `<${Stack.of(resource).getLogicalId(element)}.Arn>`;
  return `<referenceto${Names.uniqueId(element)}Arn>`;
}

/** The stage's table's ARN as cdk-nag names it in `consumer`'s findings: its own table, or a restored one referenced by name. */
export const tableArnOf = (table: ITableV2, consumer: Construct): string =>
  table.node.defaultChild ? arnOf(table, consumer) : nagName(consumer, table.tableArn);

/**
 * Admin API actions on the one user pool, granted only to `manage-users` rows (users
 * created and looked up by admins). `sign-in` rows call only unauthenticated client APIs
 * (token endpoint, RevokeToken, ForgotPassword, InitiateAuth), which need no IAM.
 */
export const IDENTITY_PROVIDER_ACTIONS = [
  'cognito-idp:AdminGetUser',
  'cognito-idp:AdminListGroupsForUser',
  'cognito-idp:AdminCreateUser',
  'cognito-idp:AdminUpdateUserAttributes',
  'cognito-idp:AdminResetUserPassword',
  'cognito-idp:AdminUserGlobalSignOut',
  'cognito-idp:ListUsers',
] as const;

/** Admin actions on the customers' pool, granted only to its `manage-users` rows: what shared/services/user-admin.ts calls. */
export const CUSTOMER_IDENTITY_ACTIONS = [
  'cognito-idp:AdminCreateUser',
  'cognito-idp:AdminSetUserPassword',
  'cognito-idp:AdminDeleteUser',
] as const;
