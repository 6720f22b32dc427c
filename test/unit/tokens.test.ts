import { afterEach, beforeAll, describe, expect, it } from 'vitest';

/** The service's own tokens, without services: only the environment the config validates. */
let tokens: typeof import('#shared/auth/tokens');
let clock: typeof import('#shared/clock');

beforeAll(async () => {
  Object.assign(process.env, {
    STAGE: 'test',
    SITE_AUTH_METHOD: 'legacy',
    JWT_SECRET: 'unit-only-secret-0123456789abcdefghijklmnop',
    JWT_ISSUER: 'https://ticketing.unit/api/v2',
    ALLOWED_ORIGINS: 'https://admin.ticketing.unit',
  });
  tokens = await import('#shared/auth/tokens');
  clock = await import('#shared/clock');
});

afterEach(() => clock.resetClock());

const admin = () =>
  tokens.issueToken({ kind: 'admin', id: 42, login: 'pat', permissions: ['tickets:read'], vendorUser: false, authTime: clock.epochSeconds() });

describe('token verification', () => {
  it('answers the principal the token was issued for, again on a repeated request', async () => {
    const token = await admin();
    const first = await tokens.verifyToken(token, 'admin');
    expect(first).toMatchObject({ kind: 'admin', id: 42, login: 'pat', permissions: ['tickets:read'] });
    expect(await tokens.verifyToken(token, 'admin')).toEqual(first);
  });

  it('refuses a token once it has expired, even after it was verified before', async () => {
    const token = await admin();
    await tokens.verifyToken(token, 'admin');
    clock.advanceClock((tokens.TOKEN_TTL_SECONDS + 1) * 1000);
    await expect(tokens.verifyToken(token, 'admin')).rejects.toMatchObject({ kind: 'unauthenticated' });
  });

  it('refuses a token verified for one audience when it is presented for the other', async () => {
    const token = await admin();
    await tokens.verifyToken(token, 'admin');
    await expect(tokens.verifyToken(token, 'customer')).rejects.toMatchObject({ kind: 'unauthenticated' });
  });
});
