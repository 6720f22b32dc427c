import type { DynamoDBStreamEvent } from 'aws-lambda';
import { WEBHOOK_CHANGE_FILTER } from '#shared/webhooks/data/webhook-change-filter';
import { logger } from '#shared/logger';
import { dispatchDueDeliveries } from '#shared/webhooks/use-cases/dispatch';
import type { FailedBatch } from '../maintenance/replay-ticket-changes.ts';
import { handler as ticketChanges } from '../../functions/jobs/ticket-changes.ts';
import { runAs } from './invoke.ts';
import { startLocalConsumer } from './stream-consumer.ts';

/**
 * What AWS runs for the webhooks (infra/webhooks.ts), in-process for `npm start`, the tests and
 * `npm run load:gate`: the table stream's consumer fed by the local poller (the same handler and
 * filter as the event source mapping), and the dispatcher on a timer instead of every minute.
 * Load it after the environment is set: it imports shared/.
 */
export interface WebhookWorkers {
  /** Resolves once every change written so far has been read and its first attempts made. */
  drain(): Promise<void>;
  /** One dispatcher run now (the due retries); the number attempted. */
  dispatch(): Promise<number>;
  /** Stops the timer, and resolves once a run already going has ended: after it, nothing attempts a due delivery. */
  stopDispatcher(): Promise<void>;
  startDispatcher(): void;
  /**
   * The consumer down and back: while paused, the records the poller reads wait unprocessed, as
   * they wait in the stream while an event source mapping is disabled; resumed, they go through.
   */
  pauseConsumer(): void;
  resumeConsumer(): void;
  /** Every batch of records the consumer was handed, in order (a test replays one to see it recorded once). */
  readonly batches: DynamoDBStreamEvent[];
  /** The pointers to the batches given up on: what the deployed on-failure queue would hold (`npm run webhooks:replay`). */
  readonly givenUp: FailedBatch[];
  stop(): Promise<void>;
}

export async function startWebhookWorkers(options: {
  tableName: string;
  dispatchEveryMs?: number;
  startingPosition?: 'LATEST' | 'TRIM_HORIZON';
}): Promise<WebhookWorkers> {
  const consumer = await startLocalConsumer({
    tableName: options.tableName,
    job: 'ticket-changes',
    handler: ticketChanges,
    filter: WEBHOOK_CHANGE_FILTER,
    givenUpMessage: 'ticket changes given up by the stream consumer',
    ...(options.startingPosition && { startingPosition: options.startingPosition }),
  });
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  const dispatch = async () => (await runAs('dispatch', () => dispatchDueDeliveries(5_000))).attempted;
  const workers: WebhookWorkers = {
    drain: () => consumer.drain(),
    dispatch,
    batches: consumer.batches,
    givenUp: consumer.givenUp,
    pauseConsumer: () => consumer.pause(),
    resumeConsumer: () => consumer.resume(),
    startDispatcher() {
      // One run at a time: a tick that finds a run going is skipped, as a minute's schedule would find the work done.
      // (Queued instead, a slow table piled runs up faster than they ended, and stop() waited for all of them.)
      timer ??= setInterval(() => {
        running ??= dispatch()
          .catch((error: unknown) => logger.error('webhook dispatcher run failed', { error }))
          .finally(() => {
            running = undefined;
          });
      }, options.dispatchEveryMs ?? 1_000);
    },
    async stopDispatcher() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
    async stop() {
      await workers.stopDispatcher();
      await consumer.stop();
    },
  };
  workers.startDispatcher();
  return workers;
}
