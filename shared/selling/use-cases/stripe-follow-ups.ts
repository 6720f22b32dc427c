import type Stripe from 'stripe';
import * as z from '../../schema.ts';
import { Currency, idOf, Metadata, Reference, readObject } from './stripe-objects.ts';
import { followStripeDispute } from './disputes.ts';
import { followStripeRefund } from './refund-failures.ts';

/**
 * The events that follow a payment after it is made, by type (stripe-events.ts takes them into its table): a
 * dispute's (disputes.ts) and a refund's change of status (refund-failures.ts). Stripe sends each of the three refund
 * types for one failure; each handler changes nothing twice.
 */

const DisputeObject = z.lazy(() =>
  z.looseObject({
    id: z.string(),
    status: z.string(),
    reason: z.string(),
    amount: z.int().check(z.nonnegative()),
    currency: Currency,
    payment_intent: Reference,
  }),
);
const RefundObject = z.lazy(() =>
  z.looseObject({
    id: z.string(),
    amount: z.int().check(z.nonnegative()),
    currency: Currency,
    status: z.nullish(z.string()),
    payment_intent: Reference,
    created: z.int(),
    metadata: Metadata,
    failure_reason: z.nullish(z.string()),
  }),
);

async function followDispute(event: Stripe.Event): Promise<void> {
  const dispute = readObject(event, DisputeObject);
  if (!dispute) return;
  await followStripeDispute(
    {
      id: dispute.id,
      status: dispute.status as Stripe.Dispute.Status,
      reason: dispute.reason,
      amount: dispute.amount,
      currency: dispute.currency,
      paymentIntent: idOf(dispute.payment_intent),
    },
    event,
  );
}

async function followRefund(event: Stripe.Event): Promise<void> {
  const refund = readObject(event, RefundObject);
  if (!refund) return;
  await followStripeRefund(
    {
      id: refund.id,
      amount: refund.amount,
      currency: refund.currency,
      status: refund.status ?? null,
      paymentIntent: idOf(refund.payment_intent),
      created: refund.created,
      metadata: refund.metadata ?? {},
      failureReason: refund.failure_reason ?? null,
    },
    event.id,
  );
}

export const followUpHandlers = {
  'charge.dispute.created': followDispute,
  'charge.dispute.updated': followDispute,
  'charge.dispute.closed': followDispute,
  'refund.updated': followRefund,
  'refund.failed': followRefund,
  'charge.refund.updated': followRefund,
} satisfies Partial<Record<Stripe.Event.Type, (event: Stripe.Event) => Promise<void>>>;
