import { DescribeStreamCommand, type DynamoDBStreamsClient, type Shard } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { FailedBatch } from '../maintenance/replay-ticket-changes.ts';
import type { FilterPattern } from './event-filter.ts';

/**
 * The local stream poller's contract and its view of the stream: the options, the connection
 * and the shards (stream-poller.ts starts a poller, stream-shard-reader.ts reads the shards).
 */

export interface StreamPoller {
  /**
   * Resolves once the poller has read every shard to its end after this call (a read that
   * found no records) and the handler calls for what it read have finished: a record
   * written before the call has been delivered, filtered out or handed to `onFailure`.
   * Rejects when a read fails meanwhile, or when the poller is stopped first.
   */
  drain(): Promise<void>;
  /** Stops polling; resolves once the handler call in flight, if any, has finished. */
  stop(): Promise<void>;
}

export interface StreamPollerOptions {
  tableName: string;
  // biome-ignore lint/suspicious/noConfusingVoidType: the shape of aws-lambda's DynamoDBStreamHandler
  handler: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | void>;
  /** The event source mapping's filter pattern (bin/local/event-filter.ts); records that don't match are dropped. */
  filter?: FilterPattern;
  /** The most records per handler call; default 100 (the mapping's BatchSize). */
  batchSize?: number;
  /** Milliseconds between reads that found nothing, and before each retry; default 250. */
  intervalMs?: number;
  /** Where to start in the shards open at start-up; default LATEST (shards opened later are read from their start). */
  startingPosition?: 'LATEST' | 'TRIM_HORIZON';
  /** Retries of a failing record (MaximumRetryAttempts); default 3, then `onFailure`. */
  maxRetries?: number;
  /**
   * The on-failure destination: the records given up on (the failing one and those after it in its
   * batch), and the pointer to them Lambda would send an on-failure queue (shard and sequence numbers).
   */
  onFailure?: (records: DynamoDBRecord[], error: unknown, pointer: FailedBatch) => void;
  /** Where DynamoDB Local is; default the environment, as every client of bin/local finds it (AWS_ENDPOINT_URL_DYNAMODB). */
  connection?: StreamConnection;
}

export interface StreamConnection {
  endpoint?: string;
  region?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** Every shard of the stream, closed and open. */
export async function listShards(streams: DynamoDBStreamsClient, streamArn: string): Promise<Shard[]> {
  const shards: Shard[] = [];
  let after: string | undefined;
  do {
    const { StreamDescription: description } = await streams.send(
      new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: after }),
    );
    shards.push(...(description?.Shards ?? []));
    after = description?.LastEvaluatedShardId;
  } while (after);
  return shards;
}
