import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { PAID_ORDER_FILTER } from '#shared/data/paid-order-filter';
import { logger } from '#shared/logger';
import { handler as issuePaidOrders } from '../../functions/jobs/issue-paid-orders.ts';
import type { FailedBatch } from '../maintenance/replay-ticket-changes.ts';
import { runAs } from './invoke.ts';
import { startStreamPoller, type StreamPoller } from './stream-poller.ts';

/**
 * The paid orders' issue behind the Stripe webhook (infra/paid-order-issuing.ts), in-process for `npm start`, the
 * on-sale load and the tests that read a stream: the local poller feeds the same handler the records the event
 * source mapping's filter (PAID_ORDER_FILTER) passes. A batch it gives up on is logged and its pointer kept, as the
 * deployed on-failure queue would hold it; the sweep of stuck orders issues those orders. Load it after the
 * environment is set: it imports shared/.
 */
export interface OrderIssuer extends StreamPoller {
  /** Every batch the consumer was handed, in order (a test counts how often it was handed an order). */
  readonly batches: DynamoDBStreamEvent[];
  /** The pointers to the batches given up on. */
  readonly givenUp: FailedBatch[];
  /** The consumer down and back: while paused, the records read wait, as in the stream while a mapping is disabled. */
  pause(): void;
  resume(): void;
}

export async function startOrderIssuer(options: {
  tableName: string;
  startingPosition?: 'LATEST' | 'TRIM_HORIZON';
  maxRetries?: number;
}): Promise<OrderIssuer> {
  const givenUp: FailedBatch[] = [];
  const batches: DynamoDBStreamEvent[] = [];
  let paused: { resume: () => void; resumed: Promise<void> } | undefined;
  const poller = await startStreamPoller({
    tableName: options.tableName,
    handler: async (event) => {
      await paused?.resumed;
      batches.push(event);
      return runAs('issue-paid-orders', () => issuePaidOrders(event));
    },
    filter: PAID_ORDER_FILTER,
    startingPosition: options.startingPosition ?? 'LATEST',
    intervalMs: 50,
    ...(options.maxRetries !== undefined && { maxRetries: options.maxRetries }),
    onFailure: (records: DynamoDBRecord[], error, pointer) => {
      givenUp.push(pointer);
      logger.error('paid orders given up by the issuing consumer: the sweep issues them', {
        records: records.length,
        pointer,
        error,
      });
    },
  });
  const resume = () => {
    paused?.resume();
    paused = undefined;
  };
  return {
    drain: () => poller.drain(),
    stop: () => {
      resume();
      return poller.stop();
    },
    batches,
    givenUp,
    pause() {
      let release!: () => void;
      const resumed = new Promise<void>((resolve) => {
        release = resolve;
      });
      paused ??= { resume: release, resumed };
    },
    resume,
  };
}
