import type Stripe from 'stripe';
import { invalidRequest, missing, missingParam } from './errors.ts';
import { type Form, metadata, onlyKnown, positiveInteger, text } from './form.ts';
import { refuseDisputed, type PaymentFollowUps } from './follow-ups.ts';
import { type Emit, refundObject, update } from './objects.ts';

/** What the refunds need of the payments: an intent by id, a charge by id, and whether a charge's refunds fail. */
export interface RefundedPayments {
  paymentIntent(id: string): Stripe.PaymentIntent;
  charge(id: string): Stripe.Charge | undefined;
  refundsFail(charge: Stripe.Charge): boolean;
}

/**
 * Refunds of a PaymentIntent's charge, in full or in parts: made (`refund.created`, then `charge.refunded`), listed, read. A
 * charged-back charge is refused (follow-ups.ts), and a card whose refunds fail has them fail a little later.
 */
export class Refunds {
  private readonly refunds = new Map<string, Stripe.Refund>();

  constructor(
    private readonly payments: RefundedPayments,
    private readonly followUps: PaymentFollowUps,
    private readonly emit: Emit,
    private readonly now: () => number,
  ) {}

  /**
   * A refund of the charge, in full (no `amount`: what is left) or in part (`amount` up to what is left; more is
   * `amount_too_large`); a charge refunded in full is `charge_already_refunded`.
   */
  refund(form: Form): Stripe.Refund {
    onlyKnown(form, ['payment_intent', 'charge', 'amount', 'reason', 'metadata']);
    const intentId = text(form, 'payment_intent');
    const chargeId = text(form, 'charge');
    if (!intentId && !chargeId) throw missingParam('payment_intent');
    const intent = intentId ? this.payments.paymentIntent(intentId) : undefined;
    const charge = this.payments.charge((chargeId ?? intent?.latest_charge ?? '') as string);
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
    this.followUps.followRefund(refund, charge, this.payments.refundsFail(charge));
    this.emit('charge.refunded', charge, charge.payment_intent as string);
    return refund;
  }

  /** `GET /v1/refunds`: newest first, of one `charge` or `payment_intent` (or all), `limit` 1–100 (default 10). */
  list(form: Form): Stripe.ApiList<Stripe.Refund> {
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

  byId(id: string): Stripe.Refund {
    const refund = this.refunds.get(id);
    if (!refund) throw missing('refund', id);
    return refund;
  }
}
