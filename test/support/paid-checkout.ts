import { expect } from 'vitest';
import { getOrder } from '#shared/selling/data/orders';
import type { NewEvent } from '#shared/events/domain/event';
import type { TaxRule } from '#shared/selling/domain/pricing-schemas';
import type { CheckoutBody } from '#shared/selling/domain/checkout-body';
import { call } from './api.ts';
import { claimedThenIssued } from './paid-order-issuing.ts';
import { newCustomer } from './customers.ts';
import { seedEvent } from './factories/tickets.ts';
import { confirmAsBrowser, type StandInKeys, standInControl, stripeSdk, type WebhookRelay } from './stripe.ts';
import { customerToken } from './tokens.ts';

/**
 * An order paid as a buyer pays it: a published event's reservation checked out over HTTP, its
 * PaymentIntent confirmed with `pm_card_visa` as Stripe.js does, the stand-in's events relayed to the webhook
 * route (the payment recorded), the tickets issued by the consumer behind it (paid-order-issuing.ts). What a refund test needs of it.
 */
export interface PaidCheckout {
  orderId: string;
  intentId: string;
  eventId: number;
  typeId: number;
  /** The order's address (the buyer's mail goes there). */
  email: string;
}

const RESERVATIONS = '/api/v2/my-account/reservations';

/** What is bought: `quantity` tickets of one type at `price`, of an event in `currency` (default 1 at EUR 12.50). */
export interface CheckoutOptions {
  quantity?: number;
  price?: number;
  currency?: string;
  shippingMethodId?: number;
  /** The type is an access package: the other events it grants entry to. */
  grants?: number[];
  /** The type's tax, and the event's booking fee and its taxes (none: an untaxed sale without fee). */
  pricing?: { tax?: TaxRule } & Pick<NewEvent, 'bookingFee' | 'feeTax' | 'shippingTax' | 'seller'>;
  /** A business buyer's company, tax id and address, sent with the checkout. */
  billing?: CheckoutBody['billing'];
}

/** A checkout awaiting payment: its order, and the PaymentIntent whose events go to `relay`. */
export async function checkedOut(
  keys: StandInKeys,
  relay: WebhookRelay,
  {
    quantity = 1,
    price = 12.5,
    currency = 'EUR',
    shippingMethodId,
    grants,
    pricing = {},
    billing,
  }: CheckoutOptions = {},
): Promise<PaidCheckout & { intent: { id: string; clientSecret: string }; reservationId: number; token: string }> {
  const { tax, ...eventPricing } = pricing;
  const event = await seedEvent({
    published: true,
    questions: [],
    currency,
    ...eventPricing,
    ticketTypes: [{ name: 'Runner', price, total: 50, tax, ...(grants && { grants }) }],
  });
  const typeId = event.ticketTypes[0]!.id;
  const customer = await newCustomer();
  const token = await customerToken(customer.id, { email: customer.email });
  const held = await call('POST', RESERVATIONS, {
    token,
    body: { eventId: event.id, lines: [{ typeId, quantity }], ...(shippingMethodId ? { shippingMethodId } : {}) },
  });
  expect(held.status, held.raw).toBe(201);
  const attendees = Array.from({ length: quantity }, (_, n) => ({
    firstName: `Grace${n}`,
    lastName: 'Hopper',
    email: `grace${n}@example.com`,
  }));
  const checkout = await call('POST', `${RESERVATIONS}/${held.body.data.id}/checkout`, {
    token,
    body: { attendees, ...(billing ? { billing } : {}) },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  expect(checkout.status, checkout.raw).toBe(201);
  const { order, payment } = checkout.body.data;
  // The order answers the figures its hold was priced at, and Stripe is asked for that total.
  expect(order.amounts).toEqual(held.body.data.amounts);
  expect(order.grandTotal).toBe(held.body.data.amounts.total);
  const intent = { id: payment.clientSecret.split('_secret_')[0]!, clientSecret: payment.clientSecret };
  await standInControl(keys, 'POST', `payment_intents/${intent.id}/webhooks`, { url: relay.url });
  const stored = (await getOrder(Number(order.id)))!;
  return {
    orderId: order.id,
    intentId: intent.id,
    intent,
    eventId: event.id,
    typeId,
    email: stored.emailAddress,
    reservationId: held.body.data.id,
    token,
  };
}

/**
 * Confirms a checkout's PaymentIntent as Stripe.js does, with `pm_card_visa` or another of Stripe's test cards
 * (`pm_card_createDispute`, `pm_card_refundFail`), and lets its events be answered.
 */
export async function payAsBrowser(
  keys: StandInKeys,
  intent: { id: string; clientSecret: string },
  paymentMethod = 'pm_card_visa',
): Promise<void> {
  expect((await confirmAsBrowser(keys, intent, paymentMethod)).body.status).toBe('succeeded');
  await standInControl(keys, 'POST', 'settle');
}

export async function paidCheckout(
  keys: StandInKeys,
  relay: WebhookRelay,
  { paymentMethod, ...options }: CheckoutOptions & { paymentMethod?: string } = {},
): Promise<PaidCheckout> {
  const { intent, reservationId: _reservation, token: _token, ...bought } = await checkedOut(keys, relay, options);
  await payAsBrowser(keys, intent, paymentMethod);
  expect((await claimedThenIssued(bought.orderId)).status).toBe('active');
  return bought;
}

/** The refunds Stripe's stand-in holds for a payment, newest first, as the SDK lists them. */
export async function refundsAtStripe(keys: StandInKeys, paymentIntent: string) {
  const page = await stripeSdk(keys.secretKey).refunds.list({ payment_intent: paymentIntent, limit: 100 });
  return page.data.map(({ id, amount, status }) => ({ id, amount, status }));
}
