import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '#shared/config';
import { clientAddress, VIEWER_ADDRESS_HEADER } from '#shared/http/client-address';
import type { RouteEvent } from '#shared/http/request';
import { TEST_ENV } from '../support/env.ts';

const saved = { ...process.env };
const event = (headers: Record<string, string>) =>
  ({ headers, requestContext: { http: { method: 'POST', path: '/', sourceIp: '198.51.100.4' } } }) as unknown as RouteEvent;

beforeEach(() => {
  process.env = { ...saved, ...TEST_ENV };
  resetConfigForTests();
});
afterAll(() => {
  process.env = saved;
  resetConfigForTests();
});

describe('clientAddress (the per-client login limits)', () => {
  it("behind CloudFront (origin check on) is the viewer's address the front end's function set", () => {
    process.env.ORIGIN_VERIFY_SECRETS = 'current-origin-secret-0123456789';
    resetConfigForTests();
    expect(clientAddress(event({ [VIEWER_ADDRESS_HEADER]: '203.0.113.7' }))).toBe('203.0.113.7');
    expect(clientAddress(event({}))).toBe('198.51.100.4');
  });

  it('without the origin check ignores the header: any caller could send it', () => {
    expect(clientAddress(event({ [VIEWER_ADDRESS_HEADER]: '203.0.113.7' }))).toBe('198.51.100.4');
  });
});
