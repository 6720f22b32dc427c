import { concurrencyFix, planConcurrency } from './concurrency.ts';
import { type Facts, type Finding, unreadable } from './findings.ts';

/** The credentials' account and region, and the Lambda concurrency the stage reserves there. */

export function region({ region, settings }: Facts): Finding {
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
  return { check, verdict: 'ok', message: region };
}

export function account({ account, settings, expectedAccount: given }: Facts): Finding {
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

export function concurrency({
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
