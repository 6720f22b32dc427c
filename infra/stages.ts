import { RemovalPolicy } from 'aws-cdk-lib';
import { stage as dev } from './stages/dev.ts';
import { stage as prod } from './stages/prod.ts';
import { checkDomains, checkOrigins, checkRestoredTable, refusePlaceholders } from './stages/checks.ts';
import { OVERRIDES, parseContext, setAt, valueAt } from './stages/overrides.ts';
import { STAGE_NAMES, type StageFile, StageFileSchema, StageSettingsError } from './stages/schema.ts';
import type { FrontEndSettings, StageName, StageSettings } from './stages/settings.ts';
import { stage as staging } from './stages/staging.ts';

/**
 * Per-stage settings: each stage's are committed in its own file, infra/stages/<stage>.ts
 * (schema: infra/stages/schema.ts), so `npx cdk deploy -c stage=<s>` alone reproduces the
 * stage. A `-c key=value` (OVERRIDES below) changes one setting for one deploy and is printed
 * as such. staging and prod pin their account and region and refuse placeholders. The
 * front-end origins themselves are not settings: they are the stage's CloudFront
 * distributions (or their custom domains), see infra/front-ends.ts.
 */
export { STAGE_NAMES, StageSettingsError };
export { contextOf, OVERRIDES, unknownContextKeys } from './stages/overrides.ts';
export {
  FRONT_END_NAMES,
  type FrontEndFiles,
  type FrontEndName,
  type FrontEndSettings,
  type StageName,
  type StageSettings,
} from './stages/settings.ts';

/** The committed settings of every stage. */
export const STAGE_FILES: Record<StageName, StageFile> = { dev, staging, prod };
export const stageFilePath = (name: StageName): string => `infra/stages/${name}.ts`;

/**
 * What deleting the stack, or a failed first deploy, does to the stage's data (table,
 * buckets, secrets, user pools, logs). `retainData` keeps it when the stack is deleted or an
 * update replaces it, and deletes it when a first deploy rolls back (RETAIN_ON_UPDATE_OR_DELETE,
 * "RetainExceptOnCreate": https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-attribute-deletionpolicy.html),
 * so a failed first deploy leaves nothing behind.
 */
export function removalPolicyOf(settings: StageSettings): RemovalPolicy {
  return settings.retainData ? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE : RemovalPolicy.DESTROY;
}

/**
 * The removal policy of a resource with deletion protection (table, user pools). A protected
 * resource cannot be deleted by a rollback: DeleteTable is refused and the stack ends
 * ROLLBACK_FAILED. So with `deletionProtection` (a stage that exists already) it is plain
 * RETAIN, never deleted by CloudFormation; without it, as every other resource.
 */
export function protectedRemovalPolicyOf(settings: StageSettings): RemovalPolicy {
  return settings.deletionProtection ? RemovalPolicy.RETAIN : removalPolicyOf(settings);
}

/** Reads a context value; `undefined` when absent. */
export type ContextReader = (key: string) => unknown;

/**
 * The settings of the stage named by the `stage` context: its committed file, with `-c`
 * overrides applied, then checked. Throws a one-line StageSettingsError naming the setting
 * and the file (or the `-c` key) when something is wrong.
 */
