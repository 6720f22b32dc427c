import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmAsBrowser, ownStandIn, stripeJsCard } from '../support/stripe.ts';

/**
 * The stand-in's confirm as Stripe.js sends it (a card typed into its card field: `payment_method_data`) and
 * 3-D Secure: a test card that needs authentication leaves the intent `requires_action` with Stripe's
 * `next_action`, and the test page completes or fails it, with the events Stripe sends.
 */
let own: Awaited<ReturnType<typeof ownStandIn>>;

beforeAll(async () => {
  own = await ownStandIn();
});
afterAll(() => own.close());

const newIntent = () =>
  own.stripe.paymentIntents.create({
    amount: 2500,
    currency: 'eur',
    metadata: { orderId: '41' },
    automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
  });
const confirm = (
  intent: Stripe.PaymentIntent,
  paymentMethod: string | Record<string, string>,
  extra: Record<string, string | undefined> = {},
) =>
  confirmAsBrowser(
    own.standIn.keys,
    { id: intent.id, clientSecret: intent.client_secret! },
    paymentMethod,
    own.base,
    extra,
  );
const typesOf = async (intent: { id: string }) => (await own.eventsOf(intent.id)).map((event) => event.type);
/** The buyer's button on the 3-D Secure test page. */
const answerAuthentication = (url: string, outcome: 'complete' | 'fail') =>
  fetch(`${url}/${outcome}`, { method: 'POST', redirect: 'manual' });

