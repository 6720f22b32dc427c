import { RemovalPolicy } from 'aws-cdk-lib';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Config } from '#shared/config';
import { stage as dev } from './stages/dev.ts';
import { stage as prod } from './stages/prod.ts';
import { STAGE_NAMES, type StageFile, StageFileSchema } from './stages/schema.ts';
import { stage as staging } from './stages/staging.ts';

/**
 * Per-stage settings: each stage's are committed in its own file, infra/stages/<stage>.ts
 * (schema: infra/stages/schema.ts), so `npx cdk deploy -c stage=<s>` alone reproduces the
 * stage. A `-c key=value` (OVERRIDES below) changes one setting for one deploy and is printed
 * as such. staging and prod pin their account and region and refuse placeholders. The
 * front-end origins themselves are not settings: they are the stage's CloudFront
 * distributions (or their custom domains), see infra/front-ends.ts.
 */
export { STAGE_NAMES };
export type StageName = (typeof STAGE_NAMES)[number];

export const FRONT_END_NAMES = ['admin', 'portal'] as const;
export type FrontEndName = (typeof FRONT_END_NAMES)[number];

/** The committed settings of every stage. */
export const STAGE_FILES: Record<StageName, StageFile> = { dev, staging, prod };
export const stageFilePath = (name: StageName): string => `infra/stages/${name}.ts`;

/** Where a front end's files come from at a deploy (the stage file's `files`). */
export type FrontEndFiles = 'none' | 'placeholder' | { path: string };

export interface FrontEndSettings {
  /** Custom domain; else the distribution's own *.cloudfront.net name. */
  domainName?: string;
  files: FrontEndFiles;
}

export interface StageSettings {
  name: StageName;
  /** The stage file, for messages. */
  file: string;
  /** The pinned account and region (staging, prod); dev deploys where the credentials point. */
  env?: { account: string; region: string };
  /**
   * Origins allowed besides the two front ends, e.g. a developer's Vite server proxying /api
   * to a deployed dev stage. The stack adds the front-end origins: ADMIN_ORIGINS = admin front
   * end + these, PORTAL_ORIGINS = portal + these.
   */
  extraOrigins: string[];
  frontEnds: Record<FrontEndName, FrontEndSettings>;
  /** Prebuilt API documentation files (api/v2/openapi.json and api/v2/docs/); else generated at synth. */
  apiDocsPath?: string;
  /** ACM certificate in us-east-1 covering the custom domains; needed when a domain is set. */
  certificateArn?: string;
  /** Route 53 zone for the domains' A/AAAA alias records; without it, create the DNS records yourself. */
  hostedZone?: { id: string; name: string };
  /** A CloudFront-scoped web ACL to attach; without it the stack creates one (only possible in us-east-1). */
  webAclArn?: string;
  /** The stack's web ACL logs to CloudWatch (`aws-waf-logs-ticketing-<stage>`). */
  webAclLogs: boolean;
  /** Secrets Manager version ids the stack pins (the stage file's `secretVersions`, written by `npm run keys`). */
  originVerifyVersion?: string;
  signingKeysVersion?: string;
  logLevel: Config['LOG_LEVEL'];
  /** `legacy` (own password records) or `idp` (Cognito hosted UI). */
  siteAuthMethod: Config['SITE_AUTH_METHOD'];
  /** `iss` of the service's own tokens: stable per stage, so a re-created API keeps sessions valid. */
  jwtIssuer: string;
  /** From address of the service's mail, allowed by the SES identity `sesIdentity`. */
  emailFrom: string;
  sesIdentity?: string;
  /** Who the alarm topic reaches: subscribed addresses, and existing topics every alarm also notifies. */
  alarmSubscribers: { emails: string[]; topicArns: string[] };
  /** A restored table the stage uses instead of the one it created (README "Restoring the table"). */
  restoredTableName?: string;
  /** The restored table's change stream (the webhooks read it); set exactly when `restoredTableName` is. */
  restoredTableStreamArn?: string;
  /** How many of TABLE_SCHEMA's GSIs the stack declares; undefined: all. */
  tableIndexes?: number;
  /** Steady-state requests per second and burst for the whole API (per-account quotas sit above). */
  throttle: { rateLimit: number; burstLimit: number };
  logRetention: RetentionDays;
  /** prod keeps its data (table, bucket, secret, user pool) when the stack is deleted, and refuses table deletion. */
  retainData: boolean;
  /** X-Ray active tracing through Lambda's own integration (no SDK in the bundles): staging and prod. */
  tracing: boolean;
  /** Releases reach 10 % of requests for 5 minutes first, rolled back by alarm (CodeDeploy): staging and prod; dev switches at once. */
  canaryReleases: boolean;
  /** The `-c` keys of this deploy that changed a committed setting. */
  overrides: string[];
}

/**
 * What deleting the stack, or a failed first deploy, does to the stage's data (table,
 * buckets, secrets, user pools, logs): `retainData` keeps it, also when the first deploy
 * rolls back, so a retry does not stumble over orphans (RETAIN_ON_UPDATE_OR_DELETE).
 */
