import { randomInt } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ses } from '#shared/services/email';
import { advanceClock, recordFloors, resetClock } from '#shared/clock';
import { findCustomerByEmail } from '#shared/identity/data/customers';
import { SIGN_UP_FLOOR_MS } from '#shared/identity/use-cases/sign-up';
import { call, type CallResult } from '../support/api.ts';
import { cognitoHasUser } from '../support/cognito.ts';
import { login, newCustomer, verificationTokenFor } from '../support/customers.ts';
import { PORTAL_URL } from '../support/env.ts';
import { mailTo, newAddress } from '../support/mail.ts';
import { clearFaults, failCalls, failures } from '../support/faults.ts';

const SIGN_UP_PASSWORD = 'Sign-up-password-42';
/** A client network of its own per test unless one is named: the sign-up limit counts per network. */
const someNetwork = () => `198.18.${randomInt(0, 256)}.${randomInt(1, 255)}`;

const signUp = (body: Record<string, unknown>, sourceIp = someNetwork()): Promise<CallResult> =>
  call('POST', '/api/v2/my-account/sign-up', { body, sourceIp });
const validBody = (email = newAddress()) => ({ email, password: SIGN_UP_PASSWORD, name: 'Sam Signup' });

afterEach(async () => {
  resetClock();
  await clearFaults();
});

