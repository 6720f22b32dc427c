import { randomUUID } from 'node:crypto';

import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { hashPassword } from '#shared/auth/passwords';

import { TOKEN_TTL_SECONDS } from '#shared/auth/tokens';

import { createAdministrator } from '#shared/data/administrators';

import { AUTH_COOKIE } from '#shared/http/cookies';

import { call } from '../support/api.ts';

import { claimsOf, expOf } from '../support/tokens.ts';
import { newContainer } from '../support/container.ts';

const LOGIN = '/api/v2/auth/legacy/login';
const PASSWORD = 'a-long-enough-password';
let staff: { login: string; id: number };
let vendor: { login: string };

async function makeAdmin(vendorUser: 0 | 1) {
  const login = `staff-${randomUUID()}@test.local`;
  return createAdministrator({
    login,
    email: login,
    name: 'Test Staff',
    permissions: ['shipping:read'],
    vendorUser,
    passwordHash: await hashPassword(PASSWORD),
  });
}

beforeAll(async () => {
  staff = await makeAdmin(0);
  vendor = await makeAdmin(1);
});

afterEach(() => {
  process.env.SITE_AUTH_METHOD = 'legacy';
  newContainer();
});

describe('legacy login', () => {
  it('returns a JWT and the profile, and sets a secure HttpOnly cookie', async () => {
    const response = await call('POST', LOGIN, { body: { login: staff.login, password: PASSWORD } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      count: 1,
      data: {
        success: true,
        jwt: expect.any(String),
        user: { id: staff.id, login: staff.login, permissions: ['shipping:read'], vendorUser: 0 },
      },
    });
    // Bearer clients learn when to refresh: epoch seconds, the token's own `exp`.
    expect(response.body.data.expiresAt).toBe(expOf(response.body.data.jwt));
    expect(response.body.data.expiresAt - claimsOf(response.body.data.jwt).iat).toBe(TOKEN_TTL_SECONDS);
    expect(response.body.data.user).not.toHaveProperty('passwordHash');
    expect(response.cookies).toHaveLength(1);
    const cookie = response.cookies[0]!;
    expect(cookie.startsWith(`${AUTH_COOKIE}=${response.body.data.jwt};`)).toBe(true);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
  });

  it('accepts the login in any case', async () => {
    const response = await call('POST', LOGIN, { body: { login: staff.login.toUpperCase(), password: PASSWORD } });
    expect(response.status).toBe(200);
  });

  it('gives the same 401 for a wrong password and an unknown login', async () => {
    const wrong = await call('POST', LOGIN, { body: { login: staff.login, password: 'not-the-password' } });
    const unknown = await call('POST', LOGIN, {
      body: { login: `nobody-${randomUUID()}@test.local`, password: PASSWORD },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.cookies).toEqual([]);
  });

  it('rejects a vendor user with a pointer to the vendor channel', async () => {
    const response = await call('POST', LOGIN, { body: { login: vendor.login, password: PASSWORD } });
    expect(response.status).toBe(403);
    expect(response.body.error).toBe('vendor_login_required');
    expect(response.body.detail).toMatch(/vendor\/login/);
    expect(response.cookies).toEqual([]);
  });

  it('answers 403 when the site signs in through the identity provider', async () => {
    process.env.SITE_AUTH_METHOD = 'idp';
    newContainer();
    const response = await call('POST', LOGIN, { body: { login: staff.login, password: PASSWORD } });
    expect(response.status).toBe(403);
  });

  it('refuses a body without a password or with extra fields', async () => {
    expect((await call('POST', LOGIN, { body: { login: staff.login } })).status).toBe(400);
    expect((await call('POST', LOGIN, { body: { login: staff.login, password: PASSWORD, admin: true } })).status).toBe(
      400,
    );
  });
});

describe('GET /auth/me', () => {
  it('answers the profile and permissions of the caller, by Bearer token or by cookie', async () => {
    const login = await call('POST', LOGIN, { body: { login: staff.login, password: PASSWORD } });
    const jwt = login.body.data.jwt;
    const byBearer = await call('GET', '/api/v2/auth/me', { token: jwt });
    expect(byBearer.status).toBe(200);
    expect(byBearer.body).toEqual({ count: 1, data: login.body.data.user });
    const byCookie = await call('GET', '/api/v2/auth/me', { cookies: [`${AUTH_COOKIE}=${jwt}`] });
    expect(byCookie.body).toEqual(byBearer.body);
  });

  it('answers 401 when the token names an account that does not exist', async () => {
    const { adminToken } = await import('../support/tokens.ts');
    const response = await call('GET', '/api/v2/auth/me', { token: await adminToken([], 123_456_789) });
    expect(response.status).toBe(401);
  });
});
