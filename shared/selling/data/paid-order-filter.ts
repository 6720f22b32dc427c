import { keys } from '../../data/keys.ts';

/**
 * Which of the table stream's records the issuing consumer reads (shared/README.md "Issuing behind the webhook"), as one
 * Lambda event filter pattern: a checkout's order (its `checkout.reservationId` stored) entering `pending`, paid: the
 * webhook's claim of a Stripe payment, or a free checkout's own (payment-claim.ts `claim`). Only the entry: the order
 * item is rewritten again while it stays `pending` (each issued ticket's record on it), and those records are dropped
 * before any invocation, so an order is handed to the consumer once per claim, not once per ticket. A box-office sale
 * is created `pending` (an INSERT, no checkout) and issued in its request. The event source mapping
 * (infra/paid-order-issuing.ts) and the local poller (bin/local/order-issuer.ts) both pass only these. Its own
 * module, without I/O, so the CDK app can read it.
 */
export const PAID_ORDER_FILTER = {
  eventName: ['MODIFY'],
  dynamodb: {
    Keys: { SK: { S: [keys.order(0).SK] } },
    NewImage: {
      status: { S: ['pending'] },
      checkout: { M: { reservationId: { N: [{ exists: true }] } } },
    },
    OldImage: { status: { S: [{ 'anything-but': ['pending'] }] } },
  },
};
