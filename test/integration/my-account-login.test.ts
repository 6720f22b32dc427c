import { afterEach, describe, expect, it } from 'vitest';
import { advanceClock, resetClock } from '#shared/clock';
import { CustomerSignIn } from '#shared/identity/domain/customer';
import { AUTH_COOKIE } from '#shared/http/cookies';
import { SingleAnswer } from '#shared/http/answers';
import { call } from '../support/api.ts';
import { claimsOf, expOf } from '../support/tokens.ts';
import { login, newCustomer, PASSWORD, verificationTokenFor } from '../support/customers.ts';
import { newAddress } from '../support/mail.ts';
import { commandsSent } from '../support/command-tally.ts';
import { tightestLeft } from '../support/rate-limits.ts';

afterEach(() => resetClock());

describe('PUT /my-account (customer login)', () => {
  it('signs a verified customer in with a token that opens GET /my-account, as Bearer and as the cookie', async () => {
    const { id, email } = await newCustomer();
    const response = await login(email, PASSWORD, await verificationTokenFor(email));

    expect(response.status).toBe(200);
    expect(SingleAnswer(CustomerSignIn).parse(response.body)).toMatchObject({
      count: 1,
      data: { tokenType: 'Bearer', expiresIn: 3600, customer: { id, emailAddress: email, emailVerified: true } },
    });
    const { token } = response.body.data;
    expect(response.body.data.expiresAt).toBe(expOf(token));
    expect(response.body.data.expiresAt - claimsOf(token).iat).toBe(response.body.data.expiresIn);
    expect(response.cookies).toEqual([
      expect.stringMatching(new RegExp(`^${AUTH_COOKIE}=${token};.*HttpOnly; Secure`)),
    ]);

    const byBearer = await call('GET', '/api/v2/my-account', { token });
    expect(byBearer.status).toBe(200);
    expect(byBearer.body.data.id).toBe(id);
    const byCookie = await call('GET', '/api/v2/my-account', { cookies: [`${AUTH_COOKIE}=${token}`] });
    expect(byCookie.status).toBe(200);
    expect(byCookie.body.data.id).toBe(id);
  });

  it('costs the attempt reservations (account failures read in this window and the one before, account-and-network and network reserved; both given back on success) and one Query for the record, beside the one Cognito call', async () => {
    const { email } = await newCustomer();
    expect((await login(email, PASSWORD, await verificationTokenFor(email))).status).toBe(200);
    const sent = await commandsSent(async () => expect((await login(email, PASSWORD)).status).toBe(200));
    expect(sent.slice(0, 3).sort()).toEqual(['BatchGetItemCommand', 'UpdateItemCommand', 'UpdateItemCommand']);
    expect(sent[3]).toBe('QueryCommand');
    expect(sent.slice(4).sort()).toEqual(['DeleteItemCommand', 'UpdateItemCommand']);
  });

  it('matches the login without regard to case or surrounding spaces', async () => {
    const { email } = await newCustomer();
    const response = await login(`  ${email.toUpperCase()} `, PASSWORD, await verificationTokenFor(email));
    expect(response.status).toBe(200);
  });

  it('answers the same 401 for a wrong password and for an unknown login', async () => {
    const { email } = await newCustomer();
    const wrongPassword = await login(email, 'not-the-password-123');
    const unknownLogin = await login(newAddress('nobody'), PASSWORD);

    expect(wrongPassword.status).toBe(401);
    expect(unknownLogin.status).toBe(401);
    expect(wrongPassword.body).toEqual(unknownLogin.body);
    expect(wrongPassword.body.detail).toBe('The login or password is wrong.');
    expect(wrongPassword.cookies).toEqual([]);
  });

  it('refuses an account whose address is not verified with 403 email_not_verified', async () => {
    const { email } = await newCustomer();
    const response = await login(email, PASSWORD);
    expect(response.status).toBe(403);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(response.body.error).toBe('email_not_verified');
    expect(response.body.detail).toMatch(/link mailed to you when the account was created/);
    expect(response.cookies).toEqual([]);
  });

  it('verifies the address with the mailed token, after which the login needs no token', async () => {
    const { email } = await newCustomer();
    const token = await verificationTokenFor(email);
    expect((await login(email, PASSWORD, token)).body.data.customer.emailVerified).toBe(true);
    expect((await login(email, PASSWORD)).status).toBe(200);
  });

  it('accepts a verification token only once', async () => {
    const { email } = await newCustomer();
    const token = await verificationTokenFor(email);
    expect((await login(email, PASSWORD, token)).status).toBe(200);
    const again = await login(email, PASSWORD, token);
    expect(again.status).toBe(400);
    expect(again.body.errors).toEqual([{ path: 'body.emailVerificationToken', message: expect.any(String) }]);
  });

  it('refuses a verification token older than 48 hours and leaves the account unverified', async () => {
    const { email } = await newCustomer();
    const token = await verificationTokenFor(email);
    advanceClock(48 * 60 * 60 * 1000 + 1000);
    const late = await login(email, PASSWORD, token);
    expect(late.status).toBe(400);
    expect(late.body.errors[0].path).toBe('body.emailVerificationToken');
    expect((await login(email, PASSWORD)).body.error).toBe('email_not_verified');
  });

  it("refuses another customer's verification token and verifies nobody with it", async () => {
    const first = await newCustomer();
    const second = await newCustomer();
    const response = await login(first.email, PASSWORD, await verificationTokenFor(second.email));
    expect(response.status).toBe(400);
    expect((await login(first.email, PASSWORD)).body.error).toBe('email_not_verified');
    // The token was not spent: its owner can still use it.
    expect((await login(second.email, PASSWORD, await verificationTokenFor(second.email))).status).toBe(200);
  });

  it('does not look at a verification token when the password is wrong', async () => {
    const { email } = await newCustomer();
    const token = await verificationTokenFor(email);
    expect((await login(email, 'not-the-password-123', token)).status).toBe(401);
    expect((await login(email, PASSWORD, token)).status).toBe(200);
  });

  it('allows 5 failed attempts per login from one network, then answers 429 with Retry-After there, even for the right password; another network signs in', async () => {
    const { email } = await newCustomer();
    const network = '198.51.100.77';
    const left: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      const failed = await login(email, 'not-the-password-123', undefined, network);
      expect(failed.status).toBe(401);
      left.push(tightestLeft(failed));
    }
    // The client sees the refusal coming (RateLimit headers).
    expect(left).toEqual([4, 3, 2, 1, 0]);
    const limited = await login(email.toUpperCase(), PASSWORD, await verificationTokenFor(email), network);
    expect(limited.status).toBe(429);
    expect(tightestLeft(limited)).toBe(0);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect((await login(email, PASSWORD, await verificationTokenFor(email), '198.51.100.78')).status).toBe(200);

    advanceClock((retryAfter + 1) * 1000);
    expect((await login(email, PASSWORD, undefined, network)).status).toBe(200);
  });

  it('limits unknown logins exactly like known ones', async () => {
    const nobody = newAddress('nobody');
    for (let attempt = 0; attempt < 5; attempt++)
      expect((await login(nobody, PASSWORD, undefined, '198.51.100.79')).status).toBe(401);
    expect((await login(nobody, PASSWORD, undefined, '198.51.100.79')).status).toBe(429);
  });

  it('40 wrong passwords sent at once for one customer check at most 5 of them with the identity provider', async () => {
    const { email } = await newCustomer();
    const statuses = (
      await Promise.all(
        Array.from({ length: 40 }, (_, i) => login(email, `parallel-${i}-wrong`, undefined, '198.51.100.80')),
      )
    ).map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(5);
    expect(new Set(statuses)).toEqual(new Set([401, 429]));
  });

  it.each([
    ['a missing password', { login: 'someone@test.local' }, 'body.password'],
    ['an unknown field', { login: 'someone@test.local', password: PASSWORD, remember: true }, 'body.remember'],
    ['a login over 254 characters', { login: `${'x'.repeat(250)}@test.local`, password: PASSWORD }, 'body.login'],
  ])('refuses %s with 400 naming the field', async (_name, body, path) => {
    const response = await call('PUT', '/api/v2/my-account', { body });
    expect(response.status).toBe(400);
    expect(response.body.errors.map((error: { path: string }) => error.path)).toContain(path);
  });
});
