import { describe, expect, it } from 'vitest';
import { getOrder } from '#shared/selling/data/orders';
import { checkedOut } from '../support/paid-checkout.ts';
import { confirmAsBrowser, standInControl, stripeJsCard, useStripeStandIn } from '../support/stripe.ts';
import { claimedThenIssued } from '../support/paid-order-issuing.ts';

/**
 * The checkout paid as a buyer pays it on a deployed stage: the card typed into Stripe.js's field
 * (`payment_method_data`), and a card whose bank asks for 3-D Secure. The order is paid by the webhook only once
 * the authentication is completed; the `payment_intent.requires_action` before it is acknowledged and changes
 * nothing; a failed authentication leaves the order awaiting payment, and another card pays it.
 */
const { keys, relay } = useStripeStandIn();

const statusOf = async (orderId: string) => (await getOrder(Number(orderId)))!.status;
const answersFor = (intentId: string) =>
  relay.answers
    .filter(({ event }) => (event.data.object as { id?: string }).id === intentId)
    .map(({ event, answer }) => [event.type, answer.status]);
const authenticate = async (page: string, outcome: 'complete' | 'fail') => {
  expect((await fetch(`${page}/${outcome}`, { method: 'POST' })).status).toBe(200);
  await standInControl(keys, 'POST', 'settle');
};

describe('a checkout paid with a typed card that needs 3-D Secure', () => {
  it('is paid once the buyer completes the authentication, not before', async () => {
    const { orderId, intent } = await checkedOut(keys, relay);
    const confirmed = await confirmAsBrowser(keys, intent, stripeJsCard('4000 0000 0000 3220', { '[name]': 'Ada' }));
    expect(confirmed.body).toMatchObject({ status: 'requires_action', next_action: { type: 'use_stripe_sdk' } });
    await standInControl(keys, 'POST', 'settle');
    expect(await statusOf(orderId)).toBe('awaiting_payment');
    await authenticate(confirmed.body.next_action.use_stripe_sdk.stripe_js, 'complete');
    expect((await claimedThenIssued(orderId)).status).toBe('active');
    expect(answersFor(intent.id)).toEqual([
      ['payment_intent.requires_action', 200],
      ['payment_intent.succeeded', 200],
    ]);
  });

  it('stays awaiting payment when the authentication fails, and another card then pays it', async () => {
    const { orderId, intent } = await checkedOut(keys, relay);
    const confirmed = await confirmAsBrowser(keys, intent, 'pm_card_authenticationRequired');
    await authenticate(confirmed.body.next_action.use_stripe_sdk.stripe_js, 'fail');
    expect(await statusOf(orderId)).toBe('awaiting_payment');
    expect((await confirmAsBrowser(keys, intent, stripeJsCard('4242424242424242'))).body.status).toBe('succeeded');
    await standInControl(keys, 'POST', 'settle');
    expect((await claimedThenIssued(orderId)).status).toBe('active');
    expect(answersFor(intent.id)).toEqual([
      ['payment_intent.requires_action', 200],
      ['payment_intent.payment_failed', 200],
      ['payment_intent.succeeded', 200],
    ]);
  });
});
