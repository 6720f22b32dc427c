import { TABLE_SCHEMA } from '#shared/data/table-schema';
import type { LedgerRow } from '../maintenance/migrations/deployed-runner.ts';
import { FRONT_END_NAMES, type StageSettings } from '../../infra/stages.ts';
import { tableIndexCount } from '../../infra/table.ts';

/**
 * What a deploy needs, judged from the stage's committed settings and facts read with the
 * deploying credentials (`facts.ts`): pure, so every message is unit-tested. Each check
 * answers one line: what was found and, when it is missing, the command or step that fixes
 * it (README "Deploying"). `plan` says what the deploy will do.
 */

/** The bootstrap stack version the app's synthesizer requires (aws-cdk-lib DefaultStackSynthesizer: MIN_BOOTSTRAP_STACK_VERSION). */
export const MIN_BOOTSTRAP_VERSION = 6;
/** AWS creates CloudFront-scoped WAF web ACLs, and CloudFront reads ACM certificates, only here. */
export const CLOUDFRONT_REGION = 'us-east-1';

/** A fact read from AWS: its value, or why it could not be read (access denied, not found...). */
export type Read<T> = { value: T } | { error: string };

export interface Facts {
  settings: StageSettings;
  region: string | undefined;
  /** `--account`: the account the deploy is meant for (optional). */
  expectedAccount?: string;
  account: Read<string>;
  /** The bootstrap stack's version parameter; `null`: the parameter does not exist. */
  bootstrapVersion: Read<number | null>;
  /** SES identities, looked up by the sender's address and by its domain; `null`: no such identity. */
  sesAddress: Read<{ verified: boolean } | null>;
  sesDomain: Read<{ verified: boolean } | null>;
  sesAccount: Read<{ productionAccess: boolean; sendingEnabled: boolean }>;
  /** The stage's signing-key secret (`npm run keys`); `null`: it does not exist. */
  signingKeys: Read<{ hasCurrentVersion: boolean } | null>;
  /** The account's Lambda concurrency, and what this stage's functions reserve (infra/concurrency.ts). */
  lambdaConcurrency: Read<{ limit: number; unreserved: number }>;
  reservedByStage: number;
  /** The stage's certificate (ACM in us-east-1), when it names one; `null`: no such certificate. */
  certificate?: Read<{ status: string; names: string[] } | null>;
  /** The stage's Route 53 zone, when it names one; `null`: no such zone. */
  hostedZone?: Read<{ name: string } | null>;
  /** The existing SNS topics the alarms notify; `null`: no such topic. */
  alarmTopics?: Read<{ arn: string; exists: boolean }[]>;
  /** What the stage's migration runner answers (infra/migrations.ts); `null`: no runner yet (a first deploy). */
  migrations?: Read<RunnerStatus | null>;
}

/** The migration runner's answer to `{"action":"ledger"}`: the ledger and the deployed table's GSIs. */
export interface RunnerStatus {
  ledger: LedgerRow[];
  tableIndexes: string[];
}

/** Concurrency AWS keeps unreserved in every account: a reservation that would go below it fails the deploy. */
export const MIN_UNRESERVED = 100;

export type Verdict = 'ok' | 'warn' | 'fail';

export interface Finding {
  check: string;
  verdict: Verdict;
  message: string;
  /** What to do about it, when something is. */
  fix?: string;
}

const unreadable = (check: string, error: string, fix: string): Finding => ({
  check,
  verdict: 'fail',
  message: `could not be checked: ${error}`,
  fix,
});

/** Every check, in the order a first deploy meets them. */
export function judge(facts: Facts): Finding[] {
  return [
    region(facts),
    account(facts),
    bootstrap(facts),
    concurrency(facts),
    sender(facts),
    sandbox(facts),
    signingKeys(facts),
    domains(facts),
    certificate(facts),
    hostedZone(facts),
    webAcl(facts),
    alarmSubscribers(facts),
    tableIndexes(facts),
    migrations(facts),
  ];
}

