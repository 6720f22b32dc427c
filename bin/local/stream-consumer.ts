import type { DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '#shared/logger';
import type { FailedBatch } from '../maintenance/replay-ticket-changes.ts';
import { runAs } from './invoke.ts';
import { startStreamPoller, type StreamPoller, type StreamPollerOptions } from './stream-poller.ts';

/**
 * A stream consumer as its event source mapping runs it in AWS, in-process for `npm start`, the loads and the tests:
 * the local poller hands the job's handler (run as the job, its grant recorded) the records the mapping's filter
 * passes. A batch it gives up on is logged and its pointer kept, as the deployed on-failure queue would hold it.
 * Load it after the environment is set: its handlers import shared/.
 */
export interface LocalConsumer extends StreamPoller {
  /** Every batch the consumer was handed, in order (a test counts or replays them). */
  readonly batches: DynamoDBStreamEvent[];
  /** The pointers to the batches given up on: what the deployed on-failure queue would hold. */
  readonly givenUp: FailedBatch[];
  /** The consumer down and back: while paused, the records read wait, as in the stream while a mapping is disabled. */
  pause(): void;
  resume(): void;
}

export interface LocalConsumerOptions
  extends Pick<StreamPollerOptions, 'tableName' | 'handler' | 'filter' | 'maxRetries'> {
  /** The job the handler runs as (shared/job-grants.ts). */
  job: string;
  /** What the log says of records given up on. */
  givenUpMessage: string;
  startingPosition?: 'LATEST' | 'TRIM_HORIZON';
}

export async function startLocalConsumer(options: LocalConsumerOptions): Promise<LocalConsumer> {
  const batches: DynamoDBStreamEvent[] = [];
  const givenUp: FailedBatch[] = [];
  let paused: { resume: () => void; resumed: Promise<void> } | undefined;
  const poller = await startStreamPoller({
    tableName: options.tableName,
    handler: async (event) => {
      await paused?.resumed;
      batches.push(event);
      return runAs(options.job, () => options.handler(event));
    },
    filter: options.filter,
    startingPosition: options.startingPosition ?? 'LATEST',
    intervalMs: 50,
    ...(options.maxRetries !== undefined && { maxRetries: options.maxRetries }),
    onFailure: (records, error, pointer) => {
      givenUp.push(pointer);
      logger.error(options.givenUpMessage, { records: records.length, pointer, error });
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
