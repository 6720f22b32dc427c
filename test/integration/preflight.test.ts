import { CreateSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signingKeySecretName } from '#shared/auth/key-set';
import { judge, report } from '../../bin/preflight/checks.ts';
import { readFacts } from '../../bin/preflight/facts.ts';
import { resolveStage } from '../../infra/stages.ts';

/**
 * `npm run preflight` against the local stand-ins: Secrets Manager answers whether the
 * stage's signing-key secret exists; STS, SSM and Lambda have no stand-in, so they are pointed at a
 * closed port and must come back as "could not be checked" lines, never a crash.
 */
const stage = (name: 'staging' | 'prod') =>
  resolveStage((key) => ({ stage: name, emailFrom: 'no-reply@tickets.example.net.test' })[key]);
const CLOSED = 'http://127.0.0.1:9';
const NO_STAND_IN = ['AWS_ENDPOINT_URL_STS', 'AWS_ENDPOINT_URL_SSM', 'AWS_ENDPOINT_URL_LAMBDA'] as const;
const saved = Object.fromEntries(NO_STAND_IN.map((name) => [name, process.env[name]]));

beforeAll(async () => {
  for (const name of NO_STAND_IN) process.env[name] = CLOSED;
  const secrets = new SecretsManagerClient({});
  await secrets
    .send(
      new CreateSecretCommand({
        Name: signingKeySecretName('staging'),
        SecretString: JSON.stringify({ jwks: { keys: [] } }),
      }),
    )
    .catch((error) => {
      if (error.name !== 'ResourceExistsException') throw error;
    });
  secrets.destroy();
});

afterAll(() => {
  for (const name of NO_STAND_IN) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

describe('npm run preflight against the stand-ins', () => {
  it('finds the signing-key secret of a stage that has one, and names `npm run keys` for one that has none', async () => {
    const staging = judge(await readFacts(stage('staging')));
    expect(staging.find((each) => each.check === 'signing keys')).toMatchObject({ verdict: 'ok', message: 'present' });
    const prod = judge(await readFacts(stage('prod')));
    expect(prod.find((each) => each.check === 'signing keys')).toMatchObject({
      verdict: 'fail',
      fix: 'npm run keys -- init --stage prod',
    });
  });

  it('reports what it could not read as unknown lines with the step to take, never as passed, and fails the run', async () => {
    const facts = await readFacts(stage('prod'));
    expect(facts.account).toMatchObject({ error: expect.any(String) });
    const findings = judge(facts);
    expect(findings.find((each) => each.check === 'account')).toMatchObject({
      verdict: 'unknown',
      message: expect.stringContaining('could not be checked'),
    });
    // The runner (Lambda) cannot be asked: the ledger, the table's GSIs and whether the stage exists are unknown, not ok.
    for (const check of ['migrations', 'table indexes', 'data protection', 'concurrency'])
      expect(findings.find((each) => each.check === check)?.verdict, check).toBe('unknown');
    const { text, failed } = report(findings);
    expect(failed).toBe(true);
    expect(text).toContain('????  account');
  });
});