function region({ region, settings }: Facts): Finding {
  const check = 'region';
  // A pinned stage deploys to its own region whatever the credentials' default (facts.ts reads there too).
  if (settings.env && region !== settings.env.region) {
    return {
      check,
      verdict: 'fail',
      message: `${region ?? 'no region'} is not ${settings.env.region}, the region ${settings.file} pins`,
      fix: `export AWS_REGION=${settings.env.region}`,
    };
  }
  if (!region)
    return {
      check,
      verdict: 'fail',
      message: 'no region is set',
      fix: "export AWS_REGION=us-east-1 (or the stage's region)",
    };
  // Without a web ACL of its own the stack creates one, which AWS allows only in us-east-1 (README "Deploying", step 2).
  if (region !== CLOUDFRONT_REGION && !settings.webAclArn) {
    return {
      check,
      verdict: 'fail',
      message: `${region}: the stack would create the front ends' WAF web ACL, which AWS creates only in ${CLOUDFRONT_REGION}`,
      fix: `deploy in ${CLOUDFRONT_REGION}, or create a CloudFront-scoped web ACL there and set webAclArn in ${settings.file}`,
    };
  }
  return { check, verdict: 'ok', message: region };
}

function account({ account, settings, expectedAccount: given }: Facts): Finding {
  const check = 'account';
  const expectedAccount = settings.env?.account ?? given;
  const source = settings.env ? ` (pinned in ${settings.file})` : '';
  if ('error' in account)
    return unreadable(
      check,
      account.error,
      'sign in first (aws sso login, or AWS_PROFILE) with credentials allowed to deploy',
    );
  if (expectedAccount && account.value !== expectedAccount) {
    return {
      check,
      verdict: 'fail',
      message: `the credentials are of account ${account.value}, not ${expectedAccount}${source}`,
      fix: settings.env
        ? `switch to the profile or role of account ${expectedAccount}; if ${settings.file} still has the committed example account, put yours there`
        : 'switch to the profile or role of the intended account',
    };
  }
  return { check, verdict: 'ok', message: `${account.value}${expectedAccount ? ' (as expected)' : ''}` };
}

function bootstrap({ bootstrapVersion, account, region, settings }: Facts): Finding {
  const check = 'bootstrap';
  const target = `aws://${settings.env?.account ?? ('value' in account ? account.value : '<account>')}/${region ?? '<region>'}`;
  const fix = `npx cdk bootstrap ${target}`;
  if ('error' in bootstrapVersion)
    return unreadable(check, bootstrapVersion.error, `check that the account is bootstrapped: ${fix}`);
  if (bootstrapVersion.value === null)
    return { check, verdict: 'fail', message: 'the account and region are not bootstrapped for the CDK', fix };
  if (bootstrapVersion.value < MIN_BOOTSTRAP_VERSION) {
    return {
      check,
      verdict: 'fail',
      message: `bootstrap version ${bootstrapVersion.value} is older than the ${MIN_BOOTSTRAP_VERSION} this app needs`,
      fix: `${fix} (upgrades it in place)`,
    };
  }
  return { check, verdict: 'ok', message: `version ${bootstrapVersion.value}` };
}

function concurrency({ lambdaConcurrency, reservedByStage }: Facts): Finding {
  const check = 'concurrency';
  if (!reservedByStage) return { check, verdict: 'ok', message: 'the stage reserves none' };
  if ('error' in lambdaConcurrency)
    return unreadable(check, lambdaConcurrency.error, "check the account's Lambda concurrency quota (Service Quotas)");
  const { limit, unreserved } = lambdaConcurrency.value;
  if (unreserved - reservedByStage < MIN_UNRESERVED) {
    return {
      check,
      verdict: 'fail',
      message: `the stage reserves ${reservedByStage} of the account's ${limit}, leaving ${unreserved - reservedByStage} unreserved (AWS keeps at least ${MIN_UNRESERVED})`,
      fix: 'ask AWS for a higher Lambda concurrency quota (Service Quotas, "Concurrent executions"), or lower the numbers in infra/concurrency.ts',
    };
  }
  return {
    check,
    verdict: 'ok',
    message: `reserves ${reservedByStage} of ${limit}; ${unreserved - reservedByStage} stay unreserved`,
  };
}

