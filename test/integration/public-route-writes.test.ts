import bcrypt from 'bcryptjs';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_COOKIE } from '#shared/http/cookies';
import { routeKey, routes } from '#shared/routes';
import { leadingKeyAllowed } from '../support/iam-patterns.ts';
import { call } from '../support/api.ts';
import { createTestIdentityUser, signInAtHostedUi } from '../support/cognito.ts';
import { login as customerLogin, newCustomer, PASSWORD, verificationTokenFor } from '../support/customers.ts';
import { ALLOWED_ORIGIN } from '../support/env.ts';
import { newAddress, newestLinkToken } from '../support/mail.ts';
import { forgotPassword, legacyLogin, makeAdmin, resetPassword, useSiteAuthMethod } from '../support/staff.ts';
import { commandTally } from '../support/command-tally.ts';
import { confirmAsBrowser, standInKeys, stripeSdk, WEBHOOK_PATH } from '../support/stripe.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { customerToken } from '../support/tokens.ts';
import { issueBehindWebhook } from '../support/paid-order-issuing.ts';

/**
 * Each public row may write only the partitions its `uses.tableWrites`
 * names (an IAM condition on dynamodb:LeadingKeys once deployed, infra/route-function.ts).
 * DynamoDB Local does not enforce IAM, so this file walks every public route's success and
 * refusal paths and checks each partition key it wrote against the row's patterns: a write
 * the declaration forgets fails here, not as an AccessDenied at a stage's login.
 */
const written = new Map<string, Set<string>>();
const partitionTally = commandTally<Set<string>>('publicWriteRecorder', (partitions, commandName, input: any, send) => {
  // The document client's commands reach this stack as the low-level ones, their keys marshalled ({S: ...}).
  const add = (key: Record<string, any> | undefined) =>
    key?.PK !== undefined && partitions.add(String(key.PK.S ?? key.PK));
  const command = commandName.replace(/(Item)?Command$/, '');
  if (command === 'Put') add(input.Item);
  if (command === 'Update' || command === 'Delete') add(input.Key);
  if (command === 'TransactWrite' || command === 'TransactWriteItems')
    for (const item of input.TransactItems)
      add(item.Put?.Item ?? item.Update?.Key ?? item.Delete?.Key ?? item.ConditionCheck?.Key);
  if (command === 'BatchWrite')
    for (const requests of Object.values(input.RequestItems) as any[])
      for (const r of requests) add(r.PutRequest?.Item ?? r.DeleteRequest?.Key);
  return send();
});

/** Records the partitions `work` writes under the route key. */
async function as<T>(route: string, work: () => Promise<T>): Promise<T> {
  const { result, tally } = await partitionTally(written.get(route) ?? new Set(), work);
  written.set(route, tally);
  return result;
}

afterAll(() => useSiteAuthMethod('legacy'));

