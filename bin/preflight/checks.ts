import type { StageSettings } from '../../infra/stages.ts';

/**
 * What a first deploy needs, judged from facts read with the deploying credentials
 * (`facts.ts`): pure, so every message is unit-tested. Each check answers one line: what
 * was found and, when it is missing, the command or step that fixes it (README "Deploying").
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
  ];
}

function region({ region, settings }: Facts): Finding {
  const check = 'region';
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
      fix: `deploy in ${CLOUDFRONT_REGION}, or create a CloudFront-scoped web ACL there and pass -c webAclArn=<its ARN>`,
    };
  }
  return { check, verdict: 'ok', message: region };
}

function account({ account, expectedAccount }: Facts): Finding {
  const check = 'account';
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
      message: `the credentials are of account ${account.value}, not ${expectedAccount}`,
      fix: 'switch to the profile or role of the intended account',
    };
  }
  return { check, verdict: 'ok', message: `${account.value}${expectedAccount ? ' (as expected)' : ''}` };
}

function bootstrap({ bootstrapVersion, account, region }: Facts): Finding {
  const check = 'bootstrap';
  const target = `aws://${'value' in account ? account.value : '<account>'}/${region ?? '<region>'}`;
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
  const domain = from.split('@')[1] ?? '';
  if (/(^|\.)example\.(com|org|net)$/.test(domain)) {
    return {
      check,
      verdict: 'fail',
      message: `${from} is the stage's placeholder`,
      fix: '-c emailFrom=no-reply@<your verified domain>',
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
      message: `${names.join(', ')} without -c hostedZoneId/hostedZoneName: the stack writes no DNS records`,
      fix: 'point the names at the outputs AdminUrl and PortalUrl yourself after the deploy',
    };
  }
  return {
    check,
    verdict: 'ok',
    message: `${names.join(', ')} (certificate in ${CLOUDFRONT_REGION}, records in ${settings.hostedZone.name})`,
  };
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
