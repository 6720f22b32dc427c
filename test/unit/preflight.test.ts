import { describe, expect, it } from 'vitest';
import { judge, MIN_BOOTSTRAP_VERSION, report, type Facts } from '../../bin/preflight/checks.ts';
import { parseArguments } from '../../bin/preflight.ts';
import { resolveStage, StageSettingsError } from '../../infra/stages.ts';

const prod = (context: Record<string, string> = {}) =>
  resolveStage((key) => ({ stage: 'prod', emailFrom: 'no-reply@tickets.example.net.test', ...context })[key]);

/** Everything a first deploy needs, present. */
const ready = (over: Partial<Facts> = {}): Facts => ({
  settings: prod(),
  region: 'us-east-1',
  account: { value: '123456789012' },
  bootstrapVersion: { value: 28 },
  sesAddress: { value: null },
  sesDomain: { value: { verified: true } },
  sesAccount: { value: { productionAccess: true, sendingEnabled: true } },
  signingKeys: { value: { hasCurrentVersion: true } },
  lambdaConcurrency: { value: { limit: 1000, unreserved: 1000 } },
  reservedByStage: 180,
  ...over,
});

const finding = (facts: Facts, check: string) => judge(facts).find((each) => each.check === check)!;

describe('preflight checks', () => {
  it('passes a ready account, every line ok', () => {
    const findings = judge(ready());
    expect(findings.map((each) => each.verdict)).toEqual(Array(findings.length).fill('ok'));
    expect(report(findings)).toMatchObject({ failed: false, text: expect.stringContaining('Ready to deploy.') });
  });

  it('names the bootstrap command for a missing or old bootstrap stack, with the account and region', () => {
    expect(finding(ready({ bootstrapVersion: { value: null } }), 'bootstrap')).toMatchObject({
      verdict: 'fail',
      fix: 'npx cdk bootstrap aws://123456789012/us-east-1',
    });
    expect(finding(ready({ bootstrapVersion: { value: MIN_BOOTSTRAP_VERSION - 1 } }), 'bootstrap')).toMatchObject({
      verdict: 'fail',
      message: expect.stringContaining('older'),
    });
    expect(finding(ready({ bootstrapVersion: { error: 'AccessDeniedException: no' } }), 'bootstrap')).toMatchObject({
      verdict: 'fail',
      message: 'could not be checked: AccessDeniedException: no',
    });
  });

  it('refuses the placeholder sender, an unverified or missing SES identity, and warns about the sandbox', () => {
    const placeholder = ready({ settings: resolveStage((key) => ({ stage: 'prod' })[key]) });
    expect(finding(placeholder, 'mail sender')).toMatchObject({
      verdict: 'fail',
      fix: '-c emailFrom=no-reply@<your verified domain>',
    });
    expect(finding(ready({ sesDomain: { value: { verified: false } } }), 'mail sender')).toMatchObject({
      verdict: 'fail',
      message: expect.stringContaining('not verified yet'),
    });
    expect(finding(ready({ sesDomain: { value: null } }), 'mail sender')).toMatchObject({
      verdict: 'fail',
      fix: expect.stringContaining('create-email-identity --email-identity tickets.example.net.test'),
    });
    expect(
      finding(ready({ sesAccount: { value: { productionAccess: false, sendingEnabled: true } } }), 'mail sandbox'),
    ).toMatchObject({ verdict: 'warn', fix: expect.stringContaining('production access') });
    expect(
      finding(ready({ sesAccount: { value: { productionAccess: true, sendingEnabled: false } } }), 'mail sandbox')
        .verdict,
    ).toBe('fail');
  });

  it("refuses reservations that would leave less than AWS's 100 unreserved (a new account's quota of 10)", () => {
    expect(
      finding(ready({ lambdaConcurrency: { value: { limit: 10, unreserved: 10 } } }), 'concurrency'),
    ).toMatchObject({ verdict: 'fail', fix: expect.stringContaining('Service Quotas') });
    expect(
      finding(ready({ lambdaConcurrency: { value: { limit: 1000, unreserved: 900 } } }), 'concurrency'),
    ).toMatchObject({ verdict: 'ok', message: 'reserves 180 of 1000; 720 stay unreserved' });
    expect(finding(ready({ reservedByStage: 0, lambdaConcurrency: { error: 'x' } }), 'concurrency').verdict).toBe('ok');
  });

  it('names `npm run keys` for a missing signing-key secret', () => {
    expect(finding(ready({ signingKeys: { value: null } }), 'signing keys')).toMatchObject({
      verdict: 'fail',
      fix: 'npm run keys -- init --stage prod',
    });
  });

  it('checks the region against the WAF rule, the account against --account, and DNS for custom domains', () => {
    expect(finding(ready({ region: 'eu-west-1' }), 'region')).toMatchObject({
      verdict: 'fail',
      fix: expect.stringContaining('-c webAclArn'),
    });
    const ownAcl = prod({ webAclArn: 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/edge/abc' });
    expect(finding(ready({ region: 'eu-west-1', settings: ownAcl }), 'region').verdict).toBe('ok');
    expect(finding(ready({ region: undefined }), 'region').verdict).toBe('fail');
    expect(finding(ready({ expectedAccount: '210987654321' }), 'account')).toMatchObject({
      verdict: 'fail',
      message: 'the credentials are of account 123456789012, not 210987654321',
    });
    const domain = prod({
      adminDomain: 'admin.tickets.example.net.test',
      certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc-123',
    });
    expect(finding(ready({ settings: domain }), 'domains').verdict).toBe('warn');
    const { text, failed } = report(judge(ready({ signingKeys: { value: null } })));
    expect(failed).toBe(true);
    expect(text).toContain('FAIL  signing keys');
    expect(text).toContain('→ npm run keys -- init --stage prod');
  });

  it('reads the cdk-style arguments, refusing unknown ones', () => {
    expect(parseArguments(['--stage', 'prod', '--account', '1', '-c', 'emailFrom=a@b.test'])).toEqual({
      context: { stage: 'prod', emailFrom: 'a@b.test' },
      expectedAccount: '1',
    });
    expect(() => parseArguments(['--force', 'x'])).toThrow(StageSettingsError);
    expect(() => parseArguments(['--stage'])).toThrow(StageSettingsError);
  });
});