// In the order written, not shuffled: the last test judges what the ones before it recorded.
describe('what the public routes write', { shuffle: false }, () => {
  beforeAll(() => useSiteAuthMethod('legacy'));

  it('legacy login, forgot and reset password: success, wrong password, lock-out, an old bcrypt hash upgraded', async () => {
    const { email } = await makeAdmin({ passwordHash: await bcrypt.hash('old-password-123', 4) });
    const legacy = (password: string) => legacyLogin(email, password, '198.51.100.201');
    await as('POST /auth/legacy/login', async () => {
      expect((await legacy('old-password-123')).status).toBe(200);
      for (let n = 0; n < 6; n++) await legacy('wrong-password-123');
      expect((await legacyLogin(newAddress('nobody'), 'x-password-123')).status).toBe(401);
    });
    await as('POST /auth/legacy/forgot-password', async () => {
      expect((await forgotPassword(email)).status).toBe(200);
      await forgotPassword(newAddress('nobody'));
    });
    const token = await newestLinkToken(email, 'reset-password');
    await as('POST /auth/legacy/reset-password', async () => {
      expect((await resetPassword('not-a-token', 'a-new-password-456')).status).toBe(400);
      expect((await resetPassword(token, 'a-new-password-456')).status).toBe(200);
    });
  });

  it('customer login: unverified, verified with the mailed token, wrong password, an address change confirmed at sign-in', async () => {
    const { id, email } = await newCustomer();
    const signIn = (password: string, token?: string) => customerLogin(email, password, token, '198.51.100.202');
    await as('PUT /my-account', async () => {
      expect((await signIn(PASSWORD)).status).toBe(403);
      expect((await signIn(PASSWORD, await verificationTokenFor(email))).status).toBe(200);
      expect((await signIn('wrong-password-123')).status).toBe(401);
    });
    const signedIn = await signIn(PASSWORD);
    const next = newAddress();
    expect(
      (await call('PATCH', '/api/v2/my-account', { token: signedIn.body.data.token, body: { emailAddress: next } }))
        .status,
    ).toBe(200);
    await as('PUT /my-account', async () => {
      expect((await customerLogin(email, PASSWORD, await verificationTokenFor(next), '198.51.100.202')).status).toBe(
        200,
      );
    });
    expect(id).toBeGreaterThan(0);
  });

  it('customer sign-up: a new address, a known one, a weak password, the per-address limit', async () => {
    const { email: known } = await newCustomer();
    const fresh = newAddress();
    const signUp = (email: string, password = 'Sign-up-password-42') =>
      call('POST', '/api/v2/my-account/sign-up', { body: { email, password, name: 'Writes Test' } });
    await as('POST /my-account/sign-up', async () => {
      expect((await signUp(fresh)).status).toBe(202);
      expect((await signUp(known)).status).toBe(202);
      expect((await signUp(newAddress(), 'weak-password')).status).toBe(400);
      for (let n = 0; n < 3; n++) await signUp(known);
    });
  });

  it('identity-provider login, vendor login and callback: a first sign-in links the account', async () => {
    useSiteAuthMethod('idp');
    try {
      const { email } = await makeAdmin({ permissions: ['tickets:read'], vendorUser: 1 });
      await createTestIdentityUser(email, 'Hosted-UI-password-1');
      const start = (path: string) => call('POST', path, { body: { redirect_uri: `${ALLOWED_ORIGIN}/` } });
      const started = await as('POST /auth/login', () => start('/api/v2/auth/login'));
      await as('POST /auth/vendor/login', () => start('/api/v2/auth/vendor/login'));
      const browser = started.cookies.find((value) => value.startsWith(`${LOGIN_COOKIE}=`))!;
      const { code, state } = await signInAtHostedUi(started.body.data.auth_url, email, 'Hosted-UI-password-1');
      await as('GET /auth/callback', async () => {
        const answer = await call('GET', `/api/v2/auth/callback?${new URLSearchParams({ code, state })}`, {
          cookies: [browser.slice(0, browser.indexOf(';'))],
        });
        expect(answer.status).toBe(302);
        await call('GET', `/api/v2/auth/callback?${new URLSearchParams({ code: 'forged', state })}`, {
          cookies: [browser.slice(0, browser.indexOf(';'))],
        });
      });
    } finally {
      useSiteAuthMethod('legacy');
    }
  });

  it("Stripe's webhook: a signed event, an unsigned one", async () => {
    const { webhookSecret } = await standInKeys();
    const payload = JSON.stringify({
      id: 'evt_writes',
      object: 'event',
      type: 'payment_intent.succeeded',
      livemode: false,
      created: 1,
      data: { object: { id: 'pi_writes', object: 'payment_intent' } },
    });
    const signature = new Stripe('sk_test_signer_only').webhooks.generateTestHeaderString({
      payload,
      secret: webhookSecret,
    });
    await as('POST /payments/stripe/webhook', async () => {
      const headers = { 'content-type': 'application/json' };
      expect(
        (await call('POST', WEBHOOK_PATH, { body: payload, headers: { ...headers, 'stripe-signature': signature } }))
          .status,
      ).toBe(200);
      expect((await call('POST', WEBHOOK_PATH, { body: payload, headers })).status).toBe(400);
    });
  });

  it("Stripe's webhook: a checkout's payment recorded, and a late one's (the consumer behind it issues the first, refunds the late)", async () => {
    const keys = await standInKeys();
    const event = await seedEvent({
      published: true,
      questions: [],
      ticketTypes: [{ name: 'Runner', price: 9, total: 1 }],
    });
    const typeId = event.ticketTypes[0]!.id;
    /** A checkout of one ticket, confirmed with a good card; its events go nowhere (this test posts them). */
    const checkedOut = async () => {
      const customer = await newCustomer();
      const token = await customerToken(customer.id, { email: customer.email });
      const reservation = await call('POST', '/api/v2/my-account/reservations', {
        token,
        body: { eventId: event.id, lines: [{ typeId, quantity: 1 }] },
      });
      const body = { attendees: [{ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' }] };
      const { order, payment } = (
        await call('POST', `/api/v2/my-account/reservations/${reservation.body.data.id}/checkout`, { token, body })
      ).body.data;
      const intent = { id: payment.clientSecret.split('_secret_')[0], clientSecret: payment.clientSecret };
      await confirmAsBrowser(keys, intent, 'pm_card_visa');
      return { token, reservationId: reservation.body.data.id, intent, orderId: order.id as string };
    };
    const late = await checkedOut();
    await call('DELETE', `/api/v2/my-account/reservations/${late.reservationId}`, { token: late.token });
    const first = await checkedOut();
    const succeeded = async (intentId: string) => {
      const object = await stripeSdk(keys.secretKey).paymentIntents.retrieve(intentId);
      const payload = JSON.stringify({
        id: `evt_${intentId}`,
        object: 'event',
        type: 'payment_intent.succeeded',
        livemode: false,
        created: Math.floor(Date.now() / 1000),
        data: { object },
      });
      const signature = new Stripe('sk_test_signer_only').webhooks.generateTestHeaderString({
        payload,
        secret: keys.webhookSecret,
      });
      const headers = { 'content-type': 'application/json', 'stripe-signature': signature };
      expect((await call('POST', WEBHOOK_PATH, { body: payload, headers })).status).toBe(200);
    };
    await as('POST /payments/stripe/webhook', async () => {
      await succeeded(first.intent.id);
      await succeeded(late.intent.id);
    });
    // The consumer behind the webhook is a job, not a public row: its writes are not the webhook's.
    expect((await issueBehindWebhook(first.orderId)).status).toBe('active');
    expect((await issueBehindWebhook(late.orderId)).status).toBe('refunded');
    expect(
      (await call('GET', `/api/v2/my-account/reservations/${first.reservationId}`, { token: first.token })).body.data
        .status,
    ).toBe('paid');
  });

  it('wrote only partitions each public row declares', () => {
    const publicRows = routes.filter((row) => row.auth.kind === 'public');
    expect([...written.keys()].sort()).toEqual(publicRows.map(routeKey).sort());
    for (const row of publicRows) {
      const patterns = row.uses.tableWrites ?? [];
      const stray = [...(written.get(routeKey(row)) ?? [])].filter((pk) => !leadingKeyAllowed(pk, patterns));
      expect(stray, `${routeKey(row)} wrote outside ${JSON.stringify(patterns)}`).toEqual([]);
    }
  });
});
