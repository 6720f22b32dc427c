import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { type TicketChange, ticketChangeOf } from '../../data/ticket-change-stream.ts';
import { logger } from '../../logger.ts';
import { publishRecorded } from '../../services/metrics.ts';
import { dispatchDueDeliveries } from './dispatch.ts';
import { deliverTicketChanges } from './ticket-changes.ts';

/**
 * The webhooks' two deployed jobs (functions/jobs/, README there), as the route handlers reach the service: through
 * a use case, so functions/ imports no storage or service module. Each publishes the metrics it recorded.
 */

/**
 * The table stream's batch: its ticket changes become webhook deliveries. A change that could not be recorded is
 * reported by its sequence number, and Lambda retries the batch from it (bisecting, then the on-failure queue). No
 * first attempt starts after `attemptUntil` (performance.now()).
 */
export async function ticketChangesJob(
  event: DynamoDBStreamEvent,
  attemptUntil: number | undefined,
): Promise<DynamoDBBatchResponse> {
  const changes = event.Records.map(ticketChangeOf).filter((change): change is TicketChange => change !== undefined);
  try {
    const failedAt = await deliverTicketChanges(changes, attemptUntil);
    return { batchItemFailures: failedAt ? [{ itemIdentifier: failedAt }] : [] };
  } finally {
    publishRecorded();
  }
}

/** The dispatcher's run: the due retries for `budgetMs`, then the oldest undelivered message's age. */
export async function dispatcherJob(budgetMs: number): Promise<void> {
  try {
    const run = await dispatchDueDeliveries(budgetMs);
    if (run.attempted) logger.info('webhook retries attempted', run);
  } finally {
    publishRecorded();
  }
}
