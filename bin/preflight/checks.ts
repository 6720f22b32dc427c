import { TABLE_SCHEMA } from '#shared/data/table-schema';
import type { LedgerRow } from '#shared/use-cases/migrations/commands';
import { FRONT_END_NAMES, STAGE_FILES, type StageSettings } from '../../infra/stages.ts';
import { tableIndexCount } from '../../infra/table.ts';
import { type AccountConcurrency, concurrencyFix, planConcurrency } from './concurrency.ts';

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
  /** The stage's signing-key secret (`npm run keys`) and its version ids; `null`: it does not exist. */
  signingKeys: Read<{ hasCurrentVersion: boolean; versions?: string[] } | null>;
  /** The stage's origin-verify secret's version ids (made by the first deploy); `null`: none yet. */
  originVerify?: Read<{ versions: string[] } | null>;
  /** The account's Lambda concurrency (GetAccountSettings). */
  lambdaConcurrency: Read<AccountConcurrency>;
  /** What the stage's deployed functions reserve now (0 before its first deploy). */
  reservedNow?: Read<number>;
  /** What this deploy's functions will reserve (infra/concurrency.ts stageReservations). */
  reservedByStage: number;
  /** The web ACL the stage file names (WAFv2, CloudFront scope); `null`: no such web ACL. */
  webAcl?: Read<{ name: string } | null>;
  /** The stage's certificate (ACM in us-east-1), when it names one; `null`: no such certificate. */
  certificate?: Read<{ status: string; names: string[] } | null>;
  /** The stage's Route 53 zone, when it names one; `null`: no such zone. */
  hostedZone?: Read<{ name: string } | null>;
  /** The existing SNS topics the alarms notify; `null`: no such topic. */
  alarmTopics?: Read<{ arn: string; exists: boolean }[]>;
  /** The stage's ledger and its table's GSIs, read from the table (infra/migrations.ts); `null`: no runner yet (a first deploy). */
  migrations?: Read<RunnerStatus | null>;
}

/** The data migrations' ledger and the deployed table's GSIs. */
export interface RunnerStatus {
  ledger: LedgerRow[];
  tableIndexes: string[];
}

/**
 * `unknown`: the check could not be made (access denied, throttled, unreachable). Never a pass:
 * a run with one is not ready to deploy, as one with a `fail`.
 */
export type Verdict = 'ok' | 'warn' | 'fail' | 'unknown';

export interface Finding {
  check: string;
  verdict: Verdict;
  message: string;
  /** What to do about it, when something is. */
  fix?: string;
}