describe('POST /my-account/sign-up (the public sign-up)', () => {
  it('opens an unverified account and mails the verification link; signing in with it verifies, then plain sign-in works', async () => {
    const email = newAddress();
    const response = await signUp(validBody(email));
    expect(response.status, response.raw).toBe(202);
    expect(response.body).toEqual({ count: 1, data: { status: 'verification_sent' } });
    expect(await cognitoHasUser(email)).toBe(true);
    expect((await findCustomerByEmail(email))?.emailVerified).toBe(false);

    const [mail, ...more] = await mailTo(email);
    expect(more).toEqual([]);
    expect(mail!.from).toBe(process.env.EMAIL_FROM);
    expect(mail!.body.text).toContain(`${PORTAL_URL}/verify-email#token=`);

    expect((await login(email, SIGN_UP_PASSWORD)).status).toBe(403);
    const verified = await login(email, SIGN_UP_PASSWORD, await verificationTokenFor(email));
    expect(verified.status, verified.raw).toBe(200);
    expect(verified.body.data.customer).toMatchObject({ emailAddress: email, name: 'Sam Signup', emailVerified: true });
    const again = await login(email, SIGN_UP_PASSWORD);
    expect(again.status).toBe(200);
    const account = await call('GET', '/api/v2/my-account', { token: again.body.data.token });
    expect(account.body.data.emailAddress).toBe(email);
  });

  it('answers a known address byte for byte as a new one, changes nothing and tells its owner', async () => {
    const { id, email } = await newCustomer();
    const before = await findCustomerByEmail(email);
    const known = await signUp({ email: email.toUpperCase(), password: SIGN_UP_PASSWORD, name: 'Someone Else' });
    const unknown = await signUp(validBody());
    expect(known.status).toBe(202);
    expect(known.raw).toBe(unknown.raw);
    expect(known.headers['content-type']).toBe(unknown.headers['content-type']);

    expect(await findCustomerByEmail(email)).toEqual(before);
    expect(before?.id).toBe(id);
    const mails = await mailTo(email);
    // The account's own verification mail, then the notice: no new link.
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toBe('Someone tried to sign up with your address');
    expect(mails[1]!.body.text).toContain(PORTAL_URL);
    expect(mails[1]!.body.text).not.toContain('#token=');
  });

  it('answers a new and a known address alike while SES is down: the account stays, its mail is logged', async () => {
    const { email: known } = await newCustomer();
    const fresh = newAddress();
    failCalls(ses, { commands: ['SendEmailCommand'], error: failures.sesInternal });
    const [forKnown, forFresh] = [await signUp(validBody(known)), await signUp(validBody(fresh))];
    expect(forKnown.status).toBe(202);
    expect(forKnown.raw).toBe(forFresh.raw);
    expect((await findCustomerByEmail(fresh))?.emailVerified).toBe(false);
  });

  it('holds a new and a known address to the same answer floor', async () => {
    const { email } = await newCustomer();
    const floors = recordFloors();
    const before = floors.length;
    await signUp(validBody(email));
    await signUp(validBody());
    expect(floors.slice(before)).toEqual([SIGN_UP_FLOOR_MS, SIGN_UP_FLOOR_MS]);
  });

  it('opens one account when two sign-ups for a new address race, and answers both alike', async () => {
    const email = newAddress();
    const [first, second] = await Promise.all([signUp(validBody(email)), signUp(validBody(email))]);
    expect(first.raw).toBe(second.raw);
    expect(first.status).toBe(202);
    const mails = await mailTo(email);
    expect(mails.filter((mail) => mail.body.text?.includes('/verify-email#token='))).toHaveLength(1);
    expect(mails).toHaveLength(2);
  });

  it.each([
    ['a known', true],
    ['an unknown', false],
  ])(
    'refuses the 4th sign-up for %s address in 24 hours with 429 and Retry-After, whatever the network',
    async (_n, known) => {
      const email = known ? (await newCustomer()).email : newAddress();
      for (let i = 0; i < 3; i++) expect((await signUp(validBody(email))).status).toBe(202);
      const fourth = await signUp(validBody(email.toUpperCase()));
      expect(fourth.status).toBe(429);
      expect(fourth.headers['content-type']).toContain('application/problem+json');
      expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(fourth.headers['retry-after'])).toBeLessThanOrEqual(24 * 3600);
      // 1 verification or account mail, then what the three sign-ups sent: an account (new) or notices (known).
      expect(await mailTo(email)).toHaveLength(known ? 4 : 3);
      advanceClock((24 * 3600 + 1) * 1000);
      expect((await signUp(validBody(email))).status).toBe(202);
    },
  );

  it('refuses an 11th sign-up from one network in an hour with 429, whatever the addresses', async () => {
    const network = someNetwork();
    for (let i = 0; i < 10; i++) expect((await signUp(validBody(), network)).status).toBe(202);
    const email = newAddress();
    const refused = await signUp(validBody(email), network);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['ratelimit-policy']).toContain('sign_up_client');
    expect(await cognitoHasUser(email)).toBe(false);
    expect(await mailTo(email)).toEqual([]);
    // Another network is not held up.
    expect((await signUp(validBody(email))).status).toBe(202);
  });

  it.each([
    ['a password under 12 characters', { password: 'Sh0rt-pw' }, 'body.password'],
    ['a password over 256 characters', { password: `Aa1-${'p'.repeat(253)}` }, 'body.password'],
    ['a password without an upper-case letter', { password: 'no-upper-case-42' }, 'body.password'],
    ['a password without a digit', { password: 'No-Digits-At-All' }, 'body.password'],
    ['a password without a symbol', { password: 'NoSymbolsHere42' }, 'body.password'],
    ['a password ending in a space', { password: 'Trailing-Space-42 ' }, 'body.password'],
    ['an empty name', { name: '   ' }, 'body.name'],
    ['a name over 200 characters', { name: 'n'.repeat(201) }, 'body.name'],
    ['an address that is not one', { email: 'not-an-address' }, 'body.email'],
    ['an unknown field', { group: 'customers' }, 'body.group'],
    ['a missing password', { password: undefined }, 'body.password'],
  ])('refuses %s with 400 naming the field, and creates nothing', async (_n, change, path) => {
    const email = newAddress();
    const response = await signUp({ ...validBody(email), ...change });
    expect(response.status).toBe(400);
    expect(response.body.errors.map((error: { path: string }) => error.path)).toContain(path);
    expect(await cognitoHasUser(email)).toBe(false);
    expect(await mailTo(email)).toEqual([]);
  });

  it('refuses a weak password for a known address exactly as for a new one', async () => {
    const { email } = await newCustomer();
    const known = await signUp({ ...validBody(email), password: 'all-lower-case-42' });
    const unknown = await signUp({ ...validBody(), password: 'all-lower-case-42' });
    expect(known.status).toBe(400);
    expect(known.body.errors).toEqual(unknown.body.errors);
    expect(await mailTo(email)).toHaveLength(1);
  });
});
