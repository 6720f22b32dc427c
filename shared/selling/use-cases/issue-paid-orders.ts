import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { type PaidOrderChange, paidOrderOf } from '../data/paid-order-stream.ts';
import { logger } from '../../logger.ts';
import { publishRecorded } from '../../services/metrics.ts';
import { inTurns } from '../../in-turns.ts';
import { issuePaidOrder } from './checkout-payment.ts';
import { invoiceOrFileDue } from './invoices-due.ts';

/**
 * Orders one invocation issues at once. A batch's orders are independent (each issue is conditional on its own
 * order), so they need not wait for each other; 10 keeps one invocation's DynamoDB calls in flight near the SDK's
 * 50 sockets (an order's issue sends a few at a time) and a batch of 100 at about ten orders' issue time.
 */
export const ORDERS_AT_ONCE = 10;

/**
 * The issuing consumer's batch (functions/jobs/issue-paid-orders.ts): the orders the webhook claimed (`pending` with
 * their payment, PAID_ORDER_FILTER), each issued by checkout-payment.ts `issuePaidOrder`, which resumes what an
 * earlier attempt issued and leaves an order that is no longer `pending`. An order that fails is logged; the batch
 * reports the first failed record's sequence number, and Lambda retries the batch from it (bisecting, then the
 * on-failure queue; the sweep of stuck orders finishes whatever is left: sweep-stuck-orders.ts). Orders after it in
 * the batch that were issued are handed over again and change nothing.
 */
export async function issuePaidOrdersJob(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const changes = event.Records.map(paidOrderOf).filter((change): change is PaidOrderChange => change !== undefined);
  try {
    const failed = await inTurns(changes, ORDERS_AT_ONCE, issueOne);
    const invoiced = await invoiceIssued(changes.filter((_, at) => !failed[at]));
    const first = changes.find((_, at) => failed[at] || !invoiced);
    return { batchItemFailures: first ? [{ itemIdentifier: first.sequenceNumber }] : [] };
  } finally {
    publishRecorded();
  }
}

/** True when the order's issue failed (and is to be retried). */
async function issueOne({ orderId }: PaidOrderChange): Promise<boolean> {
  try {
    await issuePaidOrder(orderId);
    return false;
  } catch (error) {
    logger.error('paid order not issued: retried', { orderId, error: error as Error });
    return true;
  }
}

/**
 * The batch's issued orders invoiced together (invoices.ts: one transaction per series of the seller among them, so
 * each series' counter is written once per batch, not once per order); when that fails, filed as due and numbered by
 * the every-minute job (invoices-due.ts), so the batch is not retried for it. False only when the filing failed too:
 * the batch is retried, which issues nothing twice and invoices only the orders still without an invoice.
 */
async function invoiceIssued(issued: readonly PaidOrderChange[]): Promise<boolean> {
  try {
    await invoiceOrFileDue(issued.map((change) => change.orderId));
    return true;
  } catch (error) {
    logger.error('paid orders neither invoiced nor filed as due: retried', {
      orderIds: issued.map((change) => change.orderId),
      error: error as Error,
    });
    return false;
  }
}
