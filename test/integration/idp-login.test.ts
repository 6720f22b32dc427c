import { randomUUID } from 'node:crypto';
import { CognitoIdentityProviderClient, RevokeTokenCommand } from '@aws-sdk/client-cognito-identity-provider';
import { decodeJwt } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { getAdministrator, linkIdentity } from '#shared/identity/data/administrators';
import type { Administrator } from '#shared/identity/domain/administrator';
import { AUTH_COOKIE, LOGIN_COOKIE } from '#shared/http/cookies';
import { call, type CallResult } from '../support/api.ts';
import { createTestIdentityUser, signInAtHostedUi } from '../support/cognito.ts';
import { ADMIN_UI_URL, ALLOWED_ORIGIN, PORTAL_ORIGIN, SECOND_ORIGIN } from '../support/env.ts';
import { newAddress } from '../support/mail.ts';
import {
  forgotPassword,
  legacyLogin,
  makeAdmin,
  resetPassword,
  staffToken,
  useSiteAuthMethod,
} from '../support/staff.ts';
import { adminToken } from '../support/tokens.ts';
import { tightestLeft } from '../support/rate-limits.ts';

const PASSWORD = 'Hosted-UI-password-1';
const REDIRECT = `${ALLOWED_ORIGIN}/after-login?tab=tickets`;
/** The API's callback as the admin UI's origin proxies it (/api/* on the same origin). */
const CALLBACK = `${ALLOWED_ORIGIN}/api/v2/auth/callback`;
const spa = { origin: ALLOWED_ORIGIN, 'x-requested-with': 'fetch' };

beforeAll(() => useSiteAuthMethod('idp'));
afterEach(() => {
  process.env.ADMIN_ORIGINS = ALLOWED_ORIGIN;
  useSiteAuthMethod('idp');
  vi.restoreAllMocks();
});
afterAll(() => useSiteAuthMethod('legacy'));

/** An administrator record and the Cognito user with the same (verified) email. */
async function staffMember(vendorUser: 0 | 1 = 0): Promise<Administrator & { username: string }> {
  const admin = await makeAdmin({ permissions: ['tickets:read'], vendorUser });
  return { ...admin, username: await createTestIdentityUser(admin.email, PASSWORD) };
}

const login = (redirect_uri = REDIRECT, path = '/api/v2/auth/login') => call('POST', path, { body: { redirect_uri } });
/** The callback as a browser reaches it: with the login cookie `browser` holds (the value POST /auth/login set), if any. */
const callback = (query: Record<string, string>, browser?: string) =>
  call(
    'GET',
    `/api/v2/auth/callback?${new URLSearchParams(query)}`,
    browser ? { cookies: [`${LOGIN_COOKIE}=${browser}`] } : {},
  );
/** The login cookie's value a login answer set. */
const browserOf = (response: CallResult): string => {
  const cookie = response.cookies.find((value) => value.startsWith(`${LOGIN_COOKIE}=`));
  expect(cookie).toBeDefined();
  return cookie!.slice(LOGIN_COOKIE.length + 1, cookie!.indexOf(';'));
};
/** The session cookies an answer set (the callback also always clears the login cookie). */
const sessionCookies = (response: CallResult) =>
  response.cookies.filter((value) => value.startsWith(`${AUTH_COOKIE}=`));
const CLEARED_LOGIN_COOKIE = `${LOGIN_COOKIE}=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax`;

/** POST /auth/login, then the hosted UI's sign-in form; returns the code and state the browser would bring back, and its login cookie. */
async function signIn(email: string, path = '/api/v2/auth/login', redirect = REDIRECT) {
  const response = await login(redirect, path);
  expect(response.status).toBe(200);
  return { ...(await signInAtHostedUi(response.body.data.auth_url, email, PASSWORD)), browser: browserOf(response) };
}

const errorCodeOf = (location: string) => new URL(location).searchParams.get('error_code');

