import { CreateSecretCommand, PutSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ORIGIN_VERIFY_HEADER } from '#shared/http/origin-verify-header';
import { ALLOWED_ORIGIN, TEST_ENV } from '../support/env.ts';
import { type SecretsManagerForTests, secretsManagerStandIn } from '../support/secrets-manager.ts';
import { newContainer } from '../support/container.ts';

// A real route handler: the check sits in the one middy stack every route shares.
// POST /auth/refresh needs a token, so a request the origin check lets through
// meets authentication next (401) and touches no stand-in service. The values come from
// the Secrets Manager stand-in, as they come from Secrets Manager once deployed.
const CURRENT = 'current-origin-secret-0123456789';
const PREVIOUS = 'previous-origin-secret-012345678';
const saved = { ...process.env };
// The logger reads the configuration when the handler module loads: environment first.
Object.assign(process.env, TEST_ENV);
const { handler } = await import('../../functions/auth/refresh.ts');
const { REFRESH_SECONDS } = await import('#shared/services/origin-verify-secret');

let secrets: SecretsManagerForTests;
let client: SecretsManagerClient;
let secretArn: string;
let aws: Record<string, string>;
const store = (value: Record<string, string>) =>
  client.send(new PutSecretValueCommand({ SecretId: secretArn, SecretString: JSON.stringify(value) }));

beforeAll(async () => {
  secrets = await secretsManagerStandIn();
  ({ client, env: aws } = secrets);
  secretArn = (
    await client.send(
      new CreateSecretCommand({
        Name: 'ticketing/unit/origin-verify',
        SecretString: JSON.stringify({ current: CURRENT, previous: PREVIOUS }),
      }),
    )
  ).ARN!;
});

function event(headers: Record<string, string>) {
  return {
    version: '2.0',
    routeKey: 'POST /api/v2/auth/refresh',
    rawPath: '/api/v2/auth/refresh',
    rawQueryString: '',
    headers: { origin: ALLOWED_ORIGIN, ...headers },
    requestContext: {
      http: { method: 'POST', path: '/api/v2/auth/refresh', sourceIp: '203.0.113.9' },
      requestId: 'r1',
    },
    isBase64Encoded: false,
  };
}
const context = { awsRequestId: 'req-1', functionName: 'refresh', getRemainingTimeInMillis: () => 10_000 };
const send = async (headers: Record<string, string> = {}) => {
  const result = (await handler(event(headers) as never, context as never)) as {
    statusCode: number;
    headers: Record<string, string>;
    body: string;
  };
  return { ...result, json: JSON.parse(result.body) };
};

beforeEach(async () => {
  process.env = { ...saved, ...TEST_ENV, ...aws, ORIGIN_VERIFY_SECRET: secretArn };
  newContainer();
  await store({ current: CURRENT, previous: PREVIOUS });
});
afterAll(async () => {
  vi.useRealTimers();
  process.env = saved;
  newContainer();
  await secrets.stop();
});

describe('the origin check (x-origin-verify from CloudFront)', () => {
  it('refuses a request without the header with 403 origin_rejected, as problem details with CORS and security headers', async () => {
    const answer = await send();
    expect(answer.statusCode).toBe(403);
    expect(answer.headers['Content-Type']).toBe('application/problem+json');
    expect(answer.json).toMatchObject({ status: 403, error: 'origin_rejected', type: '/problems/forbidden' });
    expect(answer.json.detail).toMatch(/front-end origin/);
    expect(answer.headers['Access-Control-Allow-Origin']).toBe(ALLOWED_ORIGIN);
    expect(answer.headers['X-Content-Type-Options']).toBe('nosniff');
  });

  it('refuses a wrong value, and a value that only starts like a secret', async () => {
    expect((await send({ [ORIGIN_VERIFY_HEADER]: 'guess' })).json.error).toBe('origin_rejected');
    expect((await send({ [ORIGIN_VERIFY_HEADER]: CURRENT.slice(0, -1) })).json.error).toBe('origin_rejected');
    expect((await send({ [ORIGIN_VERIFY_HEADER]: `${CURRENT},${PREVIOUS}` })).json.error).toBe('origin_rejected');
  });

  it('lets the current and the previous value through to authentication (rotation refuses nobody)', async () => {
    for (const value of [CURRENT, PREVIOUS]) {
      const answer = await send({ [ORIGIN_VERIFY_HEADER]: value });
      expect(answer.statusCode, value).toBe(401);
      expect(answer.json.type).toBe('/problems/unauthorized');
    }
  });

  it('checks nothing where ORIGIN_VERIFY_SECRET says none (the local server, tests)', async () => {
    process.env.ORIGIN_VERIFY_SECRET = 'none';
    newContainer();
    expect((await send()).statusCode).toBe(401);
  });

  it('fails closed: with ORIGIN_VERIFY_SECRET unset every request is refused (a 5xx problem), with the header or without', async () => {
    delete process.env.ORIGIN_VERIFY_SECRET;
    newContainer();
    for (const headers of [{}, { [ORIGIN_VERIFY_HEADER]: CURRENT }] as Record<string, string>[]) {
      const answer = await send(headers);
      expect(answer.statusCode).toBe(500);
      expect(answer.headers['Content-Type']).toBe('application/problem+json');
    }
  });

  it('reads the values from the secret, not the environment, and takes a rotation within REFRESH_SECONDS without a deploy', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      expect((await send({ [ORIGIN_VERIFY_HEADER]: CURRENT })).statusCode).toBe(401);
      expect(JSON.stringify(process.env)).not.toContain(CURRENT);
      const NEXT = 'next-origin-secret-0123456789abc';
      await store({ current: CURRENT, previous: NEXT });
      // Until the refresh the container keeps what it read.
      expect((await send({ [ORIGIN_VERIFY_HEADER]: NEXT })).json.error).toBe('origin_rejected');
      vi.setSystemTime(Date.now() + (REFRESH_SECONDS + 1) * 1000);
      expect((await send({ [ORIGIN_VERIFY_HEADER]: NEXT })).statusCode).toBe(401);
      expect((await send({ [ORIGIN_VERIFY_HEADER]: PREVIOUS })).json.error).toBe('origin_rejected');
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses every request (a 5xx problem, never an open door) when the secret cannot be read and nothing was read before, and a malformed secret likewise', async () => {
    process.env.ORIGIN_VERIFY_SECRET = `${secretArn}-missing`;
    newContainer();
    const missing = await send({ [ORIGIN_VERIFY_HEADER]: CURRENT });
    expect(missing.statusCode).toBeGreaterThanOrEqual(500);
    expect(missing.headers['Content-Type']).toBe('application/problem+json');
    process.env.ORIGIN_VERIFY_SECRET = secretArn;
    newContainer();
    await store({ current: 'short' });
    expect((await send({ [ORIGIN_VERIFY_HEADER]: 'short' })).statusCode).toBeGreaterThanOrEqual(500);
  });
});
