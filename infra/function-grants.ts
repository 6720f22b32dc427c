import { type CfnElement, Names, Stack, Validations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import type { TableGrant } from '#shared/job-grants';
import { TABLE_WRITE_ACTIONS } from '#shared/routes';
import { nagName } from './nag-names.ts';

/**
 * The grants a function of the stack can have beyond its own logs (the route functions' `bind*`
 * methods, the webhooks, the migration runner), each granted with the variable that names
 * the resource, and the cdk-nag findings they raise acknowledged with why.
 */

/** A cdk-nag IAM5 finding (a wildcard in a policy of `scope`'s subtree) acknowledged, with why it is fine. */
export function acknowledgeWildcard(scope: Construct, finding: string, reason: string): void {
  Validations.of(scope).acknowledge({ id: `AwsSolutions-IAM5[${finding}]`, reason });
}

/**
 * Table access for `fn` (with its role: functionDefaults), granted and named in
 * TABLE_NAME together: exactly the grant's actions (shared/routes.ts names each function's), on the
 * table, and dynamodb:Query on each index it names and no other. With `writes` (a row's `tableWrites`),
 * the writing actions hold only on partitions whose key matches one of those patterns: a
 * `dynamodb:LeadingKeys` condition, checked by DynamoDB per item of a transaction too. No wildcard:
 * the index ARNs are named one by one.
 */
export function grantTableAccess(
  fn: MailingFunction,
  table: ITableV2,
  grant: TableGrant,
  writes?: readonly string[],
): void {
  const actions = (names: readonly string[]) => names.map((name) => `dynamodb:${name}`);
  const reads = grant.actions.filter((action) => !isWrite(action));
  const writing = grant.actions.filter(isWrite);
  if (reads.length) fn.addToRolePolicy(new PolicyStatement({ actions: actions(reads), resources: [table.tableArn] }));
  if (grant.indexes?.length)
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:Query'],
        resources: grant.indexes.map((index) => `${table.tableArn}/index/${index}`),
      }),
    );
  if (writing.length)
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: actions(writing),
        resources: [table.tableArn],
        ...(writes ? { conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...writes] } } } : {}),
      }),
    );
  fn.addEnvironment('TABLE_NAME', table.tableName);
}

const isWrite = (action: string): boolean => (TABLE_WRITE_ACTIONS as readonly string[]).includes(action);

/**
 * Mail for `fn` (made in `scope`), only from the stage's sender address, granted and named in
 * EMAIL_FROM together; links in customer mail open `portalUrl` (PORTAL_URL). SES authorises a
 * send on the sending identity and, when the mail goes through a configuration set (one the
 * identity names as its default counts), on that configuration set too
 * (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonses.html, SendEmail's
 * resource types); recipient identities are checked in the sandbox. The ses:FromAddress
 * condition holds for every resource of the statement, so the grant stays the stage's sender's.
 */
export function grantEmailSending(scope: Construct, fn: MailingFunction, from: string, portalUrl: string): void {
  const stack = Stack.of(scope);
  const identities = stack.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' });
  const configurationSets = stack.formatArn({ service: 'ses', resource: 'configuration-set', resourceName: '*' });
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: ['ses:SendEmail', 'ses:SendRawEmail'],
      resources: [identities, configurationSets],
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
  acknowledgeWildcard(
    scope,
    `Resource::${nagName(scope, configurationSets)}`,
    "The identity's default configuration set is SES's choice, not the function's; the ses:FromAddress condition restricts the sender to the stage address.",
  );
}

/**
 * How cdk-nag renders a resource's `Arn` attribute in a finding id of a policy in `consumer`'s
 * stack: `<LogicalId.Arn>` in its own stack, or the parameter CDK passes it through to a
 * nested stack (`<referenceto<unique id>Arn>`).
 */
export function arnOf(resource: Construct, consumer: Construct): string {
  const element = resource.node.defaultChild as CfnElement;
  if (Stack.of(resource) === Stack.of(consumer)) return `<${Stack.of(resource).getLogicalId(element)}.Arn>`;
  return `<referenceto${Names.uniqueId(element)}Arn>`;
}

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

/** Admin actions on the customers' pool, granted only to its `manage-users` rows: what shared/identity/services/user-admin.ts calls. */
export const CUSTOMER_IDENTITY_ACTIONS = [
  'cognito-idp:AdminCreateUser',
  'cognito-idp:AdminSetUserPassword',
  'cognito-idp:AdminDeleteUser',
] as const;

/** A function the grants can name resources to (one of infra/function-defaults.ts's functions). */
type MailingFunction = IFunction & { addEnvironment(key: string, value: string): unknown };