function sender({ settings, sesAddress, sesDomain }: Facts): Finding {
  const check = 'mail sender';
  const from = settings.emailFrom;
  const domain = settings.sesIdentity ?? from.split('@')[1] ?? '';
  if (/(^|\.)example\.(com|org|net)$/.test(from.split('@')[1] ?? '')) {
    return {
      check,
      verdict: 'fail',
      message: `${from} is the stage's placeholder`,
      fix: `set mail.from and mail.sesIdentity in ${settings.file} (a domain verified in SES)`,
    };
  }
  const verified = [sesAddress, sesDomain].some((read) => 'value' in read && read.value?.verified);
  if (verified) return { check, verdict: 'ok', message: `${from} may send (SES identity verified)` };
  const errors = [sesAddress, sesDomain].flatMap((read) => ('error' in read ? [read.error] : []));
  if (errors.length === 2)
    return unreadable(
      check,
      errors[0]!,
      `verify ${domain} in SES (console, or aws sesv2 create-email-identity --email-identity ${domain})`,
    );
  const pending = [sesAddress, sesDomain].some((read) => 'value' in read && read.value && !read.value.verified);
  return {
    check,
    verdict: 'fail',
    message: pending
      ? `the SES identity of ${from} is not verified yet`
      : `no SES identity for ${from} or ${domain} in this region`,
    fix: pending
      ? `finish the DNS (DKIM) records of ${domain}, then wait for SES to verify it`
      : `aws sesv2 create-email-identity --email-identity ${domain}, then add its DKIM records`,
  };
}

function sandbox({ sesAccount }: Facts): Finding {
  const check = 'mail sandbox';
  if ('error' in sesAccount)
    return unreadable(check, sesAccount.error, 'check SES account details in the console (Account dashboard)');
  if (!sesAccount.value.sendingEnabled)
    return {
      check,
      verdict: 'fail',
      message: 'sending is paused for this SES account',
      fix: 'see the SES account dashboard for why (reputation), and resolve it with AWS',
    };
  if (!sesAccount.value.productionAccess) {
    return {
      check,
      verdict: 'warn',
      message:
        'SES is in the sandbox: mail reaches verified addresses only (customers get no verification or claim mail)',
      fix: 'request production access (SES console, Account dashboard)',
    };
  }
  return { check, verdict: 'ok', message: 'SES production access' };
}

function signingKeys({ settings, signingKeys }: Facts): Finding {
  const check = 'signing keys';
  const fix = `npm run keys -- init --stage ${settings.name}`;
  if ('error' in signingKeys) return unreadable(check, signingKeys.error, `check the secret exists: ${fix}`);
  if (signingKeys.value === null)
    return {
      check,
      verdict: 'fail',
      message: "the stage's signing-key secret does not exist (the stack imports it by name)",
      fix,
    };
  if (!signingKeys.value.hasCurrentVersion)
    return { check, verdict: 'fail', message: 'the signing-key secret has no current value', fix };
  return { check, verdict: 'ok', message: 'present' };
}

function domains({ settings }: Facts): Finding {
  const check = 'domains';
  const names = Object.values(settings.frontEnds).flatMap((frontEnd) =>
    frontEnd.domainName ? [frontEnd.domainName] : [],
  );
  if (!names.length) return { check, verdict: 'ok', message: 'none: the front ends are their CloudFront names' };
  // resolveStage already refused a certificate or web ACL outside us-east-1; what is left is DNS.
  if (!settings.hostedZone) {
    return {
      check,
      verdict: 'warn',
      message: `${names.join(', ')} without a hostedZone in ${settings.file}: the stack writes no DNS records`,
      fix: 'point the names at the outputs AdminUrl and PortalUrl yourself after the deploy',
    };
  }
  return {
    check,
    verdict: 'ok',
    message: `${names.join(', ')} (certificate in ${CLOUDFRONT_REGION}, records in ${settings.hostedZone.name})`,
  };
}

/** Every custom domain of the stage. */
const domainNames = (settings: StageSettings): string[] =>
  FRONT_END_NAMES.flatMap((name) => settings.frontEnds[name].domainName ?? []);

/** A certificate name covers a host: itself, or `*.parent` for a host one label below `parent`. */
export const covers = (name: string, host: string): boolean =>
  name.toLowerCase() === host.toLowerCase() ||
  (name.startsWith('*.') && host.toLowerCase().split('.').slice(1).join('.') === name.slice(2).toLowerCase());

