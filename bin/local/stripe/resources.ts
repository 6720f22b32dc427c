import { randomBytes } from 'node:crypto';
import type { Form, FormValue } from './form.ts';
import { invalidRequest, missing, missingParam, StripeFailure, unexpectedState, unknownParam } from './errors.ts';
import { PaymentFollowUps, refuseDisputed } from './follow-ups.ts';
import { type Emit, now, type StripeObject, stripeId } from './objects.ts';

/**
 * The Stripe objects the service uses, in memory: PaymentIntents (create, retrieve, confirm with a
 * test payment method, cancel), their one Charge, full Refunds and the Disputes of test cards that ask
 * for one. Each state change hands an event to `emit` (webhooks.ts signs and delivers it).
 */

/**
 * The test payment methods Stripe documents (https://docs.stripe.com/testing), as far as this stand-in knows them.
 * `disputed`: the payment succeeds, then the cardholder disputes it; `refundFails`: a refund is made `succeeded`, then
 * fails (a closed card). What follows is follow-ups.ts's.
 */
const TEST_CARDS: Record<
  string,
  { brand: string; last4: string; decline?: string; disputed?: true; refundFails?: true }
> = {
  pm_card_visa: { brand: 'visa', last4: '4242' },
  pm_card_createDispute: { brand: 'visa', last4: '0259', disputed: true },
  pm_card_refundFail: { brand: 'visa', last4: '5126', refundFails: true },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444' },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002', decline: 'generic_decline' },
  pm_card_chargeDeclinedInsufficientFunds: { brand: 'visa', last4: '9995', decline: 'insufficient_funds' },
};
const CANCELABLE = ['requires_payment_method', 'requires_confirmation', 'requires_action', 'processing'];

function onlyKnown(form: Form, known: readonly string[]): void {
  for (const key of Object.keys(form)) if (!known.includes(key)) throw unknownParam(key);
}

