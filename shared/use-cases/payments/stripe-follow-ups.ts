import type Stripe from 'stripe';
import { toRefund } from '../../services/payments.ts';
import { followStripeDispute } from './disputes.ts';
import { followStripeRefund } from './refund-failures.ts';

/**
 * The events that follow a payment after it is made, by type (stripe-events.ts takes them into its table): a
 * dispute's (disputes.ts) and a refund's change of status (refund-failures.ts). Stripe sends each of the three refund
 * types for one failure; each handler changes nothing twice.
 */

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);

async function followDispute(event: Stripe.Event): Promise<void> {
  if (
    event.type !== 'charge.dispute.created' &&
    event.type !== 'charge.dispute.updated' &&
    event.type !== 'charge.dispute.closed'
  )
    return;
  const dispute = event.data.object;
  await followStripeDispute(
    {
      id: dispute.id,
      status: dispute.status,
      reason: dispute.reason,
      amount: dispute.amount,
      currency: dispute.currency,
      paymentIntent: idOf(dispute.payment_intent),
    },
    event,
  );
}

async function followRefund(event: Stripe.Event): Promise<void> {
  if (event.type !== 'refund.updated' && event.type !== 'refund.failed' && event.type !== 'charge.refund.updated')
    return;
  const refund = event.data.object;
  await followStripeRefund({ ...toRefund(refund), failureReason: refund.failure_reason ?? null }, event.id);
}

export const followUpHandlers = {
  'charge.dispute.created': followDispute,
  'charge.dispute.updated': followDispute,
  'charge.dispute.closed': followDispute,
  'refund.updated': followRefund,
  'refund.failed': followRefund,
  'charge.refund.updated': followRefund,
} satisfies Partial<Record<Stripe.Event.Type, (event: Stripe.Event) => Promise<void>>>;
