import type Stripe from 'stripe';
import {
  invalidParameter,
  invalidRequest,
  missing,
  missingParam,
  StripeFailure,
  unexpectedState,
  unknownParam,
} from './errors.ts';
import type { Form, FormValue } from './form.ts';
import {
  type BillingDetails,
  cardPaymentMethodObject,
  chargeObject,
  noBillingDetails,
  paymentIntentObject,
  refundObject,
  stripeId,
} from './objects.ts';
import {
  CONFIRM_PARAMETERS,
  type ConfirmOptions,
  cardData,
  confirmOptions,
  NOT_HONOURED_CONFIRM_PARAMETERS,
  notHonoured,
} from './confirm-parameters.ts';
import { declineMessages, type TestCard, testCardByPaymentMethod } from './test-cards.ts';
import { checkChargeAmount } from './currencies.ts';

/**
 * The Stripe objects the service uses, in memory: PaymentIntents (create, retrieve, confirm with a
 * test card, 3-D Secure, cancel), their one Charge, and Refunds (in full or in parts). Each state change hands an
 * event to `emit` (webhooks.ts signs and delivers it). The objects are built in objects.ts, typed as the SDK declares them.
 */
export type StripeObject = Record<string, unknown> & { id: string; object: string };
export type Emit = (type: Stripe.Event.Type, object: { id: string; object: string }, paymentIntent: string) => void;

export { stripeId };

export interface ResourceOptions {
  /** The clock, in Unix seconds (a test moves it). */
  now?: () => number;
  /** Where a buyer's browser is sent to authenticate a payment (3-D Secure): the stand-in's test page. */
  authenticationUrl?: (authenticationId: string) => string;
}

const CANCELABLE = ['requires_payment_method', 'requires_confirmation', 'requires_action', 'processing'];

/** Object.assign that accepts only the target's own fields. */
const update = <T extends object>(target: T, changes: Partial<T>): T => Object.assign(target, changes);

function onlyKnown(form: Form, known: readonly string[]): void {
  for (const key of Object.keys(form)) if (!known.includes(key)) throw unknownParam(key);
}