const unreadable = (check: string, error: string, fix: string): Finding => ({
  check,
  verdict: 'unknown',
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

function concurrency({
  lambdaConcurrency,
  reservedNow = { value: 0 },
  reservedByStage,
  settings,
  region,
}: Facts): Finding {
  const check = 'concurrency';
  if (!reservedByStage)
    return {
      check,
      verdict: 'ok',
      message: `the stage reserves none${settings.reservedConcurrency ? '' : ` (policy.reservedConcurrency is off in ${settings.file})`}`,
    };
  const fix =
    "check the account's Lambda concurrency quota (lambda:GetAccountSettings, lambda:ListFunctions, lambda:GetFunctionConcurrency)";
  if ('error' in lambdaConcurrency) return unreadable(check, lambdaConcurrency.error, fix);
  if ('error' in reservedNow) return unreadable(check, reservedNow.error, fix);
  const { limit } = lambdaConcurrency.value;
  const plan = planConcurrency(lambdaConcurrency.value, reservedNow.value, reservedByStage);
  const now = reservedNow.value ? ` (${reservedNow.value} of them reserved by its deployed functions now)` : '';
  if (!plan.fits)
    return {
      check,
      verdict: 'fail',
      message: `the stage reserves ${reservedByStage} of the account's quota of ${limit}${now}, leaving ${plan.unreservedAfter} unreserved; Lambda keeps at least ${plan.minimum}, so the deploy would fail and roll back`,
      fix: concurrencyFix(settings, region, plan.quotaNeeded),
    };
  return {
    check,
    verdict: 'ok',
    message: `reserves ${reservedByStage} of ${limit}${now}; ${plan.unreservedAfter} stay unreserved`,
  };
}

/**
 * Deletion protection (table, user pools) is off for a stage's first deploy, so that a failed
 * create rolls back to nothing, and on once the stage exists (infra/stages.ts protectedRemovalPolicyOf).
 * The stage exists when its migration runner does.
 */
function dataProtection({ settings, migrations }: Facts): Finding {
  const check = 'data protection';
  if (!settings.retainData) return { check, verdict: 'ok', message: "none: the stage's data goes with its stack" };
  if (!migrations || 'error' in migrations)
    return unreadable(
      check,
      migrations && 'error' in migrations ? migrations.error : 'not asked',
      `check whether the stage exists (lambda:GetFunctionConfiguration on its migration runner)`,
    );
  const exists = migrations.value !== null;
  if (exists && !settings.deletionProtection)
    return {
      check,
      verdict: 'fail',
      message: 'the stage exists, and its table and user pools are not protected from deletion',
      fix: `set policy.deletionProtection: true in ${settings.file} (deletion protection, kept whatever happens)`,
    };
  if (!exists && settings.deletionProtection)
    return {
      check,
      verdict: 'warn',
      message: 'a first deploy with deletion protection: if it fails, its table and user pools stay behind (Retain)',
      fix: `set policy.deletionProtection: false in ${settings.file} for the first deploy, and true once it succeeded`,
    };
  return {
    check,
    verdict: 'ok',
    message: exists
      ? 'table and user pools protected from deletion'
      : 'first deploy: nothing protected yet, so a failed create rolls back to nothing',
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

function sandbox({ sesAccount, settings }: Facts): Finding {
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
  // In the sandbox SES sends to verified addresses only (https://docs.aws.amazon.com/ses/latest/dg/request-production-access.html):
  // prod's customers would get no mail at all.
  if (!sesAccount.value.productionAccess) {
    return {
      check,
      verdict: settings.name === 'prod' ? 'fail' : 'warn',
      message:
        'SES is in the sandbox: mail reaches verified addresses only (customers get no verification or claim mail)',
      fix: 'request production access (SES console, Account dashboard)',
    };
  }
  return { check, verdict: 'ok', message: 'SES production access' };
}

/**
 * SES reputation (bounce and complaint rates, sending quota, the sandbox) belongs to an account
 * and region: staging's test mail counts against prod's when they share one
 * (https://docs.aws.amazon.com/ses/latest/dg/monitor-sender-reputation.html).
 */
function mailAccount({ settings }: Facts): Finding {
  const check = 'mail account';
  const other = settings.name === 'prod' ? 'staging' : settings.name === 'staging' ? 'prod' : undefined;
  const otherEnv = other && STAGE_FILES[other].env;
  if (settings.env && otherEnv && otherEnv.account === settings.env.account && otherEnv.region === settings.env.region)
    return {
      check,
      verdict: 'warn',
      message: `${other} is in the same account and region (${settings.env.account}, ${settings.env.region}): they share one SES reputation and sending quota`,
      fix: 'give staging and prod accounts of their own (README "Deploying")',
    };
  return { check, verdict: 'ok', message: 'the stage has its SES account and region to itself' };
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
  const pinned = settings.signingKeysVersion;
  if (pinned && signingKeys.value.versions && !signingKeys.value.versions.includes(pinned))
    return {
      check,
      verdict: 'fail',
      message: `the pinned version ${pinned} (secretVersions.signingKeys in ${settings.file}) is not a version of the secret`,
      fix: `pin one it has: npm run keys -- prepare --stage ${settings.name} (README "Rotating the signing key")`,
    };
  return { check, verdict: 'ok', message: pinned ? `present, pinned version ${pinned} exists` : 'present' };
}

/** The origin-verify secret is the stack's own: a pinned version must be one of its versions. */
function originVerify({ settings, originVerify }: Facts): Finding {
  const check = 'origin verify';
  const pinned = settings.originVerifyVersion;
  if (!pinned) return { check, verdict: 'ok', message: 'not pinned: the value the stack made' };
  const fix = `npm run keys -- pin-origin-verify --stage ${settings.name} --version <a VersionId of the secret>`;
  if (!originVerify) return unreadable(check, 'not asked', fix);
  if ('error' in originVerify) return unreadable(check, originVerify.error, fix);
  if (originVerify.value === null)
    return {
      check,
      verdict: 'fail',
      message: `version ${pinned} is pinned, and the stage has no origin-verify secret yet (its first deploy makes it)`,
      fix: `remove secretVersions.originVerify from ${settings.file} for the first deploy`,
    };
  if (!originVerify.value.versions.includes(pinned))
    return { check, verdict: 'fail', message: `the pinned version ${pinned} is not a version of the secret`, fix };
  return { check, verdict: 'ok', message: `pinned version ${pinned} exists` };
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

function webAcl({ settings, region, webAcl }: Facts): Finding {
  const check = 'web ACL';
  // The schema already refused an ARN outside us-east-1 or not CloudFront-scoped.
  if (settings.webAclArn) {
    const fix = `set webAclArn in ${settings.file} to a CloudFront-scoped web ACL of this account, made in ${CLOUDFRONT_REGION}`;
    if (!webAcl) return unreadable(check, 'not asked', fix);
    if ('error' in webAcl) return unreadable(check, webAcl.error, fix);
    if (webAcl.value === null) return { check, verdict: 'fail', message: `${settings.webAclArn} does not exist`, fix };
    return { check, verdict: 'ok', message: `${webAcl.value.name} (CloudFront, ${CLOUDFRONT_REGION})` };
  }
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
  if (!migrations || 'error' in migrations)
    return unreadable(
      check,
      migrations ? migrations.error : 'not asked',
      `read the table's GSIs (dynamodb:DescribeTable); CloudFormation adds one per update`,
    );
  if (migrations.value === null)
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
  if (!migrations) return unreadable(check, 'not asked', fix);
  if ('error' in migrations) return unreadable(check, migrations.error, fix);
  if (migrations.value === null)
    return { check, verdict: 'ok', message: 'no runner yet: the first deploy creates it, and it runs every migration' };
  const rows = migrations.value.ledger;
  const failed = rows.filter((row) => row.lastError && row.status !== 'done');
  // A release must not go past a migration that failed: the next one's code may rely on its shape.
  if (failed.length)
    return {
      check,
      verdict: 'fail',
      message: `${failed.map((row) => `${row.id} ${row.name}`).join(', ')} stopped on an error: ${failed[0]!.lastError}`,
      fix: `fix its cause, then ${fix} --resume (it goes on from its checkpoint); deploy once it is done`,
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