function certificate({ settings, certificate }: Facts): Finding {
  const check = 'certificate';
  if (!settings.certificateArn || !certificate)
    return { check, verdict: 'ok', message: 'none named (no custom domain)' };
  const fix = `request or import it in ACM in ${CLOUDFRONT_REGION} for ${domainNames(settings).join(', ')}, then set certificateArn in ${settings.file}`;
  if ('error' in certificate) return unreadable(check, certificate.error, fix);
  if (certificate.value === null)
    return { check, verdict: 'fail', message: `${settings.certificateArn} does not exist in this account`, fix };
  if (certificate.value.status !== 'ISSUED')
    return {
      check,
      verdict: 'fail',
      message: `the certificate is ${certificate.value.status}, not ISSUED`,
      fix: 'finish its DNS validation (the CNAME records ACM shows)',
    };
  const uncovered = domainNames(settings).filter(
    (host) => !certificate.value!.names.some((name) => covers(name, host)),
  );
  if (uncovered.length)
    return { check, verdict: 'fail', message: `the certificate does not cover ${uncovered.join(', ')}`, fix };
  return { check, verdict: 'ok', message: `ISSUED, covers ${domainNames(settings).join(', ')}` };
}

function hostedZone({ settings, hostedZone }: Facts): Finding {
  const check = 'hosted zone';
  if (!settings.hostedZone || !hostedZone) return { check, verdict: 'ok', message: 'none named' };
  const fix = `set hostedZone in ${settings.file} to the Route 53 zone (id and name) of ${domainNames(settings).join(', ')}`;
  if ('error' in hostedZone) return unreadable(check, hostedZone.error, fix);
  if (hostedZone.value === null)
    return { check, verdict: 'fail', message: `no zone ${settings.hostedZone.id} in this account`, fix };
  const actual = hostedZone.value.name.replace(/\.$/, '').toLowerCase();
  if (actual !== settings.hostedZone.name.toLowerCase())
    return {
      check,
      verdict: 'fail',
      message: `zone ${settings.hostedZone.id} is ${actual}, not ${settings.hostedZone.name}`,
      fix,
    };
  const outside = domainNames(settings).filter((host) => host !== actual && !host.toLowerCase().endsWith(`.${actual}`));
  if (outside.length) return { check, verdict: 'fail', message: `${outside.join(', ')} not in ${actual}`, fix };
  return { check, verdict: 'ok', message: `${actual} (${settings.hostedZone.id})` };
}

function webAcl({ settings, region }: Facts): Finding {
  const check = 'web ACL';
  // The schema already refused an ARN outside us-east-1 or not CloudFront-scoped.
  if (settings.webAclArn)
    return { check, verdict: 'ok', message: `${settings.webAclArn} (CloudFront, ${CLOUDFRONT_REGION})` };
  if (region && region !== CLOUDFRONT_REGION)
    return {
      check,
      verdict: 'fail',
      message: `the stack would create its web ACL in ${region}; AWS creates CloudFront web ACLs only in ${CLOUDFRONT_REGION}`,
      fix: `set webAclArn in ${settings.file} to a CloudFront web ACL made in ${CLOUDFRONT_REGION}`,
    };
  return {
    check,
    verdict: 'ok',
    message: `created by the stack${settings.webAclLogs ? ', logging to CloudWatch' : ''}`,
  };
}

function alarmSubscribers({ settings, alarmTopics }: Facts): Finding {
  const check = 'alarm subscribers';
  const { emails, topicArns } = settings.alarmSubscribers;
  const fix = `add an address (alarms.emails) or an existing SNS topic (alarms.topicArns) in ${settings.file}`;
  if (emails.length + topicArns.length === 0)
    return { check, verdict: settings.name === 'dev' ? 'warn' : 'fail', message: 'nobody: alarms reach no one', fix };
  if (alarmTopics && 'error' in alarmTopics) return unreadable(check, alarmTopics.error, fix);
  const missing = (alarmTopics?.value ?? []).filter((topic) => !topic.exists).map((topic) => topic.arn);
  if (missing.length) return { check, verdict: 'fail', message: `no topic ${missing.join(', ')}`, fix };
  return {
    check,
    verdict: 'ok',
    message: [...emails, ...topicArns].join(', '),
    ...(emails.length ? { fix: 'each address confirms the subscription mail AWS sends after the deploy' } : {}),
  };
}

