import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { assertFilterPattern } from './event-filter.ts';
import {
  listShards,
  type StreamConnection,
  type StreamPoller,
  type StreamPollerOptions,
} from './stream-poller-options.ts';
import { Poller } from './stream-shard-reader.ts';

/**
 * The local stand-in for a Lambda event source mapping on the table's stream: reads
 * DynamoDB Local's stream (the real Streams API, through the real SDK client) and calls a
 * stream handler with the events Lambda would send it, filtered, batched, retried and
 * finally handed to an on-failure destination as the mapping does in AWS.
 *
 * Like a mapping with ParallelizationFactor 1, ReportBatchItemFailures on and
 * BisectBatchOnFunctionError off: one batch at a time per shard, in the shard's order; a
 * shard's children are read once it is read to its end. Shards are read one after the
 * other, not in parallel (order across shards is not promised in AWS either).
 *
 * Measured on DynamoDB Local 1.25.1: a write's record is readable as soon as the write has
 * answered; one shard per table, rolled over (closed, a child opened) every 4 hours;
 * iterators expire after 15 minutes (ExpiredIteratorException), records after 24 hours.
 */

export type { StreamConnection, StreamPoller, StreamPollerOptions } from './stream-poller-options.ts';

export async function startStreamPoller(options: StreamPollerOptions): Promise<StreamPoller> {
  const settings = {
    batchSize: options.batchSize ?? 100,
    intervalMs: options.intervalMs ?? 250,
    maxRetries: options.maxRetries ?? 3,
  };
  if (!Number.isInteger(settings.batchSize) || settings.batchSize < 1)
    throw new RangeError(`batchSize must be a positive integer, got ${settings.batchSize}`);
  if (!(settings.intervalMs > 0)) throw new RangeError(`intervalMs must be positive, got ${settings.intervalMs}`);
  if (!(settings.maxRetries >= 0)) throw new RangeError(`maxRetries must be 0 or more, got ${settings.maxRetries}`);
  if (options.filter) assertFilterPattern(options.filter);

  const { tables, streams } = clients(options.connection);
  try {
    const { Table: table } = await tables.send(new DescribeTableCommand({ TableName: options.tableName }));
    const streamArn = table?.StreamSpecification?.StreamEnabled ? table.LatestStreamArn : undefined;
    if (!streamArn)
      throw new Error(
        `table ${options.tableName} has no stream: bin/local/table.ts creates one, but leaves a table created before alone`,
      );
    const poller = new Poller(options, settings, tables, streams, streamArn);
    await poller.begin(await listShards(streams, streamArn), options.startingPosition ?? 'LATEST');
    return poller;
  } catch (error) {
    tables.destroy();
    streams.destroy();
    throw error;
  }
}

function clients(connection: StreamConnection = {}): { tables: DynamoDBClient; streams: DynamoDBStreamsClient } {
  // The SDK would read AWS_ENDPOINT_URL_DYNAMODB_STREAMS by itself, but the stand-ins set only the DynamoDB one,
  // which serves both APIs. No endpoint, no poller: it must never read a table in AWS.
  const endpoint =
    connection.endpoint ?? process.env.AWS_ENDPOINT_URL_DYNAMODB_STREAMS ?? process.env.AWS_ENDPOINT_URL_DYNAMODB;
  if (!endpoint) throw new Error('the stream poller reads DynamoDB Local only: set AWS_ENDPOINT_URL_DYNAMODB');
  const config = {
    endpoint,
    ...(connection.region && { region: connection.region }),
    ...(connection.credentials && { credentials: connection.credentials }),
  };
  const tables = new DynamoDBClient(config);
  const streams = new DynamoDBStreamsClient(config);
  // As the API's client (shared/aws-clients.ts `withoutSdkLogging`, not imported: it reads the environment when
  // loaded): the poller shares the API's process and CPU here.
  tables.middlewareStack.remove('loggerMiddleware');
  streams.middlewareStack.remove('loggerMiddleware');
  return { tables, streams };
}