function text(form: Form, name: string): string | undefined {
  const value = form[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidParameter(`Invalid string: ${name}`, { param: name });
  return value;
}

function positiveInteger(form: Form, name: string): number {
  const value = text(form, name);
  if (value === undefined) throw missingParam(name);
  if (!/^\d+$/.test(value))
    throw invalidParameter(`Invalid integer: ${value}`, { code: 'parameter_invalid_integer', param: name });
  return Number(value);
}

function metadata(value: FormValue | undefined): Record<string, string> {
  if (value === undefined || value === '') return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw invalidParameter('Invalid object', { param: 'metadata' });
  const entries = Object.entries(value);
  if (entries.length > 50) throw invalidParameter('Metadata can have at most 50 keys.', { param: 'metadata' });
  for (const [key, item] of entries) {
    if (typeof item !== 'string' || key.length > 40 || item.length > 500)
      throw invalidParameter(`Invalid metadata value or key: ${key}`, { param: `metadata[${key}]` });
  }
  return value as Record<string, string>;
}

export class Resources {
  readonly intents = new Map<string, Stripe.PaymentIntent>();
  private readonly charges = new Map<string, Stripe.Charge>();
  private readonly refunds = new Map<string, Stripe.Refund>();
  private readonly now: () => number;
  private readonly authenticationUrl: (authenticationId: string) => string;

  constructor(
    private readonly emit: Emit,
    options: ResourceOptions = {},
  ) {
    this.now = options.now ?? (() => Math.floor(Date.now() / 1000));
    this.authenticationUrl = options.authenticationUrl ?? ((id) => `http://stand-in/3d_secure_2_test/${id}`);
  }

  createPaymentIntent(form: Form): Stripe.PaymentIntent {
    onlyKnown(form, [
      'amount',
      'currency',
      'metadata',
      'automatic_payment_methods',
      'allowed_payment_method_types',
      'payment_method_types',
      'receipt_email',
      'description',
    ]);
    const amount = positiveInteger(form, 'amount');
    const currency = text(form, 'currency')?.toLowerCase();
    if (!currency) throw missingParam('currency');
    if (!/^[a-z]{3}$/.test(currency)) throw invalidRequest(`Invalid currency: ${currency}.`, { param: 'currency' });
    checkChargeAmount(amount, currency);
    if (form.automatic_payment_methods !== undefined && form.payment_method_types !== undefined)
      throw invalidRequest(
        'You may only specify one of these parameters: automatic_payment_methods, payment_method_types.',
      );
    // `allowed_payment_method_types` is the pinned API version's name for the older `payment_method_types`.
    if (form.allowed_payment_method_types !== undefined && form.payment_method_types !== undefined)
      throw invalidRequest(
        'You may only specify one of these parameters: allowed_payment_method_types, payment_method_types.',
      );
    const automatic = form.automatic_payment_methods as Record<string, string> | undefined;
    const allowed = form.allowed_payment_method_types ?? form.payment_method_types;
    const types = allowed === undefined ? ['card'] : [allowed].flat();
    if (types.some((type) => type !== 'card'))
      throw invalidRequest('This stand-in knows only the payment method type card.', {
        param:
          form.allowed_payment_method_types === undefined ? 'payment_method_types' : 'allowed_payment_method_types',
      });
    const intent = paymentIntentObject({
      amount,
      allowedPaymentMethodTypes: form.allowed_payment_method_types === undefined ? null : (types as string[]),
      currency,
      metadata: metadata(form.metadata),
      automaticPaymentMethods: automatic
        ? {
            enabled: automatic.enabled === 'true',
            allow_redirects: (automatic.allow_redirects ?? 'always') as 'always' | 'never',
          }
        : null,
      paymentMethodTypes: types as string[],
      description: text(form, 'description') ?? null,
      receiptEmail: text(form, 'receipt_email') ?? null,
      created: this.now(),
    });
    this.intents.set(intent.id, intent);
    return intent;
  }

  paymentIntent(id: string): Stripe.PaymentIntent {
    const intent = this.intents.get(id);
    if (!intent) throw missing('payment_intent', id, 'intent');
    return intent;
  }

  // ---- Confirming: a test card by PaymentMethod id or as Stripe.js sends it, 3-D Secure ----

  private readonly paymentMethods = new Map<string, { paymentMethod: Stripe.PaymentMethod; test: TestCard }>();
  /** The 3-D Secure authentication each intent waits for, and the intent of each authentication id. */
  private readonly pendingAuthentication = new Map<string, string>();
  private readonly authentications = new Map<string, { intentId: string; returnUrl: string | null }>();

  /**
   * Confirms with `payment_method` (a test PaymentMethod: `pm_card_visa`) or `payment_method_data` (what Stripe.js
   * sends from its card field), as the secret key or as Stripe.js (the server checked `key` and `client_secret`).
   */
  confirm(id: string, form: Form): Stripe.PaymentIntent {
    onlyKnown(form, [...CONFIRM_PARAMETERS, ...NOT_HONOURED_CONFIRM_PARAMETERS]);
    for (const name of NOT_HONOURED_CONFIRM_PARAMETERS) if (form[name] !== undefined) throw notHonoured(name);
    const options = confirmOptions(form);
    const intent = this.paymentIntent(id);
    if (intent.status === 'succeeded' || intent.status === 'canceled')
      throw unexpectedState(
        intent.status === 'succeeded'
          ? 'You cannot confirm this PaymentIntent because it has already succeeded after being previously confirmed.'
          : 'You cannot confirm this PaymentIntent because it has a status of canceled. Only a PaymentIntent with one of the following statuses may be confirmed: requires_confirmation, requires_payment_method, requires_action.',
        { payment_intent: intent },
      );
    const { paymentMethod, test } = this.paymentMethodFor(intent, form);
    if (options.expectedType !== null && options.expectedType !== paymentMethod.type)
      throw invalidRequest(`The PaymentMethod's type (${paymentMethod.type}) is not ${options.expectedType}.`, {
        param: 'expected_payment_method_type',
      });
    if (options.receiptEmail !== undefined) update(intent, { receipt_email: options.receiptEmail || null });
    // A new confirm replaces an authentication under way: its page can no longer complete it.
    this.pendingAuthentication.delete(intent.id);
    switch (test.outcome.kind) {
      case 'decline':
        return this.decline(intent, paymentMethod, 'card_declined', test.outcome.code);
      case 'authentication':
        if (options.errorOnRequiresAction)
          return this.decline(intent, paymentMethod, 'authentication_required', 'authentication_required');
        return this.requireAuthentication(intent, paymentMethod, options);
      case 'succeeds':
        return this.succeed(intent, paymentMethod);
    }
  }

  /** The card to confirm with: Stripe makes a new PaymentMethod of a test one (`pm_card_visa`) or of the card data. */
  private paymentMethodFor(
    intent: Stripe.PaymentIntent,
    form: Form,
  ): { paymentMethod: Stripe.PaymentMethod; test: TestCard } {
    const id = text(form, 'payment_method');
    if (id !== undefined && form.payment_method_data !== undefined)
      throw invalidRequest('You cannot provide both payment_method and payment_method_data.', {
        param: 'payment_method_data',
      });
    if (form.payment_method_data !== undefined) {
      const { test, billingDetails } = cardData(form.payment_method_data);
      return this.newPaymentMethod(test, billingDetails);
    }
    const chosen = id ?? (intent.payment_method as string | null);
    if (!chosen) throw missingParam('payment_method');
    const made = this.paymentMethods.get(chosen);
    if (made) return made;
    const test = testCardByPaymentMethod(chosen);
    if (!test) throw missing('PaymentMethod', chosen, 'payment_method');
    return this.newPaymentMethod(test, noBillingDetails());
  }

  paymentMethod(id: string): Stripe.PaymentMethod {
    const made = this.paymentMethods.get(id);
    if (!made) throw missing('payment_method', id);
    return made.paymentMethod;
  }

  private newPaymentMethod(test: TestCard, billingDetails: BillingDetails) {
    const made = { paymentMethod: cardPaymentMethodObject(test.card, billingDetails, this.now()), test };
    this.paymentMethods.set(made.paymentMethod.id, made);
    return made;
  }

  private succeed(intent: Stripe.PaymentIntent, paymentMethod: Stripe.PaymentMethod): Stripe.PaymentIntent {
    const charge = chargeObject(intent, paymentMethod, this.now());
    this.charges.set(charge.id, charge);
    update(intent, {
      status: 'succeeded',
      amount_received: intent.amount,
      latest_charge: charge.id,
      last_payment_error: null,
      next_action: null,
      payment_method: paymentMethod.id,
    });
    this.emit('payment_intent.succeeded', intent, intent.id);
    return intent;
  }

  /** A card_error answered 402, the intent back to `requires_payment_method` (another card may be tried). */
  private decline(
    intent: Stripe.PaymentIntent,
    paymentMethod: Stripe.PaymentMethod,
    code: string,
    declineCode: string,
  ): never {
    const message = declineMessages[declineCode] ?? declineMessages.generic_decline!;
    const error = {
      type: 'card_error' as const,
      code,
      decline_code: declineCode,
      message,
      doc_url: `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}`,
      payment_method: paymentMethod,
    };
    this.fail(intent, error);
    throw new StripeFailure(402, { ...error, payment_intent: intent });
  }

  private fail(intent: Stripe.PaymentIntent, error: Stripe.PaymentIntent.LastPaymentError): void {
    update(intent, {
      status: 'requires_payment_method',
      last_payment_error: error,
      payment_method: null,
      next_action: null,
    });
    this.emit('payment_intent.payment_failed', intent, intent.id);
  }

  /**
   * 3-D Secure: the intent `requires_action` until the buyer completes or fails Stripe's test authentication.
   * `redirect_to_url` when the caller gave a `return_url` and handles the redirect itself; `use_stripe_sdk` (Stripe.js
   * opens the page in a frame) when it said `use_stripe_sdk`, or gave no `return_url`.
   */
  private requireAuthentication(
    intent: Stripe.PaymentIntent,
    paymentMethod: Stripe.PaymentMethod,
    { returnUrl, useStripeSdk }: Pick<ConfirmOptions, 'returnUrl' | 'useStripeSdk'>,
  ): Stripe.PaymentIntent {
    const authenticationId = stripeId('src');
    this.authentications.set(authenticationId, { intentId: intent.id, returnUrl });
    this.pendingAuthentication.set(intent.id, authenticationId);
    const url = this.authenticationUrl(authenticationId);
    const nextAction: Stripe.PaymentIntent.NextAction =
      returnUrl && !useStripeSdk
        ? { type: 'redirect_to_url', redirect_to_url: { url, return_url: returnUrl } }
        : {
            type: 'use_stripe_sdk',
            use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: url, source: authenticationId },
          };
    update(intent, {
      status: 'requires_action',
      next_action: nextAction,
      payment_method: paymentMethod.id,
      last_payment_error: null,
    });
    this.emit('payment_intent.requires_action', intent, intent.id);
    return intent;
  }

  /**
   * The buyer's answer on the test authentication page: `complete` pays the intent, `fail` leaves it
   * `requires_payment_method` with Stripe's `payment_intent_authentication_failure`. Answers where to send the buyer.
   */
  authenticate(
    authenticationId: string,
    outcome: 'complete' | 'fail',
  ): { intent: Stripe.PaymentIntent; returnUrl: string | null } {
    const authentication = this.authentications.get(authenticationId);
    if (!authentication) throw missing('authentication', authenticationId);
    const intent = this.paymentIntent(authentication.intentId);
    if (intent.status !== 'requires_action' || this.pendingAuthentication.get(intent.id) !== authenticationId)
      throw unexpectedState(`This authentication of PaymentIntent ${intent.id} is no longer pending.`, {
        payment_intent: intent,
      });
    this.pendingAuthentication.delete(intent.id);
    const { paymentMethod } = this.paymentMethods.get(intent.payment_method as string)!;
    if (outcome === 'complete') this.succeed(intent, paymentMethod);
    else
      this.fail(intent, {
        type: 'invalid_request_error',
        code: 'payment_intent_authentication_failure',
        message:
          'The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.',
        doc_url: 'https://stripe.com/docs/error-codes/payment-intent-authentication-failure',
        payment_method: paymentMethod,
      });
    return { intent, returnUrl: authentication.returnUrl };
  }

  // ---- end of confirming ----

  cancel(id: string, form: Form): Stripe.PaymentIntent {
    onlyKnown(form, ['cancellation_reason']);
    const intent = this.paymentIntent(id);
    if (!CANCELABLE.includes(intent.status))
      throw unexpectedState(
        `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: ${CANCELABLE.join(', ')}.`,
        { payment_intent: intent },
      );
    update(intent, {
      status: 'canceled',
      canceled_at: this.now(),
      cancellation_reason: (text(form, 'cancellation_reason') ??
        null) as Stripe.PaymentIntent.CancellationReason | null,
    });
    this.emit('payment_intent.canceled', intent, id);
    return intent;
  }

  /**
   * A refund of the charge, in full (no `amount`: what is left) or in part (`amount` up to what is left; more is
   * `amount_too_large`); a charge refunded in full is `charge_already_refunded`.
   */
  refund(form: Form): Stripe.Refund {
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
    if (charge.refunded)
      throw invalidRequest(`Charge ${charge.id} has already been refunded.`, {
        code: 'charge_already_refunded',
        param: 'charge',
      });
    const left = charge.amount - charge.amount_refunded;
    const amount = form.amount === undefined ? left : positiveInteger(form, 'amount');
    if (amount < 1)
      throw invalidRequest('Invalid positive integer', { code: 'parameter_invalid_integer', param: 'amount' });
    if (amount > left)
      throw invalidRequest(`Refund amount (${amount}) is greater than unrefunded amount on charge (${left}).`, {
        code: 'amount_too_large',
        param: 'amount',
      });
    const refund = refundObject(charge, {
      amount,
      metadata: metadata(form.metadata),
      reason: (text(form, 'reason') ?? null) as Stripe.Refund.Reason | null,
      created: this.now(),
    });
    this.refunds.set(refund.id, refund);
    // As Stripe: `refunded` once nothing is left, and `charge.refunded` for every refund, a part's too.
    const refundedNow = charge.amount_refunded + amount;
    update(charge, { refunded: refundedNow === charge.amount, amount_refunded: refundedNow });
    this.emit('charge.refunded', charge, charge.payment_intent as string);
    return refund;
  }

  /** `GET /v1/refunds`: newest first, of one `charge` or `payment_intent` (or all), `limit` 1–100 (default 10). */
  listRefunds(form: Form): Stripe.ApiList<Stripe.Refund> {
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

  refundById(id: string): Stripe.Refund {
    const refund = this.refunds.get(id);
    if (!refund) throw missing('refund', id);
    return refund;
  }
}

/** What a publishable key sees of a PaymentIntent (Stripe.js): no metadata, no receipt address. */
export function publicView(intent: Stripe.PaymentIntent): Omit<Stripe.PaymentIntent, 'metadata' | 'receipt_email'> {
  const { metadata: _metadata, receipt_email: _email, ...rest } = intent;
  return rest;
}
