import { describe, expect, it } from 'vitest';
import { findCustomerByEmail } from '#shared/identity/data/customers';
import { CustomerResource } from '#shared/identity/domain/customer';
import { SingleAnswer } from '#shared/http/answers';
import { EMAIL_LOOKUPS } from '#shared/identity/use-cases/update-account';
import { call } from '../support/api.ts';
import { login, PASSWORD, signedInCustomer, verificationTokenFor } from '../support/customers.ts';
import { adminToken, customerToken } from '../support/tokens.ts';
import { mailTo, newAddress } from '../support/mail.ts';
import { tightestLeft } from '../support/rate-limits.ts';

const getAccount = (token: string) => call('GET', '/api/v2/my-account', { token });
const patchAccount = (token: string, body: unknown) => call('PATCH', '/api/v2/my-account', { token, body });

describe('GET /my-account', () => {
  it("answers the caller's own record only, without its Cognito link or table keys", async () => {
    const first = await signedInCustomer();
    const second = await signedInCustomer();

    const mine = await getAccount(first.token);
    expect(mine.status).toBe(200);
    const { data } = SingleAnswer(CustomerResource).parse(mine.body);
    expect(data).toMatchObject({ id: first.id, emailAddress: first.email, emailVerified: true });
    expect(Object.keys(data).sort()).toEqual(Object.keys(CustomerResource.shape).sort());
    expect(mine.raw).not.toMatch(/cognito|GSI|"PK"|"SK"/i);
    expect((await getAccount(second.token)).body.data.id).toBe(second.id);
  });

  it("answers 401 when the token's account does not exist", async () => {
    const response = await getAccount(await customerToken(987_654_321));
    expect(response.status).toBe(401);
  });

  it("answers 401 to an administrator's token on GET and PATCH", async () => {
    const token = await adminToken();
    expect((await getAccount(token)).status).toBe(401);
    expect((await patchAccount(token, { name: 'x' })).status).toBe(401);
  });
});

