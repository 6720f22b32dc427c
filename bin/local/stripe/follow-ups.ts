import { invalidRequest, missing } from './errors.ts';
import { type Emit, now, type StripeObject, stripeId } from './objects.ts';

/**
 * What Stripe does to a payment after it is made, for the test cards that ask for it (resources.ts `TEST_CARDS`):
 * the dispute of pm_card_createDispute, moved on by the test controls, and the later failure of pm_card_refundFail's
 * refunds; and the `refund.created` Stripe sends for every refund.
 */
/** Stripe refuses to refund a charged-back charge (an inquiry, `warning_*`, may still be refunded). */
export function refuseDisputed(charge: StripeObject): void {
  if (charge.disputed)
    throw invalidRequest(`Charge ${charge.id} has been charged back; cannot issue a refund.`, {
      code: 'charge_disputed',
      param: 'charge',
    });
}

const DISPUTE_STATUSES = [
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
const CLOSED_DISPUTE = ['won', 'lost', 'warning_closed', 'prevented'];

export class PaymentFollowUps {
  private readonly disputes = new Map<string, StripeObject>();
  /** Refunds that will fail, each until its failure is emitted: `settle` waits for them. */
  private readonly failing = new Set<Promise<void>>();

  constructor(private readonly emit: Emit) {}

  /**
   * The cardholder's bank disputes the charge (pm_card_createDispute): Stripe takes the amount back, marks the charge
   * `disputed` (refunds refused from now: `charge_disputed`) and sends `charge.dispute.created`, `needs_response`.
   */
  openDispute(charge: StripeObject): void {
    const dispute: StripeObject = {
      id: stripeId('dp'),
      object: 'dispute',
      amount: charge.amount,
      balance_transactions: [],
      charge: charge.id,
      created: now(),
      currency: charge.currency,
      evidence_details: { due_by: now() + 7 * 24 * 3600, has_evidence: false, past_due: false, submission_count: 0 },
      is_charge_refundable: false,
      livemode: false,
      metadata: {},
      payment_intent: charge.payment_intent,
      reason: 'fraudulent',
      status: 'needs_response',
    };
    this.disputes.set(dispute.id, dispute);
    Object.assign(charge, { disputed: true });
    this.emit('charge.dispute.created', dispute, charge.payment_intent as string);
  }

  /** A dispute moves on (the test control `POST /_stand-in/disputes/{id}` `{status}`): updated, or closed (won, lost). */
  moveDispute(id: string, status: string): StripeObject {
    const dispute = this.disputes.get(id);
    if (!dispute) throw missing('dispute', id);
    if (!DISPUTE_STATUSES.includes(status)) throw invalidRequest(`Invalid status: ${status}`, { param: 'status' });
    if (CLOSED_DISPUTE.includes(dispute.status as string))
      throw invalidRequest(`Dispute ${id} is closed (${dispute.status}).`, { code: 'dispute_already_closed' });
    dispute.status = status;
    const closed = CLOSED_DISPUTE.includes(status);
    this.emit(closed ? 'charge.dispute.closed' : 'charge.dispute.updated', dispute, dispute.payment_intent as string);
    return dispute;
  }

  /** The disputes of one PaymentIntent (the test controls find a payment's dispute by it). */
  disputesOf(paymentIntent: string): StripeObject[] {
    return [...this.disputes.values()].filter((dispute) => dispute.payment_intent === paymentIntent);
  }

  /**
   * What Stripe sends for every refund: `refund.created` (before `charge.refunded`); and for a card that refuses refunds (pm_card_refundFail),
   * a little later the refund `failed` (`failure_reason` a closed card), the charge's refunded amount back, and
   * `refund.updated`, `refund.failed`, `charge.refund.updated`.
   */
  followRefund(refund: StripeObject, charge: StripeObject, fails: boolean): void {
    const intent = charge.payment_intent as string;
    this.emit('refund.created', refund, intent);
    if (!fails) return;
    const failure = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      Object.assign(refund, { status: 'failed', failure_reason: 'expired_or_canceled_card' });
      Object.assign(charge, {
        refunded: false,
        amount_refunded: (charge.amount_refunded as number) - (refund.amount as number),
      });
      for (const type of ['refund.updated', 'refund.failed', 'charge.refund.updated']) this.emit(type, refund, intent);
    });
    this.failing.add(failure);
    void failure.finally(() => this.failing.delete(failure));
  }

  /** Waits until every refund due to fail has failed (its events emitted). */
  async settle(): Promise<void> {
    while (this.failing.size) await Promise.allSettled([...this.failing]);
  }
}