function text(form: Form, name: string): string | undefined {
  const value = form[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidRequest(`Invalid string: ${name}`, { param: name });
  return value;
}

function positiveInteger(form: Form, name: string): number {
  const value = text(form, name);
  if (value === undefined) throw missingParam(name);
  if (!/^\d+$/.test(value))
    throw invalidRequest(`Invalid integer: ${value}`, { code: 'parameter_invalid_integer', param: name });
  return Number(value);
}

function metadata(value: FormValue | undefined): Record<string, string> {
  if (value === undefined || value === '') return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidRequest('Invalid object', { param: 'metadata' });
  const entries = Object.entries(value);
  if (entries.length > 50) throw invalidRequest('Metadata can have at most 50 keys.', { param: 'metadata' });
  for (const [key, item] of entries) {
    if (typeof item !== 'string' || key.length > 40 || item.length > 500)
      throw invalidRequest(`Invalid metadata value or key: ${key}`, { param: `metadata[${key}]` });
  }
  return value as Record<string, string>;
}

export class Resources {
  readonly intents = new Map<string, StripeObject>();
  private readonly charges = new Map<string, StripeObject>();
  private readonly refunds = new Map<string, StripeObject>();
  /** The disputes and the refunds that fail later (follow-ups.ts). */
  readonly followUps: PaymentFollowUps;

  constructor(private readonly emit: Emit) {
    this.followUps = new PaymentFollowUps(emit);
  }

  createPaymentIntent(form: Form): StripeObject {
    onlyKnown(form, [
      'amount',
      'currency',
      'metadata',
      'automatic_payment_methods',
      'payment_method_types',
      'receipt_email',
      'description',
    ]);
    const amount = positiveInteger(form, 'amount');
    const currency = text(form, 'currency')?.toLowerCase();
    if (!currency) throw missingParam('currency');
    if (!/^[a-z]{3}$/.test(currency)) throw invalidRequest(`Invalid currency: ${currency}.`, { param: 'currency' });
    // Stripe's minimum charge is about 0.50 of a two-decimal currency; one rule here for every currency.
    if (amount < 50)
      throw invalidRequest('Amount must be at least 50 in the smallest currency unit.', {
        code: 'amount_too_small',
        param: 'amount',
      });
    if (form.automatic_payment_methods !== undefined && form.payment_method_types !== undefined)
      throw invalidRequest(
        'You may only specify one of these parameters: automatic_payment_methods, payment_method_types.',
      );
    const automatic = form.automatic_payment_methods as Record<string, string> | undefined;
    const types = form.payment_method_types === undefined ? ['card'] : [form.payment_method_types].flat();
    if (types.some((type) => type !== 'card'))
      throw invalidRequest('This stand-in knows only the payment method type card.', { param: 'payment_method_types' });
    const id = stripeId('pi');
    const intent: StripeObject = {
      id,
      object: 'payment_intent',
      amount,
      amount_capturable: 0,
      amount_received: 0,
      automatic_payment_methods: automatic
        ? { enabled: automatic.enabled === 'true', allow_redirects: automatic.allow_redirects ?? 'always' }
        : null,
      canceled_at: null,
      cancellation_reason: null,
      capture_method: 'automatic_async',
      client_secret: `${id}_secret_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`,
      confirmation_method: 'automatic',
      created: now(),
      currency,
      customer: null,
      description: text(form, 'description') ?? null,
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      metadata: metadata(form.metadata),
      next_action: null,
      payment_method: null,
      payment_method_types: types,
      receipt_email: text(form, 'receipt_email') ?? null,
      status: 'requires_payment_method',
    };
    this.intents.set(id, intent);
    return intent;
  }

  paymentIntent(id: string): StripeObject {
    const intent = this.intents.get(id);
    if (!intent) throw missing('payment_intent', id, 'intent');
    return intent;
  }

  /** The parameters Stripe.js sends besides `key` and `client_secret` (checked by the server). */
  confirm(id: string, form: Form): StripeObject {
    onlyKnown(form, [
      'payment_method',
      'return_url',
      'expected_payment_method_type',
      'use_stripe_sdk',
      'key',
      'client_secret',
    ]);
    const intent = this.paymentIntent(id);
    if (intent.status === 'succeeded' || intent.status === 'canceled')
      throw unexpectedState(
        intent.status === 'succeeded'
          ? 'You cannot confirm this PaymentIntent because it has already succeeded after being previously confirmed.'
          : 'You cannot confirm this PaymentIntent because it has a status of canceled. Only a PaymentIntent with one of the following statuses may be confirmed: requires_confirmation, requires_payment_method, requires_action.',
        { payment_intent: intent },
      );
    const method = text(form, 'payment_method') ?? (intent.payment_method as string | null);
    if (!method) throw missingParam('payment_method');
    const card = TEST_CARDS[method];
    if (!card) throw missing('PaymentMethod', method, 'payment_method');
    intent.payment_method = method;
    if (card.decline) {
      const error = {
        type: 'card_error',
        code: 'card_declined',
        decline_code: card.decline,
        message:
          card.decline === 'insufficient_funds' ? 'Your card has insufficient funds.' : 'Your card was declined.',
        payment_method: {
          id: method,
          object: 'payment_method',
          type: 'card',
          card: { brand: card.brand, last4: card.last4 },
        },
      };
      Object.assign(intent, { status: 'requires_payment_method', last_payment_error: error, payment_method: null });
      this.emit('payment_intent.payment_failed', intent, id);
      throw new StripeFailure(402, { ...error, payment_intent: intent });
    }
    const charge: StripeObject = {
      id: stripeId('ch'),
      object: 'charge',
      amount: intent.amount,
      amount_captured: intent.amount,
      amount_refunded: 0,
      captured: true,
      created: now(),
      currency: intent.currency,
      disputed: false,
      livemode: false,
      metadata: intent.metadata,
      paid: true,
      payment_intent: id,
      payment_method: method,
      refunded: false,
      status: 'succeeded',
    };
    this.charges.set(charge.id, charge);
    Object.assign(intent, {
      status: 'succeeded',
      amount_received: intent.amount,
      latest_charge: charge.id,
      last_payment_error: null,
    });
    this.emit('payment_intent.succeeded', intent, id);
    if (card.disputed) this.followUps.openDispute(charge);
    return intent;
  }

  cancel(id: string, form: Form): StripeObject {
    onlyKnown(form, ['cancellation_reason']);
    const intent = this.paymentIntent(id);
    if (!CANCELABLE.includes(intent.status as string))
      throw unexpectedState(
        `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: ${CANCELABLE.join(', ')}.`,
        { payment_intent: intent },
      );
    Object.assign(intent, {
      status: 'canceled',
      canceled_at: now(),
      cancellation_reason: text(form, 'cancellation_reason') ?? null,
    });
    this.emit('payment_intent.canceled', intent, id);
    return intent;
  }

  /** Full refunds only: an `amount` other than what is left to refund is refused. */
  refund(form: Form): StripeObject {
    onlyKnown(form, ['payment_intent', 'charge', 'amount', 'reason', 'metadata']);
    const intentId = text(form, 'payment_intent');
    const chargeId = text(form, 'charge');
    if (!intentId && !chargeId) throw missingParam('payment_intent');
    const intent = intentId ? this.paymentIntent(intentId) : undefined;
    const charge = this.charges.get((chargeId ?? intent?.latest_charge ?? '') as string);
    if (!charge) {
      if (chargeId) throw missing('charge', chargeId, 'charge');
      throw invalidRequest(`This PaymentIntent (${intentId}) does not have a successful charge to refund.`, {
        code: 'charge_not_refundable',
        param: 'payment_intent',
      });
    }
    refuseDisputed(charge);
    if (charge.refunded)
      throw invalidRequest(`Charge ${charge.id} has already been refunded.`, {
        code: 'charge_already_refunded',
        param: 'charge',
      });
    const amount = form.amount === undefined ? (charge.amount as number) : positiveInteger(form, 'amount');
    if (amount !== charge.amount)
      throw invalidRequest('This stand-in refunds a charge in full only.', {
        code: 'parameter_invalid_integer',
        param: 'amount',
      });
    const refund: StripeObject = {
      id: stripeId('re'),
      object: 'refund',
      amount,
      charge: charge.id,
      created: now(),
      currency: charge.currency,
      metadata: metadata(form.metadata),
      payment_intent: charge.payment_intent,
      reason: text(form, 'reason') ?? null,
      status: 'succeeded',
    };
    this.refunds.set(refund.id, refund);
    Object.assign(charge, { refunded: true, amount_refunded: amount });
    this.followUps.followRefund(refund, charge, TEST_CARDS[charge.payment_method as string]?.refundFails === true);
    this.emit('charge.refunded', charge, charge.payment_intent as string);
    return refund;
  }

  /** `GET /v1/refunds`: newest first, of one `charge` or `payment_intent` (or all), `limit` 1–100 (default 10). */
  listRefunds(form: Form): Record<string, unknown> {
    onlyKnown(form, ['charge', 'payment_intent', 'limit']);
    const chargeId = text(form, 'charge');
    const intentId = text(form, 'payment_intent');
    const limit = form.limit === undefined ? 10 : positiveInteger(form, 'limit');
    if (limit < 1 || limit > 100) throw invalidRequest('Invalid limit: must be between 1 and 100.', { param: 'limit' });
    const matching = [...this.refunds.values()]
      .filter(
        (refund) => (!chargeId || refund.charge === chargeId) && (!intentId || refund.payment_intent === intentId),
      )
      .reverse();
    return { object: 'list', data: matching.slice(0, limit), has_more: matching.length > limit, url: '/v1/refunds' };
  }

  refundById(id: string): StripeObject {
    const refund = this.refunds.get(id);
    if (!refund) throw missing('refund', id);
    return refund;
  }
}

/** What a publishable key sees of a PaymentIntent (Stripe.js): no metadata, no receipt address. */
export function publicView(intent: StripeObject): StripeObject {
  const { metadata: _metadata, receipt_email: _email, ...rest } = intent;
  return rest as StripeObject;
}
