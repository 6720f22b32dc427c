import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import { expect } from 'vitest';
import { keys } from '#shared/data/keys';
import { getOrder } from '#shared/selling/data/orders';
import type { Order } from '#shared/selling/domain/order';
import { issuePaidOrder } from '#shared/selling/use-cases/checkout-payment';
import { claimPayment, type Payment } from '#shared/selling/use-cases/payment-claim';
import { handler as issuePaidOrders } from '../../functions/jobs/issue-paid-orders.ts';
import { runAs } from '../../bin/local/invoke.ts';

/**
 * The issuing consumer's turn for an order the Stripe webhook claimed, on the tests' shared table, which has no stream
 * (test/support/env.ts): the consumer's handler is handed the order's stream record, as the function
 * `issue-paid-orders` (its grant recorded), and reports no failure. The consumer reads only the record's key (it reads
 * the order itself): what the stream and its filter pass is tested on a stream table of its own
 * (test/integration/paid-order-issuing.test.ts). Answers the order as the consumer left it.
 */
export async function issueBehindWebhook(orderId: number | string): Promise<Order> {
  const answer = await handToConsumer(orderId);
  expect(answer.batchItemFailures, `order ${orderId}'s issue failed`).toEqual([]);
  return (await getOrder(Number(orderId)))!;
}

/** The consumer's handler handed the order's record alone (its sequence number the order's id), as it answers. */
export function handToConsumer(orderId: number | string): Promise<DynamoDBBatchResponse> {
  const id = Number(orderId);
  const record: DynamoDBRecord = {
    eventName: 'MODIFY',
    dynamodb: { Keys: marshall(keys.order(id)) as never, SequenceNumber: `${id}` },
  };
  return runAs('issue-paid-orders', () => issuePaidOrders({ Records: [record] }));
}

/**
 * A payment as it arrives (`payment_intent.succeeded`), played by the test: the webhook's claim, run as its route, then
 * the issuing consumer's issue, as that job, each with its own grant. The status the order is left in.
 */
export async function payOrder(orderId: number, payment: Payment | null): Promise<Order['status'] | undefined> {
  const status = await runAs('POST /payments/stripe/webhook', () => claimPayment(orderId, payment));
  return status === 'pending' ? runAs('issue-paid-orders', () => issuePaidOrder(orderId)) : status;
}

/** The payment (or a free checkout) recorded and nothing issued yet; then the consumer's turn. */
export async function claimedThenIssued(orderId: number | string): Promise<Order> {
  const claimed = (await getOrder(Number(orderId)))!;
  expect(claimed.status, 'the payment is recorded and the issue left to the consumer').toBe('pending');
  expect(claimed.ticketIds).toEqual([]);
  return issueBehindWebhook(orderId);
}
