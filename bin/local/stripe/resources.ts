import type Stripe from 'stripe';
import {
  CONFIRM_PARAMETERS,
  type ConfirmOptions,
  cardData,
  confirmOptions,
  NOT_HONOURED_CONFIRM_PARAMETERS,
  notHonoured,
} from './confirm-parameters.ts';
import { invalidRequest, missing, missingParam, StripeFailure, unexpectedState } from './errors.ts';
import { PaymentFollowUps } from './follow-ups.ts';
import { type Form, onlyKnown, text } from './form.ts';
import {
  type BillingDetails,
  cardPaymentMethodObject,
  chargeObject,
  type Emit,
  noBillingDetails,
  paymentIntentObject,
  stripeId,
  update,
} from './objects.ts';
import { newPaymentIntent } from './intent-parameters.ts';
import { Refunds } from './refunds.ts';
import { declineMessages, type TestCard, testCardByPaymentMethod } from './test-cards.ts';

/**
 * The Stripe objects the service uses, in memory: PaymentIntents (create, retrieve, confirm with a test card,
 * 3-D Secure, cancel), their one Charge, its full Refunds (refunds.ts) and what follows a payment for the test cards
 * that ask for it: a dispute, a refund failing later (follow-ups.ts). Each state change hands an event to `emit`
 * (webhooks.ts signs and delivers it). The objects are built in objects.ts, typed as the SDK declares them.
 */
export interface ResourceOptions {
  /** The clock, in Unix seconds (a test moves it). */
  now?: () => number;
  /** Where a buyer's browser is sent to authenticate a payment (3-D Secure): the stand-in's test page. */
  authenticationUrl?: (authenticationId: string) => string;
}

const CANCELABLE = ['requires_payment_method', 'requires_confirmation', 'requires_action', 'processing'];

export class Resources {
  readonly intents = new Map<string, Stripe.PaymentIntent>();
  private readonly charges = new Map<string, Stripe.Charge>();
  /** The disputes and the refunds that fail later (follow-ups.ts). */
  readonly followUps: PaymentFollowUps;
  readonly refunds: Refunds;
  private readonly now: () => number;
  private readonly authenticationUrl: (authenticationId: string) => string;

  constructor(
    private readonly emit: Emit,
    options: ResourceOptions = {},
  ) {
    this.now = options.now ?? (() => Math.floor(Date.now() / 1000));
    this.authenticationUrl = options.authenticationUrl ?? ((id) => `http://stand-in/3d_secure_2_test/${id}`);
    this.followUps = new PaymentFollowUps(emit, this.now);
    const payments = {
      paymentIntent: (id: string) => this.paymentIntent(id),
      charge: (id: string) => this.charges.get(id),
      refundsFail: (charge: Stripe.Charge) => this.testCardOf(charge).followUp === 'refundFails',
    };
    this.refunds = new Refunds(payments, this.followUps, emit, this.now);
  }

  createPaymentIntent(form: Form): Stripe.PaymentIntent {
    const intent = paymentIntentObject(newPaymentIntent(form, this.now()));
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
    if (this.testCardOf(charge).followUp === 'dispute') this.followUps.openDispute(charge);
    return intent;
  }

  /** The test card a charge was paid with (its PaymentMethod was made of one). */
  private testCardOf(charge: Stripe.Charge): TestCard {
    return this.paymentMethods.get(charge.payment_method as string)!.test;
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
}

/** What a publishable key sees of a PaymentIntent (Stripe.js): no metadata, no receipt address. */
export function publicView(intent: Stripe.PaymentIntent): Omit<Stripe.PaymentIntent, 'metadata' | 'receipt_email'> {
  const { metadata: _metadata, receipt_email: _email, ...rest } = intent;
  return rest;
}