export function removalPolicyOf(settings: StageSettings): RemovalPolicy {
  return settings.retainData ? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE : RemovalPolicy.DESTROY;
}

/** A wrong stage name or setting: a usage error, reported in one line without a stack trace. */
export class StageSettingsError extends Error {
  override name = 'StageSettingsError';
}

/** Reads a context value; `undefined` when absent. */
export type ContextReader = (key: string) => unknown;

type Kind = 'text' | 'list' | 'number';

/**
 * The `-c` key of each setting (its path in the stage file). `-c key=` (empty) removes the
 * setting for that deploy. Not here: `policy`, which only a change of the file alters.
 */
export const OVERRIDES: Record<string, { path: readonly string[]; kind: Kind }> = {
  account: { path: ['env', 'account'], kind: 'text' },
  region: { path: ['env', 'region'], kind: 'text' },
  adminDomain: { path: ['frontEnds', 'admin', 'domain'], kind: 'text' },
  portalDomain: { path: ['frontEnds', 'portal', 'domain'], kind: 'text' },
  adminAssets: { path: ['frontEnds', 'admin', 'files'], kind: 'text' },
  portalAssets: { path: ['frontEnds', 'portal', 'files'], kind: 'text' },
  certificateArn: { path: ['certificateArn'], kind: 'text' },
  hostedZoneId: { path: ['hostedZone', 'id'], kind: 'text' },
  hostedZoneName: { path: ['hostedZone', 'name'], kind: 'text' },
  emailFrom: { path: ['mail', 'from'], kind: 'text' },
  sesIdentity: { path: ['mail', 'sesIdentity'], kind: 'text' },
  alarmEmail: { path: ['alarms', 'emails'], kind: 'list' },
  alarmTopicArn: { path: ['alarms', 'topicArns'], kind: 'list' },
  webAclArn: { path: ['webAclArn'], kind: 'text' },
  extraOrigins: { path: ['extraOrigins'], kind: 'list' },
  siteAuthMethod: { path: ['siteAuthMethod'], kind: 'text' },
  logLevel: { path: ['logLevel'], kind: 'text' },
  signingKeysVersion: { path: ['secretVersions', 'signingKeys'], kind: 'text' },
  originVerifyVersion: { path: ['secretVersions', 'originVerify'], kind: 'text' },
  tableName: { path: ['table', 'restoredName'], kind: 'text' },
  tableStreamArn: { path: ['table', 'restoredStreamArn'], kind: 'text' },
  tableIndexes: { path: ['table', 'indexes'], kind: 'number' },
  apiDocs: { path: ['apiDocs'], kind: 'text' },
};

/** Context keys that are neither a setting nor `stage`, in the shape settings have (CDK's own keys have `:` or `@`). */
export function unknownContextKeys(keys: readonly string[]): string[] {
  return keys.filter((key) => /^[a-z][A-Za-z0-9]*$/.test(key) && key !== 'stage' && !(key in OVERRIDES));
}

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
  const merged = structuredClone(files[name]) as unknown as Record<string, unknown>;
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
    sesIdentity: stage.mail.sesIdentity,
    alarmSubscribers: stage.alarms,
    restoredTableName: stage.table.restoredName,
    restoredTableStreamArn: stage.table.restoredStreamArn,
    tableIndexes: stage.table.indexes,
    throttle: stage.policy.throttle,
    logRetention: stage.policy.logRetention,
    retainData: stage.policy.retainData,
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

/** The `-c` flags that say the same as a stage file (for a test, and to show what a deploy uses). */
export function contextOf(file: StageFile): Record<string, string> {
  const context: Record<string, string> = { stage: file.name };
  for (const [key, { path }] of Object.entries(OVERRIDES)) {
    const value = valueAt(file as unknown as Record<string, unknown>, path);
    if (value === undefined) continue;
    context[key] = Array.isArray(value) ? value.join(',') : String(value);
  }
  return context;
}

/** The one line a deploy with overrides prints. */
export const overridesLine = (settings: StageSettings): string | undefined =>
  settings.overrides.length
    ? `stage ${settings.name}: -c ${settings.overrides.join(', -c ')} override${settings.overrides.length > 1 ? '' : 's'} ${settings.file} for this deploy only`
    : undefined;

const PLACEHOLDER = /(^|[.@])example\.(com|org|net)$/i;