export function resolveStage(context: ContextReader, files: Record<StageName, StageFile> = STAGE_FILES): StageSettings {
  const name = context('stage');
  if (typeof name !== 'string' || !isStageName(name)) {
    const got = name === undefined ? 'no stage' : `unknown stage "${String(name)}"`;
    throw new StageSettingsError(
      `${got}: pass -c stage=<${STAGE_NAMES.join('|')}> (valid stages: ${STAGE_NAMES.join(', ')})`,
    );
  }
  const file = stageFilePath(name);
  const merged: Record<string, unknown> = structuredClone(files[name]);
  const overrides: string[] = [];
  for (const [key, { path, kind }] of Object.entries(OVERRIDES)) {
    const raw = context(key);
    if (raw === undefined) continue;
    const value = parseContext(raw, kind, key);
    if (JSON.stringify(value) === JSON.stringify(valueAt(merged, path))) continue;
    setAt(merged, path, value);
    overrides.push(key);
  }
  // `-c hostedZoneId= -c hostedZoneName=` (or account and region) removes the whole setting for the deploy.
  for (const key of ['hostedZone', 'env']) {
    const value = merged[key];
    if (value && typeof value === 'object' && Object.keys(value).length === 0) delete merged[key];
  }
  // A setting as the message names it: where it was set, the file or this deploy's `-c`.
  const where = (path: readonly PropertyKey[]) => {
    const setting = path.join('.');
    const key = Object.entries(OVERRIDES).find(([, entry]) =>
      `${setting}.`.startsWith(`${entry.path.join('.')}.`),
    )?.[0];
    return key && overrides.includes(key) ? `${setting} (-c ${key})` : `${setting} in ${file}`;
  };
  const parsed = StageFileSchema.safeParse(merged);
  if (!parsed.success) {
    throw new StageSettingsError(
      `stage ${name}: ${parsed.error.issues.map((issue) => `${where(issue.path)}: ${issue.message}`).join('; ')}`,
    );
  }
  const stage = parsed.data;
  if (stage.name !== name) throw new StageSettingsError(`stage ${name}: name in ${file} is "${stage.name}"`);
  if (name !== 'dev') refusePlaceholders(stage, (path, problem) => `stage ${name}: ${where(path)} ${problem}`);

  const frontEndOf = (frontEnd: StageFile['frontEnds']['admin']): FrontEndSettings => ({
    ...(frontEnd.domain ? { domainName: frontEnd.domain } : {}),
    files: frontEnd.files === 'none' || frontEnd.files === 'placeholder' ? frontEnd.files : { path: frontEnd.files },
  });
  const settings: StageSettings = {
    name,
    file,
    env: stage.env,
    extraOrigins: stage.extraOrigins,
    frontEnds: { admin: frontEndOf(stage.frontEnds.admin), portal: frontEndOf(stage.frontEnds.portal) },
    apiDocsPath: stage.apiDocs,
    certificateArn: stage.certificateArn,
    hostedZone: stage.hostedZone,
    webAclArn: stage.webAclArn,
    webAclLogs: stage.policy.webAclLogs,
    originVerifyVersion: stage.secretVersions.originVerify,
    signingKeysVersion: stage.secretVersions.signingKeys,
    logLevel: stage.logLevel,
    siteAuthMethod: stage.siteAuthMethod,
    jwtIssuer: stage.policy.jwtIssuer,
    emailFrom: stage.mail.from,
    stripePublishableKey: stage.payments?.stripePublishableKey,
    homeCountry: stage.shipping.homeCountry,
    seller: stage.seller,
    invoiceSeries: stage.invoiceSeries,
    sesIdentity: stage.mail.sesIdentity,
    alarmSubscribers: stage.alarms,
    restoredTableName: stage.table.restoredName,
    restoredTableStreamArn: stage.table.restoredStreamArn,
    tableIndexes: stage.table.indexes,
    warmIndexes: stage.table.warmIndexes,
    throttle: stage.policy.throttle,
    logRetention: stage.policy.logRetention,
    retainData: stage.policy.retainData,
    deletionProtection: stage.policy.deletionProtection,
    reservedConcurrency: stage.policy.reservedConcurrency,
    onSale: stage.policy.onSale,
    tracing: stage.policy.tracing,
    canaryReleases: stage.policy.canaryReleases,
    overrides,
  };
  const fail = (path: string[], problem: string) => {
    throw new StageSettingsError(`stage ${name}: ${where(path)} ${problem}`);
  };
  checkOrigins(settings, fail);
  checkDomains(settings, fail);
  checkRestoredTable(settings, fail);
  // CloudWatch alarms notify SNS topics of their own region only.
  for (const [index, arn] of settings.alarmSubscribers.topicArns.entries()) {
    const topicRegion = arn.split(':')[3];
    if (settings.env && topicRegion !== settings.env.region)
      fail(
        ['alarms', 'topicArns', String(index)],
        `is in ${topicRegion}: alarms in ${settings.env.region} notify topics there only`,
      );
  }
  if (settings.env && settings.env.region !== 'us-east-1' && !settings.webAclArn)
    fail(
      ['env', 'region'],
      `is ${settings.env.region}: the stack's own web ACL can only be created in us-east-1; set webAclArn to one made there`,
    );
  return settings;
}

/** The one line a deploy with overrides prints. */
export const overridesLine = (settings: StageSettings): string | undefined =>
  settings.overrides.length
    ? `stage ${settings.name}: -c ${settings.overrides.join(', -c ')} override${settings.overrides.length > 1 ? '' : 's'} ${settings.file} for this deploy only`
    : undefined;

function isStageName(value: string): value is StageName {
  return (STAGE_NAMES as readonly string[]).includes(value);
}
