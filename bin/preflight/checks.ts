import { FRONT_END_NAMES, type StageSettings } from '../../infra/stages.ts';
import { account, concurrency, region } from './checks-account.ts';
import { certificate, domains, hostedZone, webAcl } from './checks-edge.ts';
import { mailAccount, sandbox, sender } from './checks-mail.ts';
import { saleThroughput } from './checks-sale.ts';
import {
  alarmSubscribers,
  dataProtection,
  migrations,
  originVerify,
  signingKeys,
  tableIndexes,
} from './checks-stack.ts';
import type { Facts, Finding, Verdict } from './findings.ts';

/**
 * What a deploy needs, judged from the stage's committed settings and facts read with the
 * deploying credentials (`facts.ts`): pure, so every message is unit-tested. Each check
 * answers one line: what was found and, when it is missing, the command or step that fixes
 * it (README "Deploying"). `plan` says what the deploy will do.
 *
 * Only what nothing else checks before a deploy changes anything: not the CDK bootstrap
 * version (`cdk deploy` refuses an old or missing one itself), not a stack-made web ACL
 * outside us-east-1 (resolveStage refuses a pinned stage's, the template's rule any other's
 * before CloudFormation creates anything: infra/front-end-web-acl.ts), not what the stage
 * file's checks refuse (infra/stages/checks.ts: placeholders, alarms nobody receives).
 */

export { covers } from './checks-edge.ts';
export type { Facts, Finding } from './findings.ts';

/** Every check, in the order a first deploy meets them. */
export function judge(facts: Facts): Finding[] {
  return [
    region(facts),
    account(facts),
    concurrency(facts),
    saleThroughput(facts),
    dataProtection(facts),
    sender(facts),
    sandbox(facts),
    mailAccount(facts),
    signingKeys(facts),
    originVerify(facts),
    domains(facts),
    certificate(facts),
    hostedZone(facts),
    webAcl(facts),
    alarmSubscribers(facts),
    tableIndexes(facts),
    migrations(facts),
  ];
}

/** What `npx cdk deploy -c stage=<s>` will do with these settings, one line each. */
export function plan(settings: StageSettings): string[] {
  const where = settings.env
    ? `account ${settings.env.account}, ${settings.env.region}`
    : "the credentials' account and region";
  const files = FRONT_END_NAMES.map((name) => {
    const { files: source, domainName } = settings.frontEnds[name];
    const what =
      source === 'none'
        ? 'SPA files left as they are (API docs only)'
        : source === 'placeholder'
          ? 'placeholder pages deployed'
          : `${source.path} deployed`;
    return `${name} on ${domainName ?? '*.cloudfront.net'}: ${what}`;
  });
  return [
    `stack Ticketing-${settings.name} in ${where}`,
    ...files,
    `mail from ${settings.emailFrom}`,
    `table: ${settings.restoredTableName ? `the restored ${settings.restoredTableName}` : 'its own'}`,
    `signing keys: ${settings.signingKeysVersion ? `version ${settings.signingKeysVersion}` : 'unpinned (the current version when the template changes)'}; origin-verify: ${settings.originVerifyVersion ? `version ${settings.originVerifyVersion}` : 'unpinned'}`,
    `alarms to ${[...settings.alarmSubscribers.emails, ...settings.alarmSubscribers.topicArns].join(', ') || 'nobody'}`,
    `reserved concurrency: ${settings.reservedConcurrency ? 'on (infra/concurrency.ts)' : 'none'}; deletion protection: ${settings.deletionProtection ? 'on' : 'off'}`,
    ...(settings.overrides.length ? [`for this deploy only: -c ${settings.overrides.join(', -c ')}`] : []),
  ];
}

/**
 * The report: one line per check, then the fixes; `failed` when a deploy would fail or a check
 * could not be made (an unknown is never a pass).
 */
export function report(findings: Finding[]): { text: string; failed: boolean } {
  const mark: Record<Verdict, string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL', unknown: '????' };
  const width = Math.max(...findings.map((finding) => finding.check.length));
  const lines = findings.map(
    (finding) =>
      `${mark[finding.verdict]}  ${finding.check.padEnd(width)}  ${finding.message}${finding.fix ? `\n      ${' '.repeat(width)}  → ${finding.fix}` : ''}`,
  );
  const failing = findings.some((finding) => finding.verdict === 'fail');
  const unknown = findings.filter((finding) => finding.verdict === 'unknown').length;
  const verdict = failing
    ? 'Not ready to deploy: fix the FAIL lines first.'
    : unknown
      ? `Not ready to deploy: ${unknown} check${unknown > 1 ? 's' : ''} could not be made (????); run again with credentials that can read ${unknown > 1 ? 'them' : 'it'}.`
      : 'Ready to deploy.';
  return { text: `${lines.join('\n')}\n\n${verdict}`, failed: failing || unknown > 0 };
}