describe('POST /auth/login', () => {
  it('answers the hosted UI authorize URL for a code flow with PKCE S256 and a signed state', async () => {
    const response = await login();
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ count: 1, data: { auth_url: expect.any(String) } });
    const url = new URL(response.body.data.auth_url);
    expect(`${url.origin}${url.pathname}`).toBe(`${process.env.COGNITO_DOMAIN}/oauth2/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: process.env.COGNITO_CLIENT_ID,
      redirect_uri: CALLBACK,
      code_challenge_method: 'S256',
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      nonce: expect.any(String),
      scope: 'openid email profile',
    });
    const state = decodeJwt(url.searchParams.get('state')!);
    expect(state).toMatchObject({
      redirect_uri: REDIRECT,
      channel: 'normal',
      nonce: url.searchParams.get('nonce'),
      ref: expect.any(String),
    });
    expect(JSON.stringify(state)).not.toMatch(/verifier/);
    // Bound to this browser: a short-lived HttpOnly cookie whose value only the state's hash refers to.
    const [cookie] = response.cookies;
    expect(cookie).toMatch(
      new RegExp(`^${LOGIN_COOKIE}=[A-Za-z0-9_-]{43}; Path=/; Max-Age=600; HttpOnly; Secure; SameSite=Lax$`),
    );
    expect(state.browser).toEqual(expect.stringMatching(/^[A-Za-z0-9_-]{43}$/));
    expect(JSON.stringify(state)).not.toContain(browserOf(response));
  });

  it("refuses a redirect URI on the portal's origin: logins return to the admin origins only", async () => {
    const response = await login(`${PORTAL_ORIGIN}/after-login`);
    expect(response.status).toBe(400);
    expect(response.body.errors[0].path).toBe('body.redirect_uri');
  });

  it('refuses a redirect URI outside the allowed origins (no open redirect)', async () => {
    for (const target of [
      'https://evil.example/after-login',
      'https://admin.ticketing.test.evil.example/',
      'javascript:alert(1)',
    ]) {
      const response = await login(target);
      expect(response.status).toBe(400);
      expect(response.body.errors[0].path).toBe('body.redirect_uri');
    }
  });

  it('answers 403 with error vendor_user_restricted outside idp mode, on both login routes', async () => {
    useSiteAuthMethod('legacy');
    for (const path of ['/api/v2/auth/login', '/api/v2/auth/vendor/login']) {
      const response = await login(REDIRECT, path);
      expect(response.status).toBe(403);
      expect(response.body.error).toBe('vendor_user_restricted');
    }
  });
});

describe('POST /auth/vendor/login (deprecated)', () => {
  it('answers like /auth/login with the vendor channel in state, and deprecation headers', async () => {
    const response = await login(REDIRECT, '/api/v2/auth/vendor/login');
    expect(response.status).toBe(200);
    expect(response.headers.deprecation).toBe('true');
    expect(response.headers.link).toBe('</api/v2/auth/login>; rel="successor-version"');
    const state = decodeJwt(new URL(response.body.data.auth_url).searchParams.get('state')!);
    expect(state.channel).toBe('vendor');
  });
});

describe('GET /auth/callback', () => {
  it('completes the code flow: sets the session cookie, redirects to the admin UI and links the provider user', async () => {
    const staff = await staffMember();
    const { location, code, state, browser } = await signIn(staff.email);
    expect(`${location.origin}${location.pathname}`).toBe(CALLBACK);
    const response = await callback({ code, state }, browser);
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe(REDIRECT);
    expect(sessionCookies(response)).toHaveLength(1);
    expect(sessionCookies(response)[0]).toMatch(
      new RegExp(`^${AUTH_COOKIE}=[^;]+; Path=/; Max-Age=\\d+; HttpOnly; Secure; SameSite=Lax$`),
    );
    const jwt = sessionCookies(response)[0]!.slice(AUTH_COOKIE.length + 1, sessionCookies(response)[0]!.indexOf(';'));
    const me = await call('GET', '/api/v2/auth/me', { cookies: [`${AUTH_COOKIE}=${jwt}`] });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ id: staff.id, email: staff.email });
    expect(await getAdministrator(staff.id)).toMatchObject({ idpUsername: staff.username, idpSub: expect.any(String) });
  });

  // cognito-local, like Cognito, refuses a token exchange whose redirect_uri differs from the authorize request's.
  it('comes back to the callback on the origin the login started from, and exchanges the code with that callback', async () => {
    process.env.ADMIN_ORIGINS = `${ALLOWED_ORIGIN},${SECOND_ORIGIN}`;
    useSiteAuthMethod('idp');
    const staff = await staffMember();
    const redirect = `${SECOND_ORIGIN}/`;
    const { location, code, state, browser } = await signIn(staff.email, '/api/v2/auth/login', redirect);
    expect(`${location.origin}${location.pathname}`).toBe(`${SECOND_ORIGIN}/api/v2/auth/callback`);
    const response = await callback({ code, state }, browser);
    expect(response.headers.location).toBe(redirect);
    expect(sessionCookies(response)).toHaveLength(1);
  });

  it('clears the login cookie on every outcome', async () => {
    const staff = await staffMember();
    const { code, state, browser } = await signIn(staff.email);
    expect((await callback({ code, state }, browser)).cookies).toContain(CLEARED_LOGIN_COOKIE);
    expect((await callback({ code: 'x', state: 'forged' })).cookies).toEqual([CLEARED_LOGIN_COOKIE]);
  });

  // Login CSRF: an attacker signs in with their own account and has the victim's browser bring their code and state back.
  it("refuses with login_csrf a callback from a browser without the login cookie, or with another login's, and the real browser still completes", async () => {
    const staff = await staffMember();
    const { code, state, browser } = await signIn(staff.email);
    const withoutCookie = await callback({ code, state });
    expect(withoutCookie.status).toBe(302);
    expect(errorCodeOf(withoutCookie.headers.location!)).toBe('login_csrf');
    expect(sessionCookies(withoutCookie)).toEqual([]);
    const otherBrowser = browserOf(await login());
    const withOtherCookie = await callback({ code, state }, otherBrowser);
    expect(errorCodeOf(withOtherCookie.headers.location!)).toBe('login_csrf');
    expect(sessionCookies(withOtherCookie)).toEqual([]);
    // Refused before the verifier is taken: the browser that started the login is not locked out by the attempts.
    const own = await callback({ code, state }, browser);
    expect(own.headers.location).toBe(REDIRECT);
    expect(sessionCookies(own)).toHaveLength(1);
  });

  it('refuses a replayed callback (same code and state) with a redirect, not a session', async () => {
    const staff = await staffMember();
    const { code, state, browser } = await signIn(staff.email);
    expect((await callback({ code, state }, browser)).status).toBe(302);
    const replay = await callback({ code, state }, browser);
    expect(replay.status).toBe(302);
    expect(errorCodeOf(replay.headers.location!)).toBe('login_expired');
    expect(sessionCookies(replay)).toEqual([]);
  });

  it("refuses a code brought back with another login's state (PKCE verifier mismatch)", async () => {
    const staff = await staffMember();
    const { code } = await signIn(staff.email);
    const otherLogin = await login();
    const other = new URL(otherLogin.body.data.auth_url).searchParams.get('state')!;
    const response = await callback({ code, state: other }, browserOf(otherLogin));
    expect(errorCodeOf(response.headers.location!)).toBe('code_rejected');
    expect(sessionCookies(response)).toEqual([]);
  });

  it("redirects with provider_unavailable when Cognito's token endpoint does not answer, and the login can be started again", async () => {
    const staff = await staffMember();
    const { code, state, browser } = await signIn(staff.email);
    const realFetch = globalThis.fetch;
    // The outage, at the one plain-HTTP call of the callback (the token exchange); everything else as usual.
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) =>
      String(input).endsWith('/oauth2/token') ? Promise.reject(new TypeError('fetch failed')) : realFetch(input, init),
    );
    const response = await callback({ code, state }, browser);
    expect(response.status).toBe(302);
    expect(errorCodeOf(response.headers.location!)).toBe('provider_unavailable');
    expect(sessionCookies(response)).toEqual([]);
    vi.restoreAllMocks();
    const again = await signIn(staff.email);
    expect(sessionCookies(await callback({ code: again.code, state: again.state }, again.browser))).toHaveLength(1);
  });

  it.each([
    ['a missing state', {}],
    [
      'a forged state',
      { state: 'eyJhbGciOiJIUzI1NiJ9.eyJyZWRpcmVjdF91cmkiOiJodHRwczovL2V2aWwuZXhhbXBsZSJ9.c2lnbmF0dXJl', code: 'x' },
    ],
    ['a state that is not a JWT', { state: 'hello', code: 'x' }],
  ])('redirects to the admin UI with invalid_state for %s', async (_name, query) => {
    const response = await callback(query as Record<string, string>);
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe(`${ADMIN_UI_URL}/?error_code=invalid_state`);
    expect(sessionCookies(response)).toEqual([]);
  });

  it('redirects with an error code when the provider reports an error or no code comes back', async () => {
    const deniedLogin = await login();
    const denied = new URL(deniedLogin.body.data.auth_url).searchParams.get('state')!;
    expect(
      errorCodeOf(
        (await callback({ state: denied, error: 'access_denied' }, browserOf(deniedLogin))).headers.location!,
      ),
    ).toBe('access_denied');
    const emptyLogin = await login();
    const empty = new URL(emptyLogin.body.data.auth_url).searchParams.get('state')!;
    expect(errorCodeOf((await callback({ state: empty }, browserOf(emptyLogin))).headers.location!)).toBe(
      'invalid_request',
    );
  });

  it('redirects a provider user without an administrator record with unknown_user', async () => {
    const email = newAddress('stranger');
    await createTestIdentityUser(email, PASSWORD);
    const { code, state, browser } = await signIn(email);
    const response = await callback({ code, state }, browser);
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe(`${REDIRECT}&error_code=unknown_user`);
    expect(sessionCookies(response)).toEqual([]);
  });

  it('refuses a provider user whose email matches a record already linked to another provider user', async () => {
    const staff = await staffMember();
    expect(await linkIdentity(staff.id, 'sub-of-an-earlier-provider-user', 'earlier-username')).toBe(true);
    const { code, state, browser } = await signIn(staff.email);
    const response = await callback({ code, state }, browser);
    expect(errorCodeOf(response.headers.location!)).toBe('unknown_user');
    expect(sessionCookies(response)).toEqual([]);
  });

  it('rejects a non-vendor user on the vendor channel: tokens revoked, redirect through the provider logout', async () => {
    const revoked: string[] = [];
    const send = CognitoIdentityProviderClient.prototype.send;
    // Observes the real call (it still reaches cognito-local) to learn which token was revoked.
    vi.spyOn(CognitoIdentityProviderClient.prototype, 'send').mockImplementation(function (
      this: CognitoIdentityProviderClient,
      command: any,
      ...rest: any[]
    ) {
      if (command instanceof RevokeTokenCommand) revoked.push(command.input.Token!);
      return (send as any).call(this, command, ...rest);
    });
    const staff = await staffMember(0);
    const { code, state, browser } = await signIn(staff.email, '/api/v2/auth/vendor/login');
    const response = await callback({ code, state }, browser);

    expect(response.status).toBe(302);
    expect(sessionCookies(response)).toEqual([]);
    const location = new URL(response.headers.location!);
    expect(`${location.origin}${location.pathname}`).toBe(`${process.env.COGNITO_DOMAIN}/logout`);
    expect(location.searchParams.get('client_id')).toBe(process.env.COGNITO_CLIENT_ID);
    expect(location.searchParams.get('logout_uri')).toBe(`${ADMIN_UI_URL}/?error_code=not_vendor_user`);

    expect(revoked).toHaveLength(1);
    const refresh = await fetch(`${process.env.COGNITO_DOMAIN}/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: process.env.COGNITO_CLIENT_ID!,
        refresh_token: revoked[0]!,
      }),
    });
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('signs a vendor user in through the vendor channel', async () => {
    const vendor = await staffMember(1);
    const { code, state, browser } = await signIn(vendor.email, '/api/v2/auth/vendor/login');
    const response = await callback({ code, state }, browser);
    expect(response.headers.location).toBe(REDIRECT);
    expect(sessionCookies(response)).toHaveLength(1);
  });

  it('redirects with idp_disabled in legacy mode', async () => {
    useSiteAuthMethod('legacy');
    const response = await callback({ code: 'x', state: 'y' });
    expect(response.status).toBe(302);
    expect(errorCodeOf(response.headers.location!)).toBe('idp_disabled');
  });
});

