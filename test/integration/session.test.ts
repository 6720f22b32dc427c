import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_LIMIT_SECONDS, TOKEN_TTL_SECONDS, verifyToken } from '#shared/auth/tokens';
import { advanceClock, epochSeconds, resetClock } from '#shared/clock';
import type { Administrator } from '#shared/identity/domain/administrator';
import { AUTH_COOKIE } from '#shared/http/cookies';
import { call } from '../support/api.ts';
import { claimsOf, expOf } from '../support/tokens.ts';
import { ALLOWED_ORIGIN } from '../support/env.ts';
import { makeAdmin, staffToken, useSiteAuthMethod } from '../support/staff.ts';

let staff: Administrator;

beforeAll(async () => {
  staff = await makeAdmin({ permissions: ['tickets:read'], password: 'a-long-enough-password' });
});

afterEach(() => {
  resetClock();
  useSiteAuthMethod('legacy');
});

// Tokens come from staffToken, under the record's current session version: a logout test before has raised it.
const cookieValue = (setCookie: string) => setCookie.slice(`${AUTH_COOKIE}=`.length, setCookie.indexOf(';'));
/** What the admin SPA sends with a cookie-authenticated unsafe request. */
const spa = { origin: ALLOWED_ORIGIN, 'x-requested-with': 'fetch' };

describe('GET /auth/me2 (deprecated)', () => {
  it('answers exactly what /auth/me answers, with Deprecation and a Link to /auth/me', async () => {
    const token = await staffToken(staff);
    const me = await call('GET', '/api/v2/auth/me', { token });
    const me2 = await call('GET', '/api/v2/auth/me2', { token });
    expect(me2.status).toBe(200);
    expect(me2.body).toEqual(me.body);
    expect(me2.body.data).toMatchObject({ id: staff.id, login: staff.login });
    expect(me2.headers.deprecation).toBe('true');
    expect(me2.headers.link).toBe('</api/v2/auth/me>; rel="successor-version"');
    expect(me.headers.deprecation).toBeUndefined();
  });
});

describe('POST /auth/refresh', () => {
  it('re-issues a valid token as a new cookie that keeps the original sign-in time', async () => {
    const signedInAt = epochSeconds() - 600;
    const token = await staffToken(staff, signedInAt);
    advanceClock(5_000);
    const response = await call('POST', '/api/v2/auth/refresh', { cookies: [`${AUTH_COOKIE}=${token}`], headers: spa });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      count: 1,
      data: { refreshed: true, token: expect.any(String), expiresAt: expect.any(Number) },
    });
    expect(response.cookies).toHaveLength(1);
    expect(response.cookies[0]).toMatch(
      new RegExp(`^${AUTH_COOKIE}=[^;]+; Path=/; Max-Age=${TOKEN_TTL_SECONDS}; HttpOnly; Secure; SameSite=Lax$`),
    );
    const fresh = cookieValue(response.cookies[0]!);
    expect(fresh).not.toBe(token);
    // The same token in the body and the cookie, and `expiresAt` is its own `exp`.
    expect(response.body.data.token).toBe(fresh);
    expect(response.body.data.expiresAt).toBe(expOf(fresh));
    expect(response.body.data.expiresAt - claimsOf(fresh).iat).toBe(TOKEN_TTL_SECONDS);
    expect(await verifyToken(fresh, 'admin')).toMatchObject({ id: staff.id, authTime: signedInAt });
  });

  it('gives a bearer client (no cookies) the new token in the body, usable as it stands', async () => {
    const token = await staffToken(staff);
    advanceClock(5_000);
    const response = await call('POST', '/api/v2/auth/refresh', { token });
    expect(response.status).toBe(200);
    const fresh = response.body.data.token as string;
    expect(fresh).not.toBe(token);
    expect(response.body.data.expiresAt).toBe(expOf(fresh));
    const me = await call('GET', '/api/v2/auth/me', { token: fresh });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ id: staff.id });
  });

  it('refuses a token that has expired', async () => {
    const token = await staffToken(staff);
    advanceClock((TOKEN_TTL_SECONDS + 1) * 1000);
    const response = await call('POST', '/api/v2/auth/refresh', { token });
    expect(response.status).toBe(401);
    expect(response.cookies).toEqual([]);
  });

  it('refuses to extend a session past the absolute limit counted from sign-in', async () => {
    const token = await staffToken(staff, epochSeconds() - SESSION_LIMIT_SECONDS + 60);
    expect((await call('POST', '/api/v2/auth/refresh', { token })).status).toBe(200);
    advanceClock(61_000);
    const late = await call('POST', '/api/v2/auth/refresh', { token });
    expect(late.status).toBe(401);
    expect(late.body.detail).toMatch(/absolute limit/);
  });

  it('refuses a cookie-only refresh from a foreign origin (CSRF)', async () => {
    const token = await staffToken(staff);
    const response = await call('POST', '/api/v2/auth/refresh', {
      cookies: [`${AUTH_COOKIE}=${token}`],
      headers: { origin: 'https://evil.example', 'x-requested-with': 'fetch' },
    });
    expect(response.status).toBe(403);
    expect(response.body.error).toBe('csrf_rejected');
    expect(response.cookies).toEqual([]);
  });

  it('takes no body', async () => {
    const response = await call('POST', '/api/v2/auth/refresh', {
      token: await staffToken(staff),
      body: { extend: true },
    });
    expect(response.status).toBe(400);
  });
});

