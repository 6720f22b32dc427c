import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { ticketChangesJob } from '#shared/webhooks/use-cases/jobs';

/**
 * The table stream's consumer (infra/webhooks.ts; locally bin/local/stream-poller.ts feeds it
 * the same records): ticket changes become webhook deliveries. Not a route: a job beside the
 * route handlers (README here). It first writes the changed tickets' list entries, positions and search entries (shared/lists/README.md), and the changed orders' list entries their writers did not (shared/selling/data/order-list-entries.ts). A change that could not be recorded is reported by its sequence
 * number, and Lambda retries the batch from it (bisecting, then the on-failure queue).
 */
/** Time kept back from the function's limit: the answer (first attempts end within their 1 s window, ticket-changes.ts in use-cases). */
const MARGIN_MS = 30_000;

export async function handler(
  event: DynamoDBStreamEvent,
  context?: Pick<Context, 'getRemainingTimeInMillis'>,
): Promise<DynamoDBBatchResponse> {
  // First attempts stop starting before the function's time runs out: the rest are the dispatcher's.
  const attemptUntil = context ? performance.now() + context.getRemainingTimeInMillis() - MARGIN_MS : undefined;
  return ticketChangesJob(event, attemptUntil);
}