describe('confirm with payment_method_data, as Stripe.js sends a typed card', () => {
  it('pays with 4242 4242 4242 4242 and its billing details, on a new card PaymentMethod', async () => {
    const intent = await newIntent();
    const billing = { '[name]': 'Casey Demo', '[email]': 'casey@demo.test', '[address][postal_code]': '1011 AB' };
    // With Radar's hCaptcha on, Stripe.js sends its token too.
    const paid = await confirm(intent, stripeJsCard('4242 4242 4242 4242', billing), {
      'radar_options[hcaptcha_token]': 'P1_test',
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toMatchObject({ status: 'succeeded', amount_received: 2500 });
    const { payment_method: id } = await own.stripe.paymentIntents.retrieve(intent.id);
    expect(id).toMatch(/^pm_/);
    expect(await own.stripe.paymentMethods.retrieve(id as string)).toMatchObject({
      type: 'card',
      card: { brand: 'visa', last4: '4242' },
      billing_details: { name: 'Casey Demo', email: 'casey@demo.test', address: { postal_code: '1011 AB' } },
    });
    expect(await typesOf(intent)).toEqual(['payment_intent.succeeded']);
  });

  it("declines 4000 0000 0000 0002 with Stripe's card_error, and a mistyped number as incorrect_number", async () => {
    const intent = await newIntent();
    const declined = await confirm(intent, stripeJsCard('4000000000000002'));
    expect(declined.status).toBe(402);
    expect(declined.body.error).toMatchObject({
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'generic_decline',
    });
    const mistyped = await confirm(intent, stripeJsCard('4242424242424241'));
    expect(mistyped.status).toBe(402);
    expect(mistyped.body.error).toMatchObject({ type: 'card_error', code: 'incorrect_number' });
    const live = await confirm(intent, stripeJsCard('4111111111111111'));
    expect(live.body.error).toMatchObject({ code: 'card_declined', decline_code: 'test_mode_live_card' });
    expect((await own.stripe.paymentIntents.retrieve(intent.id)).status).toBe('requires_payment_method');
  });

  it('pays with a test token (payment_method_data[card][token]=tok_visa)', async () => {
    const intent = await newIntent();
    const paid = await confirm(intent, {
      'payment_method_data[type]': 'card',
      'payment_method_data[card][token]': 'tok_visa',
    });
    expect(paid.body.status).toBe('succeeded');
  });

  it('refuses an unknown parameter as Stripe does, one of Stripe’s it does not honour by name, and both ways of paying at once', async () => {
    const intent = await newIntent();
    const unknown = await confirm(intent, {
      ...stripeJsCard('4242424242424242'),
      'payment_method_data[card][colour]': 'red',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'parameter_unknown', param: 'payment_method_data[card][colour]' });
    const topLevel = await confirm(intent, 'pm_card_visa', { save_card: 'true' });
    expect(topLevel.body.error).toMatchObject({ code: 'parameter_unknown', param: 'save_card' });
    const notHonoured = await confirm(intent, 'pm_card_visa', { setup_future_usage: 'off_session' });
    expect(notHonoured.status).toBe(400);
    expect(notHonoured.body.error).toMatchObject({ param: 'setup_future_usage' });
    const both = await confirm(intent, { payment_method: 'pm_card_visa', ...stripeJsCard('4242424242424242') });
    expect(both.status).toBe(400);
    const otherType = await confirm(intent, { 'payment_method_data[type]': 'sepa_debit' });
    expect(otherType.status).toBe(400);
    const badUrl = await confirm(intent, 'pm_card_threeDSecure2Required', { return_url: 'not a url' });
    expect(badUrl.body.error).toMatchObject({ param: 'return_url' });
    const badFlag = await confirm(intent, 'pm_card_visa', { use_stripe_sdk: 'yes' });
    expect(badFlag.body.error).toMatchObject({ code: 'parameter_invalid_boolean', param: 'use_stripe_sdk' });
    expect((await own.stripe.paymentIntents.retrieve(intent.id)).status).toBe('requires_payment_method');
    expect(await typesOf(intent)).toEqual([]);
  });
});

describe('3-D Secure', () => {
  it('leaves the intent requires_action with use_stripe_sdk; completing the test page pays it', async () => {
    const intent = await newIntent();
    const confirmed = await confirm(intent, 'pm_card_threeDSecure2Required');
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({
      status: 'requires_action',
      next_action: { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } },
    });
    expect(await typesOf(intent)).toEqual(['payment_intent.requires_action']);
    const page = confirmed.body.next_action.use_stripe_sdk.stripe_js as string;
    const html = await (await fetch(page)).text();
    expect(html).toContain('action="');
    const completed = await answerAuthentication(page, 'complete');
    expect(completed.status).toBe(200);
    const paid = await own.stripe.paymentIntents.retrieve(intent.id);
    expect(paid).toMatchObject({ status: 'succeeded', next_action: null, amount_received: 2500 });
    expect(paid.latest_charge).toMatch(/^ch_/);
    expect(await typesOf(intent)).toEqual(['payment_intent.requires_action', 'payment_intent.succeeded']);
    // The page answers once.
    expect((await answerAuthentication(page, 'fail')).status).toBe(400);
    expect((await own.stripe.paymentIntents.retrieve(intent.id)).status).toBe('succeeded');
  });

  it('redirects to the return_url; failing the test page leaves requires_payment_method and payment_failed', async () => {
    const intent = await newIntent();
    const returnUrl = 'http://localhost:5174/order?id=41';
    const confirmed = await confirm(intent, stripeJsCard('4000002760003184'), {
      use_stripe_sdk: undefined,
      return_url: returnUrl,
    });
    expect(confirmed.body).toMatchObject({
      status: 'requires_action',
      next_action: { type: 'redirect_to_url', redirect_to_url: { return_url: returnUrl } },
    });
    const failed = await answerAuthentication(confirmed.body.next_action.redirect_to_url.url, 'fail');
    expect(failed.status).toBe(303);
    const back = new URL(failed.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe('http://localhost:5174/order');
    expect(Object.fromEntries(back.searchParams)).toEqual({
      id: '41',
      payment_intent: intent.id,
      payment_intent_client_secret: intent.client_secret,
      redirect_status: 'failed',
    });
    const unpaid = await own.stripe.paymentIntents.retrieve(intent.id);
    expect(unpaid).toMatchObject({
      status: 'requires_payment_method',
      payment_method: null,
      next_action: null,
      last_payment_error: { code: 'payment_intent_authentication_failure' },
    });
    expect(await typesOf(intent)).toEqual(['payment_intent.requires_action', 'payment_intent.payment_failed']);
    // Another card then pays it.
    expect((await confirm(intent, 'pm_card_visa')).body.status).toBe('succeeded');
  });

  it('a new confirm or a cancel ends the authentication under way: its page can no longer pay', async () => {
    const intent = await newIntent();
    const first = await confirm(intent, 'pm_card_authenticationRequired');
    const firstPage = first.body.next_action.use_stripe_sdk.stripe_js as string;
    const second = await confirm(intent, 'pm_card_threeDSecure2Required');
    expect((await answerAuthentication(firstPage, 'complete')).status).toBe(400);
    await own.stripe.paymentIntents.cancel(intent.id);
    expect((await answerAuthentication(second.body.next_action.use_stripe_sdk.stripe_js, 'complete')).status).toBe(400);
    expect((await own.stripe.paymentIntents.retrieve(intent.id)).status).toBe('canceled');
    expect((await fetch(`${own.base.origin}/3d_secure_2_test/src_unknown/complete`, { method: 'POST' })).status).toBe(
      404,
    );
  });

  it('error_on_requires_action: declines with authentication_required instead of asking for it', async () => {
    const intent = await newIntent();
    await expect(
      own.stripe.paymentIntents.confirm(intent.id, {
        payment_method: 'pm_card_threeDSecure2Required',
        error_on_requires_action: true,
      }),
    ).rejects.toMatchObject({ type: 'StripeCardError', code: 'authentication_required' });
    expect((await own.stripe.paymentIntents.retrieve(intent.id)).status).toBe('requires_payment_method');
    expect(await typesOf(intent)).toEqual(['payment_intent.payment_failed']);
  });
});