/**
 * CloudFormation adds one GSI to a table per update: a stage more than one behind what this
 * deploy declares is refused here with the exact next command (README "Data migrations").
 */
function tableIndexes({ settings, migrations }: Facts): Finding {
  const check = 'table indexes';
  const wanted = tableIndexCount(settings.tableIndexes);
  const names = (from: number, to: number) =>
    TABLE_SCHEMA.globalIndexes
      .slice(from, to)
      .map((index) => index.indexName)
      .join(', ');
  if (!migrations || 'error' in migrations || migrations.value === null)
    return { check, verdict: 'ok', message: `${wanted} declared (${names(0, wanted)}); a new table gets them all` };
  const deployed = migrations.value.tableIndexes.length;
  if (wanted - deployed > 1)
    return {
      check,
      verdict: 'fail',
      message: `the table has ${deployed} of the ${wanted} GSIs this deploy declares; CloudFormation adds one per update`,
      fix: `npx cdk deploy -c stage=${settings.name} -c tableIndexes=${deployed + 1}, then the next once ${names(deployed, deployed + 1)} is ACTIVE, up to ${wanted}`,
    };
  if (wanted - deployed === 1)
    return { check, verdict: 'ok', message: `adds ${names(deployed, wanted)} (${deployed} of ${wanted} now)` };
  if (wanted < deployed)
    return {
      check,
      verdict: 'fail',
      message: `the table has ${deployed} GSIs and this deploy declares ${wanted}: it would delete ${names(wanted, deployed)}`,
      fix: `remove table.indexes from ${settings.file} (or -c tableIndexes), unless deleting the index is meant`,
    };
  return { check, verdict: 'ok', message: `all ${deployed} in place` };
}

/** The data migrations the stage's runner reports (the deploy starts it when its code changes; it resumes itself). */
function migrations({ settings, migrations }: Facts): Finding {
  const check = 'migrations';
  const fix = `npm run migrations -- --stage ${settings.name}`;
  if (!migrations) return { check, verdict: 'ok', message: 'not asked' };
  // A deploy does not need the ledger: unreadable is worth a look, not a refusal.
  if ('error' in migrations) return { ...unreadable(check, migrations.error, fix), verdict: 'warn' };
  if (migrations.value === null)
    return { check, verdict: 'ok', message: 'no runner yet: the first deploy creates it, and it runs every migration' };
  const rows = migrations.value.ledger;
  const failed = rows.filter((row) => row.lastError && row.status !== 'done');
  if (failed.length)
    return {
      check,
      verdict: 'warn',
      message: `${failed.map((row) => `${row.id} ${row.name}`).join(', ')} stopped on an error: ${failed[0]!.lastError}`,
      fix: `fix its cause, then ${fix} --resume (it goes on from its checkpoint)`,
    };
  const pending = rows.filter((row) => row.status !== 'done');
  if (pending.length)
    return {
      check,
      verdict: 'ok',
      message: `${pending.map((row) => `${row.id} ${row.name}`).join(', ')} not done yet; the runner goes on after the deploy`,
      fix,
    };
  return { check, verdict: 'ok', message: `all ${rows.length} done` };
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
    ...(settings.overrides.length ? [`for this deploy only: -c ${settings.overrides.join(', -c ')}`] : []),
  ];
}

/** The report: one line per check, then the fixes; `failed` when a deploy would fail. */
export function report(findings: Finding[]): { text: string; failed: boolean } {
  const mark: Record<Verdict, string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' };
  const width = Math.max(...findings.map((finding) => finding.check.length));
  const lines = findings.map(
    (finding) =>
      `${mark[finding.verdict]}  ${finding.check.padEnd(width)}  ${finding.message}${finding.fix ? `\n      ${' '.repeat(width)}  → ${finding.fix}` : ''}`,
  );
  const failed = findings.some((finding) => finding.verdict === 'fail');
  return {
    text: `${lines.join('\n')}\n\n${failed ? 'Not ready to deploy: fix the FAIL lines first.' : 'Ready to deploy.'}`,
    failed,
  };
}
