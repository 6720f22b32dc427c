import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { eventChangeOf } from '../../data/event-change-stream.ts';
import { ticketChangeOf } from '../../data/ticket-change-stream.ts';
import { logger } from '../../logger.ts';
import { publishRecorded } from '../../services/metrics.ts';
import { dispatchDueDeliveries } from './dispatch.ts';
import { deliverChanges, type StreamChange } from './ticket-changes.ts';

/**
 * The webhooks' two deployed jobs (functions/jobs/, README there), as the route handlers reach the service: through
 * a use case, so functions/ imports no storage or service module. Each publishes the metrics it recorded.
 */

const changeOf = (record: DynamoDBRecord): StreamChange | undefined => ticketChangeOf(record) ?? eventChangeOf(record);

/**
 * The table stream's batch: its ticket and event changes become webhook deliveries. A change that could not be recorded is
 * reported by its sequence number, and Lambda retries the batch from it (bisecting, then the on-failure queue). No
 * first attempt starts after `attemptUntil` (performance.now()).
 */
export async function ticketChangesJob(
  event: DynamoDBStreamEvent,
  attemptUntil: number | undefined,
): Promise<DynamoDBBatchResponse> {
  const changes = event.Records.map(changeOf).filter((change): change is StreamChange => change !== undefined);
  try {
    const failedAt = await deliverChanges(changes, attemptUntil);
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
