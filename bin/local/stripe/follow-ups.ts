import type Stripe from 'stripe';
import { invalidRequest, missing } from './errors.ts';
import { disputeObject, type Emit, stripeId, update } from './objects.ts';

/**
 * What Stripe does to a payment after it is made, for the test cards that ask for it (test-cards.ts `followUp`):
 * the dispute of pm_card_createDispute, moved on by the test controls, and the later failure of pm_card_refundFail's
 * refunds; and the `refund.created` Stripe sends for every refund.
 */
/** Stripe refuses to refund a charged-back charge (an inquiry, `warning_*`, may still be refunded). */
export function refuseDisputed(charge: Stripe.Charge): void {
  if (charge.disputed)
    throw invalidRequest(`Charge ${charge.id} has been charged back; cannot issue a refund.`, {
      code: 'charge_disputed',
      param: 'charge',
    });
}

const DISPUTE_STATUSES: Stripe.Dispute.Status[] = [
  'warning_needs_response',
  'warning_under_review',
  'warning_closed',
  'needs_response',
  'under_review',
  'won',
  'lost',
  'prevented',
];
/** A dispute's statuses that close it: `charge.dispute.closed` instead of `charge.dispute.updated`. */
const CLOSED_DISPUTE: Stripe.Dispute.Status[] = ['won', 'lost', 'warning_closed', 'prevented'];
/** What Stripe sends when a refund it made fails: the refund updated and failed, as a refund of the charge. */
const FAILED_REFUND_EVENTS: Stripe.Event.Type[] = ['refund.updated', 'refund.failed', 'charge.refund.updated'];

export class PaymentFollowUps {
  private readonly disputes = new Map<string, Stripe.Dispute>();
  /** Refunds that will fail, each until its failure is emitted: `settle` waits for them. */
  private readonly failing = new Set<Promise<void>>();

  constructor(
    private readonly emit: Emit,
    private readonly now: () => number,
  ) {}

  /**
   * The cardholder's bank disputes the charge (pm_card_createDispute): Stripe takes the amount back, marks the charge
   * `disputed` (refunds refused from now: `charge_disputed`) and sends `charge.dispute.created`, `needs_response`.
   */
  openDispute(charge: Stripe.Charge): void {
    const dispute = disputeObject(charge, this.now());
    this.disputes.set(dispute.id, dispute);
    update(charge, { disputed: true });
    this.emit('charge.dispute.created', dispute, charge.payment_intent as string);
  }

  /** A dispute moves on (the test control `POST /_stand-in/disputes/{id}` `{status}`): updated, or closed (won, lost). */
  moveDispute(id: string, status: string): Stripe.Dispute {
    const dispute = this.disputes.get(id);
    if (!dispute) throw missing('dispute', id);
    if (!DISPUTE_STATUSES.includes(status)) throw invalidRequest(`Invalid status: ${status}`, { param: 'status' });
    if (CLOSED_DISPUTE.includes(dispute.status))
      throw invalidRequest(`Dispute ${id} is closed (${dispute.status}).`, { code: 'dispute_already_closed' });
    dispute.status = status;
    const closed = CLOSED_DISPUTE.includes(status);
    this.emit(closed ? 'charge.dispute.closed' : 'charge.dispute.updated', dispute, dispute.payment_intent as string);
    return dispute;
  }

  /** The disputes of one PaymentIntent (the test controls find a payment's dispute by it). */
  disputesOf(paymentIntent: string): Stripe.Dispute[] {
    return [...this.disputes.values()].filter((dispute) => dispute.payment_intent === paymentIntent);
  }

  /**
   * What Stripe sends for every refund: `refund.created` (before `charge.refunded`); and for a card that refuses refunds (pm_card_refundFail),
   * a little later the refund `failed` (`failure_reason` a closed card), the charge's refunded amount back, and
   * `refund.updated`, `refund.failed`, `charge.refund.updated`.
   */
  followRefund(refund: Stripe.Refund, charge: Stripe.Charge, fails: boolean): void {
    const intent = charge.payment_intent as string;
    this.emit('refund.created', refund, intent);
    if (!fails) return;
    const failure = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      update(refund, {
        status: 'failed',
        failure_reason: 'expired_or_canceled_card',
        failure_balance_transaction: stripeId('txn'),
      });
      update(charge, { refunded: false, amount_refunded: charge.amount_refunded - refund.amount });
      for (const type of FAILED_REFUND_EVENTS) this.emit(type, refund, intent);
    });
    this.failing.add(failure);
    void failure.finally(() => this.failing.delete(failure));
  }

  /** Waits until every refund due to fail has failed (its events emitted). */
  async settle(): Promise<void> {
    while (this.failing.size) await Promise.allSettled([...this.failing]);
  }
}