describe('PATCH /my-account', () => {
  it('changes the given fields, keeps the others and answers the record', async () => {
    const customer = await signedInCustomer();
    const response = await patchAccount(customer.token, {
      accountNumber: 'ACC-17',
      primary: '1 High Street\nSmalltown',
      useInternationalBillingAddress: true,
    });
    expect(response.status).toBe(200);
    const { data } = SingleAnswer(CustomerResource).parse(response.body);
    expect(data).toMatchObject({
      id: customer.id,
      emailAddress: customer.email,
      accountNumber: 'ACC-17',
      primary: '1 High Street\nSmalltown',
      billing: null,
      useInternationalShippingAddress: false,
      useInternationalBillingAddress: true,
      pendingEmailAddress: null,
    });
    expect(data.updated >= data.created).toBe(true);
    expect((await getAccount(customer.token)).body.data).toEqual(data);

    const cleared = await patchAccount(customer.token, { accountNumber: null });
    expect(cleared.body.data).toMatchObject({ accountNumber: null, primary: '1 High Street\nSmalltown' });
  });

  it.each([
    ['an unknown field', { nickname: 'Ace' }, 'body.nickname'],
    ["the name, which is not the update body's", { name: 'New Name' }, 'body.name'],
    ['a string for a boolean', { useInternationalShippingAddress: 'yes' }, 'body.useInternationalShippingAddress'],
    ['a number for a string', { accountNumber: 17 }, 'body.accountNumber'],
    ['a primary address over 500 characters', { primary: 'x'.repeat(501) }, 'body.primary'],
    ['an address that is not one', { emailAddress: 'nowhere' }, 'body.emailAddress'],
    ['an empty body', {}, 'body'],
  ])('refuses %s with 400 naming the field, and changes nothing', async (_name, body, path) => {
    const customer = await signedInCustomer();
    const before = (await getAccount(customer.token)).body.data;
    const response = await patchAccount(customer.token, body);
    expect(response.status).toBe(400);
    expect(response.body.errors.map((error: { path: string }) => error.path)).toContain(path);
    expect((await getAccount(customer.token)).body.data).toEqual(before);
  });

  it('keeps a new address pending and mails its token there; the login switches when the customer logs in with it', async () => {
    const customer = await signedInCustomer();
    const next = newAddress('moved');

    const patched = await patchAccount(customer.token, { emailAddress: next.toUpperCase() });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      emailAddress: customer.email,
      pendingEmailAddress: next,
      emailVerified: true,
    });
    expect(await mailTo(next)).toHaveLength(1);
    // Until the token is used, the old address is the login and the new one is nobody's.
    expect((await login(next, PASSWORD)).status).toBe(401);

    const switched = await login(customer.email, PASSWORD, await verificationTokenFor(next));
    expect(switched.status).toBe(200);
    expect(switched.body.data.customer).toMatchObject({
      id: customer.id,
      emailAddress: next,
      pendingEmailAddress: null,
      emailVerified: true,
    });

    const withNew = await login(next, PASSWORD);
    expect(withNew.status).toBe(200);
    expect(withNew.body.data.customer.id).toBe(customer.id);
    expect((await login(customer.email, PASSWORD)).status).toBe(401);
    expect((await findCustomerByEmail(next))?.id).toBe(customer.id);
    expect(await findCustomerByEmail(customer.email)).toBeUndefined();
  });

  it('frees the old address once the login has moved, so a new account can take it', async () => {
    const customer = await signedInCustomer();
    const next = newAddress('moved');
    await patchAccount(customer.token, { emailAddress: next });
    expect((await login(customer.email, PASSWORD, await verificationTokenFor(next))).status).toBe(200);

    const admin = await adminToken(['customers:manage']);
    const reused = await call('POST', '/api/v2/my-account', {
      token: admin,
      body: { email: customer.email, password: PASSWORD, name: 'Successor' },
    });
    expect(reused.status).toBe(201);
  });

  it("answers 409 email_taken for another customer's login, and keeps nothing pending", async () => {
    const customer = await signedInCustomer();
    const other = await signedInCustomer();
    const response = await patchAccount(customer.token, { emailAddress: other.email });
    expect(response.status).toBe(409);
    expect(response.body.reason).toBe('email_taken');
    expect((await getAccount(customer.token)).body.data.pendingEmailAddress).toBeNull();
  });

  it(`limits the address questions that can reveal another account (${EMAIL_LOOKUPS.perCustomer} per customer, ${EMAIL_LOOKUPS.perClient} per client network an hour) before looking the address up`, async () => {
    const probe = await signedInCustomer();
    const taken = await signedInCustomer();
    const client = '198.51.100.90';
    const ask = (token: string) =>
      call('PATCH', '/api/v2/my-account', { token, body: { emailAddress: taken.email }, sourceIp: client });
    const left: number[] = [];
    for (let i = 0; i < EMAIL_LOOKUPS.perCustomer; i++) {
      const asked = await ask(probe.token);
      expect(asked.status).toBe(409);
      left.push(tightestLeft(asked));
    }
    // The client sees the refusal coming (RateLimit headers).
    expect(left).toEqual(
      Array.from({ length: EMAIL_LOOKUPS.perCustomer }, (_, i) => EMAIL_LOOKUPS.perCustomer - i - 1),
    );
    const limited = await ask(probe.token);
    expect(limited.status).toBe(429);
    expect(tightestLeft(limited)).toBe(0);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Throwaway accounts on the same network share the network's allowance.
    const others = await Promise.all(Array.from({ length: 3 }, () => signedInCustomer()));
    const statuses: number[] = [];
    for (const other of others)
      for (let i = 0; i < EMAIL_LOOKUPS.perCustomer; i++) statuses.push((await ask(other.token)).status);
    expect(statuses.filter((status) => status === 409)).toHaveLength(
      EMAIL_LOOKUPS.perClient - EMAIL_LOOKUPS.perCustomer,
    );
    expect(statuses.at(-1)).toBe(429);
    // A plain field change asks nothing about other accounts: not limited.
    expect(
      (
        await call('PATCH', '/api/v2/my-account', {
          token: probe.token,
          body: { accountNumber: 'STILL-ME' },
          sourceIp: client,
        })
      ).status,
    ).toBe(200);
  });

  it('withdraws a pending change when the current address is given again, and its token then does nothing', async () => {
    const customer = await signedInCustomer();
    const next = newAddress('moved');
    await patchAccount(customer.token, { emailAddress: next });
    const back = await patchAccount(customer.token, { emailAddress: customer.email });
    expect(back.body.data.pendingEmailAddress).toBeNull();

    const late = await login(customer.email, PASSWORD, await verificationTokenFor(next));
    expect(late.status).toBe(400);
    expect((await getAccount(customer.token)).body.data.emailAddress).toBe(customer.email);
  });
});
