import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { eventChangeOf } from '../data/event-change-stream.ts';
import { ticketChangeOf } from '../data/ticket-change-stream.ts';
import { catchUpTicketLists } from '../../lists/list-catch-up.ts';
import { orderEntriesCaughtUp } from '../../selling/data/order-list-entries.ts';
import { keys } from '../../data/keys.ts';
import { logger } from '../../logger.ts';
import { publishRecorded } from '../../services/metrics.ts';
import { dispatchDueDeliveries } from './dispatch.ts';
import { deliverChanges, type StreamChange } from './ticket-changes.ts';

/**
 * The webhooks' two deployed jobs (functions/jobs/, README there), as the route handlers reach the service: through
 * a use case, so functions/ imports no storage or service module. Each publishes the metrics it recorded.
 */

const changeOf = (record: DynamoDBRecord): StreamChange | undefined => ticketChangeOf(record) ?? eventChangeOf(record);

/** The order a stream record rewrote (`ORDER#<id>` / `ORDER`), or undefined: another item. */
const orderIdOf = (record: DynamoDBRecord): number | undefined => {
  const { PK, SK } = record.dynamodb?.Keys ?? {};
  return SK?.S === keys.order(0).SK && PK?.S ? Number(PK.S.slice(PK.S.indexOf('#') + 1)) : undefined;
};

/**
 * The table stream's batch: its tickets' list entries, positions and search entries caught up with their records (the
 * lists' part written off the change's transaction, shared/lists/README.md "What the consumer writes") and its orders'
 * list entries with the orders (for a writer that stopped between its transaction and them), then its ticket and event changes become webhook
 * deliveries. One consumer for both, because a stream shard serves two readers at most (the issuing consumer is the
 * other). A change that could not be recorded is reported by its sequence number, and Lambda retries the batch from it
 * (bisecting, then the on-failure queue); list entries that could not be written fail the batch from its first
 * change, before any delivery (writing them again writes nothing twice). No first attempt starts after `attemptUntil`
 * (performance.now()).
 */
export async function ticketChangesJob(
  event: DynamoDBStreamEvent,
  attemptUntil: number | undefined,
): Promise<DynamoDBBatchResponse> {
  const changes = event.Records.map(changeOf).filter((change): change is StreamChange => change !== undefined);
  const orderIds = event.Records.flatMap((record) => orderIdOf(record) ?? []);
  try {
    try {
      await catchUpTicketLists(changes.flatMap((change) => (change.kind === 'ticket' ? [change.after.id] : [])));
      await orderEntriesCaughtUp(orderIds);
    } catch (error) {
      logger.warn("the batch's list entries could not be written: retried from its first record", { error });
      return { batchItemFailures: [{ itemIdentifier: event.Records[0]!.dynamodb?.SequenceNumber ?? '' }] };
    }
    const failedAt = await deliverChanges(changes, attemptUntil);
    return { batchItemFailures: failedAt ? [{ itemIdentifier: failedAt }] : [] };
  } finally {
    publishRecorded();
  }
}

/**
 * The consumer's lists step alone, for tickets the caller names: what the stream's consumer does for their changes.
 * For writers whose table has no consumer reading its stream (the tests' shared table).
 */
export const catchUpTickets = (ticketIds: readonly number[]): Promise<void> => catchUpTicketLists(ticketIds);

/** The consumer's step for orders the caller names: their list entries caught up with them. */
export const catchUpOrders = (orderIds: readonly number[]): Promise<void> => orderEntriesCaughtUp(orderIds);

/** The dispatcher's run: the due retries for `budgetMs`, then the oldest undelivered message's age. */
export async function dispatcherJob(budgetMs: number): Promise<void> {
  try {
    const run = await dispatchDueDeliveries(budgetMs);
    if (run.attempted) logger.info('webhook retries attempted', run);
  } finally {
    publishRecorded();
  }
}
