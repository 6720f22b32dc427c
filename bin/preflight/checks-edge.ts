import { FRONT_END_NAMES, type StageSettings } from '../../infra/stages.ts';
import { CLOUDFRONT_REGION, type Facts, type Finding, unreadable } from './findings.ts';

/** The front ends' edge: custom domains, their certificate and hosted zone, the web ACL the stage names. */

export function domains({ settings }: Facts): Finding {
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

export function certificate({ settings, certificate }: Facts): Finding {
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

export function hostedZone({ settings, hostedZone }: Facts): Finding {
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

export function webAcl({ settings, webAcl }: Facts): Finding {
  const check = 'web ACL';
  // The schema already refused an ARN outside us-east-1 or not CloudFront-scoped.
  if (settings.webAclArn) {
    const fix = `set webAclArn in ${settings.file} to a CloudFront-scoped web ACL of this account, made in ${CLOUDFRONT_REGION}`;
    if (!webAcl) return unreadable(check, 'not asked', fix);
    if ('error' in webAcl) return unreadable(check, webAcl.error, fix);
    if (webAcl.value === null) return { check, verdict: 'fail', message: `${settings.webAclArn} does not exist`, fix };
    return { check, verdict: 'ok', message: `${webAcl.value.name} (CloudFront, ${CLOUDFRONT_REGION})` };
  }
  return {
    check,
    verdict: 'ok',
    message: `created by the stack${settings.webAclLogs ? ', logging to CloudWatch' : ''}`,
  };
}