describe('POST /auth/logout', () => {
  // Each token under the record's current session version (staffToken): a logout ends every earlier token of the account.
  it('clears the cookie and answers the provider logout URL back to the admin UI', async () => {
    const staff = await staffMember();
    const response = await call('POST', '/api/v2/auth/logout', {
      cookies: [`${AUTH_COOKIE}=${await staffToken(staff)}`],
      headers: spa,
    });
    expect(response.status).toBe(200);
    expect(response.cookies).toEqual([`${AUTH_COOKIE}=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax`]);
    const expected = `${process.env.COGNITO_DOMAIN}/logout?${new URLSearchParams({ client_id: process.env.COGNITO_CLIENT_ID!, logout_uri: ADMIN_UI_URL })}`;
    expect(response.body).toEqual({ count: 1, data: { success: true, logout_url: expected } });
  });

  it('takes an allowed return_to and refuses any other', async () => {
    const staff = await staffMember();
    const before = await staffToken(staff);
    const allowed = await call('POST', `/api/v2/auth/logout?return_to=${encodeURIComponent(`${ALLOWED_ORIGIN}/`)}`, {
      token: await staffToken(staff),
    });
    expect(new URL(allowed.body.data.logout_url).searchParams.get('logout_uri')).toBe(`${ALLOWED_ORIGIN}/`);
    // Logout everywhere: a token issued before it (another tab, another device) has ended.
    expect((await call('GET', '/api/v2/auth/me', { token: before })).status).toBe(401);
    // A new sign-in: the logout above ended every token of the account.
    const foreign = await call('POST', `/api/v2/auth/logout?return_to=${encodeURIComponent('https://evil.example/')}`, {
      token: await staffToken(staff),
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors[0].path).toBe('query.return_to');
  });

  it('refuses a cookie-only logout from a foreign origin (CSRF)', async () => {
    const staff = await staffMember();
    const response = await call('POST', '/api/v2/auth/logout', {
      cookies: [`${AUTH_COOKIE}=${await staffToken(staff)}`],
      headers: { origin: 'https://evil.example', 'x-requested-with': 'fetch' },
    });
    expect(response.status).toBe(403);
    expect(response.body.error).toBe('csrf_rejected');
    expect(response.cookies).toEqual([]);
  });

  it('answers 403 in legacy mode', async () => {
    const token = await staffToken(await staffMember());
    useSiteAuthMethod('legacy');
    expect((await call('POST', '/api/v2/auth/logout', { token })).status).toBe(403);
  });
});

describe('POST /auth/change-password', () => {
  it('has the provider email a reset code to a linked identity-provider user', async () => {
    const staff = await staffMember();
    const { code, state, browser } = await signIn(staff.email);
    const session = await callback({ code, state }, browser);
    const cookie = sessionCookies(session)[0]!.split(';')[0]!;
    const response = await call('POST', '/api/v2/auth/change-password', { cookies: [cookie], headers: spa });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: expect.any(String) });
    // At most 3 reset mails per account in 24 hours (the first above included), from any address.
    const left = [tightestLeft(response)];
    for (let i = 1; i < 3; i++) {
      const again = await call('POST', '/api/v2/auth/change-password', { cookies: [cookie], headers: spa });
      expect(again.status).toBe(200);
      left.push(tightestLeft(again));
    }
    // The client sees the refusal coming (RateLimit headers).
    expect(left).toEqual([2, 1, 0]);
    const limited = await call('POST', '/api/v2/auth/change-password', { cookies: [cookie], headers: spa });
    expect(limited.status).toBe(429);
    expect(tightestLeft(limited)).toBe(0);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('answers 403 for an account with its own password (legacy user)', async () => {
    const admin = await makeAdmin({ passwordHash: '$scrypt$ln=15,r=8,p=1$c2FsdA$aGFzaA' });
    const token = await staffToken(admin);
    expect((await call('POST', '/api/v2/auth/change-password', { token })).status).toBe(403);
  });

  it('answers 403 in legacy mode', async () => {
    useSiteAuthMethod('legacy');
    // An id without a record (version 0): a real record's version may have been raised by another test.
    const token = await adminToken([], 999_001);
    expect((await call('POST', '/api/v2/auth/change-password', { token })).status).toBe(403);
  });
});

describe('the legacy routes in idp mode', () => {
  it('answer 403', async () => {
    const email = newAddress('legacy');
    expect((await legacyLogin(email, PASSWORD)).status).toBe(403);
    expect((await forgotPassword(email)).status).toBe(403);
    expect((await resetPassword(randomUUID(), PASSWORD)).status).toBe(403);
  });
});