/** staging and prod: a pinned account, no `example.*` name anywhere, an SES identity, WAF logs, someone the alarms reach. */
function refusePlaceholders(stage: StageFile, problem: (path: readonly PropertyKey[], text: string) => string): void {
  const refuse = (path: readonly PropertyKey[], text: string) => {
    throw new StageSettingsError(problem(path, text));
  };
  if (!stage.env) refuse(['env'], `is missing: ${stage.name} pins its AWS account and region`);
  for (const [path, value] of leaves(stage)) {
    if (typeof value === 'string' && PLACEHOLDER.test(value.replace(/^https?:\/\//, '').replace(/[:/].*$/, '')))
      refuse(path, `is a placeholder ("${value}"): put the stage's real value there`);
  }
  if (!stage.mail.sesIdentity)
    refuse(['mail', 'sesIdentity'], 'is missing: name the SES identity that allows the sender');
  if (!stage.webAclArn && !stage.policy.webAclLogs)
    refuse(['policy', 'webAclLogs'], `is false: ${stage.name}'s web ACL logs its requests (aws-waf-logs-…)`);
  if (stage.alarms.emails.length + stage.alarms.topicArns.length === 0)
    refuse(['alarms'], 'has no subscriber: add an address (emails) or an existing SNS topic (topicArns)');
}

function* leaves(value: unknown, path: PropertyKey[] = []): Generator<[PropertyKey[], unknown]> {
  if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value))
      yield* leaves(inner, [...path, Array.isArray(value) ? Number(key) : key]);
  } else yield [path, value];
}

function isStageName(value: string): value is StageName {
  return (STAGE_NAMES as readonly string[]).includes(value);
}

function parseContext(raw: unknown, kind: Kind, key: string): unknown {
  if (kind === 'list') {
    const items = Array.isArray(raw) ? raw.map(String) : String(raw).split(',');
    return items.map((item) => item.trim()).filter(Boolean);
  }
  const text = typeof raw === 'string' ? raw.trim() : raw;
  if (text === '' || text === null) return undefined;
  if (kind === 'number') {
    const number = Number(text);
    if (!Number.isInteger(number)) throw new StageSettingsError(`-c ${key}="${String(raw)}" is not a whole number`);
    return number;
  }
  return String(text);
}

function valueAt(object: Record<string, unknown>, path: readonly string[]): unknown {
  return path.reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], object);
}

function setAt(object: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let at = object;
  for (const key of path.slice(0, -1)) {
    at[key] ??= {};
    at = at[key] as Record<string, unknown>;
  }
  const last = path[path.length - 1]!;
  if (value === undefined) delete at[last];
  else at[last] = value;
}

type Fail = (path: string[], problem: string) => never;

/**
 * Origins are compared verbatim by browsers, CORS and the CSRF check: reject anything
 * that is not exactly `scheme://host[:port]`, and plain http except on localhost. Only the
 * literal extra origins are checked here; the front-end origins are the distributions'
 * (deploy-time tokens) or `https://<custom domain>`.
 */
function checkOrigins(settings: StageSettings, fail: Fail): void {
  for (const origin of settings.extraOrigins) {
    const url = URL.canParse(origin) ? new URL(origin) : undefined;
    if (!url || url.origin !== origin)
      fail(['extraOrigins'], `has an extra origin "${origin}" not of the form scheme://host[:port]`);
    const local = url!.hostname === 'localhost' || url!.hostname === '127.0.0.1';
    if (url!.protocol !== 'https:' && !local)
      fail(['extraOrigins'], `has an extra origin "${origin}" that must use https`);
  }
}

/** A custom domain needs a CloudFront certificate (us-east-1, checked by the schema); a zone needs both its id and name. */
function checkDomains(settings: StageSettings, fail: Fail): void {
  const domains = FRONT_END_NAMES.filter((name) => settings.frontEnds[name].domainName);
  if (domains.length > 0 && !settings.certificateArn)
    fail(['certificateArn'], `is missing: ${domains.join(' and ')} need an ACM certificate in us-east-1 covering them`);
}

/**
 * A restored table comes with its change stream: the webhooks read every ticket change from it
 * (infra/webhooks.ts), and a restore has none until one is enabled, so its ARN is unknown to the
 * stack and must come from the stage file, from the restored table itself. Enabled before the
 * deploy that switches, the stream holds every change the API makes to the restored table.
 */
function checkRestoredTable(settings: StageSettings, fail: Fail): void {
  const { restoredTableName: name, restoredTableStreamArn: streamArn } = settings;
  const setting = ['table', 'restoredStreamArn'];
  if (name && !streamArn)
    fail(
      setting,
      `is missing (or -c tableStreamArn): the webhooks read ${name}'s change stream; enable it (aws dynamodb update-table --table-name ${name} --stream-specification StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES) and set its LatestStreamArn`,
    );
  if (!streamArn) return;
  if (!name) fail(setting, 'is set without table.restoredName: only a restored table takes a stream ARN');
  // arn:aws:dynamodb:<region>:<account>:table/<name>/stream/<label>; the label has colons of its own.
  const [, , , region, account, ...resource] = streamArn.split(':');
  const streamTable = resource.join(':').split('/')[1];
  if (streamTable !== name) fail(setting, `is the stream of table ${streamTable}, not of ${name} (table.restoredName)`);
  if (settings.env && (region !== settings.env.region || account !== settings.env.account))
    fail(
      setting,
      `is in ${account}, ${region}: the stage is pinned to ${settings.env.account}, ${settings.env.region}`,
    );
}