describe('POST /auth/legacy/logout', () => {
  it('clears the auth cookie and answers JSON, with no redirect', async () => {
    const token = await staffToken(staff);
    const response = await call('POST', '/api/v2/auth/legacy/logout', {
      cookies: [`${AUTH_COOKIE}=${token}`],
      headers: spa,
    });
    expect(response.status).toBe(200);
    expect(response.headers.location).toBeUndefined();
    expect(response.body).toEqual({ count: 1, data: { success: true, message: expect.any(String) } });
    expect(response.cookies).toEqual([`${AUTH_COOKIE}=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax`]);
  });

  it('refuses a cookie-only logout from a foreign origin (CSRF)', async () => {
    const token = await staffToken(staff);
    const response = await call('POST', '/api/v2/auth/legacy/logout', {
      cookies: [`${AUTH_COOKIE}=${token}`],
      headers: { origin: 'https://evil.example' },
    });
    expect(response.status).toBe(403);
    expect(response.cookies).toEqual([]);
  });

  it('answers 403 when the site signs in through the identity provider', async () => {
    useSiteAuthMethod('idp');
    const response = await call('POST', '/api/v2/auth/legacy/logout', { token: await staffToken(staff) });
    expect(response.status).toBe(403);
  });

  it('signs out a browser whose session ran out: an expired, revoked or missing token still answers success and clears the cookie', async () => {
    const cleared = `${AUTH_COOKIE}=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax`;
    const expired = await staffToken(staff, epochSeconds() - SESSION_LIMIT_SECONDS - 60);
    advanceClock((TOKEN_TTL_SECONDS + 60) * 1000);
    const stale = await call('POST', '/api/v2/auth/legacy/logout', {
      cookies: [`${AUTH_COOKIE}=${expired}`],
      headers: spa,
    });
    resetClock();
    // A session ended everywhere before (another device's logout): its token is revoked.
    const revoked = await staffToken(staff);
    expect((await call('POST', '/api/v2/auth/legacy/logout', { token: revoked })).status).toBe(200);
    const afterRevocation = await call('POST', '/api/v2/auth/legacy/logout', {
      cookies: [`${AUTH_COOKIE}=${revoked}`],
      headers: spa,
    });
    const none = await call('POST', '/api/v2/auth/legacy/logout', { headers: spa });
    const garbage = await call('POST', '/api/v2/auth/legacy/logout', {
      cookies: [`${AUTH_COOKIE}=not-a-token`],
      headers: spa,
    });
    for (const response of [stale, afterRevocation, none, garbage]) {
      expect(response.status, response.raw).toBe(200);
      expect(response.body.data.success).toBe(true);
      expect(response.cookies).toEqual([cleared]);
    }
    // Nothing was revoked by the token-less ones: a fresh session still works.
    expect((await call('GET', '/api/v2/auth/me', { token: await staffToken(staff) })).status).toBe(200);
  });

  it('still refuses a foreign Origin, with or without a valid session', async () => {
    for (const cookies of [[], [`${AUTH_COOKIE}=${await staffToken(staff)}`]]) {
      const response = await call('POST', '/api/v2/auth/legacy/logout', {
        cookies,
        headers: { origin: 'https://evil.example', 'x-requested-with': 'fetch' },
      });
      expect(response.status).toBe(403);
      expect(response.body.error).toBe('csrf_rejected');
      expect(response.cookies).toEqual([]);
    }
  });
});

describe('POST /auth/logout (identity provider)', () => {
  it("answers the provider's logout URL and clears the cookie also for an expired or missing session", async () => {
    useSiteAuthMethod('idp');
    const expired = await staffToken(staff, epochSeconds() - SESSION_LIMIT_SECONDS - 60);
    advanceClock((TOKEN_TTL_SECONDS + 60) * 1000);
    for (const options of [{ cookies: [`${AUTH_COOKIE}=${expired}`], headers: spa }, { headers: spa }]) {
      const response = await call('POST', '/api/v2/auth/logout', options);
      expect(response.status, response.raw).toBe(200);
      expect(response.body.data.logout_url).toEqual(expect.any(String));
      expect(response.cookies.join()).toMatch(/Max-Age=0/);
    }
  });
});
