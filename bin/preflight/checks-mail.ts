import { STAGE_FILES } from '../../infra/stages.ts';
import { type Facts, type Finding, unreadable } from './findings.ts';

/** The stage's mail: its sender's SES identity, the account's sandbox, the reputation it shares. */

export function sender({ settings, sesAddress, sesDomain }: Facts): Finding {
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

export function sandbox({ sesAccount, settings }: Facts): Finding {
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
export function mailAccount({ settings }: Facts): Finding {
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
