import type { StageSettings } from './settings.ts';
import { type StageFile, StageSettingsError } from './schema.ts';

/**
 * The checks of a stage's settings beyond their schema (infra/stages/schema.ts), run by
 * resolveStage (infra/stages.ts): each names the setting and what is wrong with it.
 */

const PLACEHOLDER = /(^|[.@])example\.(com|org|net)$/i;

/** staging and prod: a pinned account, no `example.*` name anywhere, an SES identity, WAF logs, someone the alarms reach. */
export function refusePlaceholders(
  stage: StageFile,
  problem: (path: readonly PropertyKey[], text: string) => string,
): void {
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

export type Fail = (path: string[], problem: string) => never;

/**
 * Origins are compared verbatim by browsers, CORS and the CSRF check: reject anything
 * that is not exactly `scheme://host[:port]`, and plain http except on localhost. Only the
 * literal extra origins are checked here; the front-end origins are the distributions'
 * (deploy-time tokens) or `https://<custom domain>`.
 */
export function checkOrigins(settings: StageSettings, fail: Fail): void {
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
export function checkDomains(settings: StageSettings, fail: Fail): void {
  const domains = (['admin', 'portal'] as const).filter((name) => settings.frontEnds[name].domainName);
  if (domains.length > 0 && !settings.certificateArn)
    fail(['certificateArn'], `is missing: ${domains.join(' and ')} need an ACM certificate in us-east-1 covering them`);
}

/**
 * A restored table comes with its change stream: the webhooks read every ticket change from it
 * (infra/webhooks.ts), and a restore has none until one is enabled, so its ARN is unknown to the
 * stack and must come from the stage file, from the restored table itself. Enabled before the
 * deploy that switches, the stream holds every change the API makes to the restored table.
 */
export function checkRestoredTable(settings: StageSettings, fail: Fail): void {
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
