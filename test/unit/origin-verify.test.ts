import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '#shared/config';
import { ORIGIN_VERIFY_HEADER } from '#shared/http/origin-verify';
import { ALLOWED_ORIGIN, TEST_ENV } from '../support/env.ts';

// A real route handler: the check sits in the one middy stack every route shares.
// POST /auth/legacy/logout needs a token, so a request the origin check lets through
// meets authentication next (401) and touches no stand-in service.
const CURRENT = 'current-origin-secret-0123456789';
const PREVIOUS = 'previous-origin-secret-012345678';
const saved = { ...process.env };
// The logger reads the configuration when the handler module loads: environment first.
Object.assign(process.env, TEST_ENV);
const { handler } = await import('../../functions/auth/legacy-logout.ts');

function event(headers: Record<string, string>) {
  return {
    version: '2.0',
    routeKey: 'POST /api/v2/auth/legacy/logout',
    rawPath: '/api/v2/auth/legacy/logout',
    rawQueryString: '',
    headers: { origin: ALLOWED_ORIGIN, ...headers },
    requestContext: { http: { method: 'POST', path: '/api/v2/auth/legacy/logout', sourceIp: '203.0.113.9' }, requestId: 'r1' },
    isBase64Encoded: false,
  };
}
const context = { awsRequestId: 'req-1', functionName: 'logout', getRemainingTimeInMillis: () => 10_000 };
const send = async (headers: Record<string, string> = {}) => {
  const result = (await handler(event(headers) as never, context as never)) as { statusCode: number; headers: Record<string, string>; body: string };
  return { ...result, json: JSON.parse(result.body) };
};

beforeEach(() => {
  process.env = { ...saved, ...TEST_ENV, ORIGIN_VERIFY_SECRETS: `${CURRENT},${PREVIOUS}` };
  resetConfigForTests();
});
afterAll(() => {
  process.env = saved;
  resetConfigForTests();
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

  it('checks nothing when ORIGIN_VERIFY_SECRETS is unset (local server, tests, integrators)', async () => {
    delete process.env.ORIGIN_VERIFY_SECRETS;
    resetConfigForTests();
    expect((await send()).statusCode).toBe(401);
  });

  it('fails the cold start when ORIGIN_VERIFY_SECRETS is set but empty, instead of refusing or admitting everyone', async () => {
    process.env.ORIGIN_VERIFY_SECRETS = ' , ';
    resetConfigForTests();
    await expect(send({ [ORIGIN_VERIFY_HEADER]: CURRENT })).rejects.toThrow(/ORIGIN_VERIFY_SECRETS/);
  });
});
