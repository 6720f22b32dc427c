import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  type GetRecordsOutput,
  GetShardIteratorCommand,
  type Shard,
  type ShardIteratorType,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { FailedBatch } from '../maintenance/replay-ticket-changes.ts';
import { toEventRecord } from '../maintenance/stream-records.ts';
import { assertFilterPattern, type FilterPattern, matchesFilter } from './event-filter.ts';

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
  return { tables: new DynamoDBClient(config), streams: new DynamoDBStreamsClient(config) };
}

async function listShards(streams: DynamoDBStreamsClient, streamArn: string): Promise<Shard[]> {
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

interface ShardCursor {
  shardId: string;
  iterator: string;
  /** Where a fresh iterator starts when this one expires, until a record has been read. */
  start: ShardIteratorType;
  lastSequenceNumber?: string;
}

interface DrainWaiter {
  /** The rounds started when drain() was called: a later round that reads nothing settles it. */
  after: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** GetRecords returns at most 1,000 records. */
const MAX_RECORDS_PER_READ = 1_000;

class Poller implements StreamPoller {
  /** Every shard read or deliberately skipped, so a child is opened once. */
  private readonly taken = new Set<string>();
  private readonly cursors = new Map<string, ShardCursor>();
  /** Shards read to their end whose children have not appeared yet. */
  private readonly closed = new Set<string>();
  private drains: DrainWaiter[] = [];
  private rounds = 0;
  private stopped = false;
  private stopping?: Promise<void>;
  private running?: Promise<void>;
  private wake?: () => void;

  constructor(
    private readonly options: StreamPollerOptions,
    private readonly settings: { batchSize: number; intervalMs: number; maxRetries: number },
    private readonly tables: DynamoDBClient,
    private readonly streams: DynamoDBStreamsClient,
    private readonly streamArn: string,
  ) {}

  /** Positions the poller in the stream's shards and starts polling. */
  async begin(shards: Shard[], position: 'LATEST' | 'TRIM_HORIZON'): Promise<void> {
    // LATEST: the tip of the open shards, nothing closed. TRIM_HORIZON: everything, the oldest shards first.
    const listed = new Set(shards.map((shard) => shard.ShardId!));
    const first = shards.filter((shard) =>
      position === 'LATEST'
        ? !shard.SequenceNumberRange?.EndingSequenceNumber
        : !shard.ParentShardId || !listed.has(shard.ParentShardId),
    );
    for (const shard of position === 'LATEST' ? shards : first) this.taken.add(shard.ShardId!);
    for (const shard of first) await this.open(shard.ShardId!, position);
    this.running = this.run();
  }

  drain(): Promise<void> {
    if (this.stopped) return Promise.reject(new Error('the stream poller is stopped'));
    return new Promise((resolve, reject) => {
      this.drains.push({ after: this.rounds, resolve, reject });
      this.wake?.();
    });
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.stopped = true;
      this.wake?.();
      await this.running;
      this.settleDrains(
        () => true,
        (waiter) => waiter.reject(new Error('the stream poller was stopped')),
      );
      this.tables.destroy();
      this.streams.destroy();
    })();
    return this.stopping;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const round = ++this.rounds;
      let busy = false;
      try {
        busy = await this.readAll();
      } catch (error) {
        if (this.stopped) break;
        console.warn(`stream poller (${this.options.tableName}): reading the stream failed, trying again:`, error);
        this.settleDrains(
          () => true,
          (waiter) => waiter.reject(error),
        );
      }
      if (this.stopped) break;
      if (busy) continue;
      this.settleDrains(
        (waiter) => waiter.after < round,
        (waiter) => waiter.resolve(),
      );
      // A drain() that came during this round needs one more, at once.
      if (this.drains.length === 0) await this.pause(this.settings.intervalMs);
    }
  }

  /** One round: every shard read once and what it held delivered. True when a shard had records, closed or opened. */
  private async readAll(): Promise<boolean> {
    let busy = this.closed.size > 0 && (await this.openChildren());
    for (const cursor of [...this.cursors.values()]) {
      if (this.stopped) break;
      busy = (await this.readShard(cursor)) || busy;
    }
    return busy;
  }

  private async readShard(cursor: ShardCursor): Promise<boolean> {
    const output = await this.getRecords(cursor);
    const records = output.Records ?? [];
    const last = records.at(-1)?.dynamodb?.SequenceNumber;
    if (last) cursor.lastSequenceNumber = last;
    const events = records
      .map((record) => toEventRecord(record, this.streamArn))
      .filter((record) => !this.options.filter || matchesFilter(record, this.options.filter));
    for (let at = 0; at < events.length && !this.stopped; at += this.settings.batchSize)
      await this.deliver(cursor.shardId, events.slice(at, at + this.settings.batchSize));
    if (output.NextShardIterator) {
      cursor.iterator = output.NextShardIterator;
      return records.length > 0;
    }
    // No next iterator: the shard is closed and read to its end; its children carry on.
    this.cursors.delete(cursor.shardId);
    this.closed.add(cursor.shardId);
    return true;
  }

  private async getRecords(cursor: ShardCursor): Promise<GetRecordsOutput> {
    const read = () =>
      this.streams.send(new GetRecordsCommand({ ShardIterator: cursor.iterator, Limit: MAX_RECORDS_PER_READ }));
    try {
      return await read();
    } catch (error) {
      const name = (error as Error).name;
      if (name !== 'ExpiredIteratorException' && name !== 'TrimmedDataAccessException') throw error;
      // Expired: a round took over 15 minutes (a slow handler, a laptop asleep). Trimmed: records older than 24 hours
      // are gone, so start from the oldest left.
      cursor.iterator =
        name === 'ExpiredIteratorException' && cursor.lastSequenceNumber
          ? await this.iterator(cursor.shardId, 'AFTER_SEQUENCE_NUMBER', cursor.lastSequenceNumber)
          : await this.iterator(cursor.shardId, name === 'ExpiredIteratorException' ? cursor.start : 'TRIM_HORIZON');
      return read();
    }
  }

  private async iterator(shardId: string, type: ShardIteratorType, sequenceNumber?: string): Promise<string> {
    const { ShardIterator: iterator } = await this.streams.send(
      new GetShardIteratorCommand({
        StreamArn: this.streamArn,
        ShardId: shardId,
        ShardIteratorType: type,
        SequenceNumber: sequenceNumber,
      }),
    );
    if (!iterator) throw new Error(`no ${type} iterator for shard ${shardId} of ${this.streamArn}`);
    return iterator;
  }

  private async open(shardId: string, start: ShardIteratorType): Promise<void> {
    this.taken.add(shardId);
    this.cursors.set(shardId, { shardId, start, iterator: await this.iterator(shardId, start) });
  }

  /** Opens the children of the shards read to their end, from their start. True when one was found. */
  private async openChildren(): Promise<boolean> {
    const shards = await listShards(this.streams, this.streamArn);
    let found = false;
    for (const parent of [...this.closed]) {
      const children = shards.filter((shard) => shard.ParentShardId === parent && !this.taken.has(shard.ShardId!));
      for (const child of children) await this.open(child.ShardId!, 'TRIM_HORIZON');
      if (children.length > 0) {
        this.closed.delete(parent);
        found = true;
      }
    }
    return found;
  }

  /** Calls the handler until the batch is through, retrying from the first failed record, then gives up on it. */
  private async deliver(shardId: string, batch: DynamoDBRecord[]): Promise<void> {
    let pending = batch;
    let failing: { sequenceNumber: string; failures: number } | undefined;
    while (pending.length > 0 && !this.stopped) {
      const failure = await this.invoke(pending);
      if (!failure) return;
      pending = pending.slice(failure.from);
      const sequenceNumber = pending[0]!.dynamodb!.SequenceNumber!;
      failing = { sequenceNumber, failures: failing?.sequenceNumber === sequenceNumber ? failing.failures + 1 : 1 };
      if (failing.failures > this.settings.maxRetries) {
        this.giveUp(shardId, pending, failure.error);
        return;
      }
      await this.pause(this.settings.intervalMs);
    }
  }

  /** One handler call: undefined when it succeeded, else where to retry from and why. */
  private async invoke(batch: DynamoDBRecord[]): Promise<{ from: number; error: unknown } | undefined> {
    let response: DynamoDBBatchResponse | undefined;
    try {
      response = (await this.options.handler({ Records: batch })) ?? undefined;
    } catch (error) {
      return { from: 0, error };
    }
    const failures = response?.batchItemFailures ?? [];
    if (failures.length === 0) return undefined;
    // For streams the itemIdentifier is the SequenceNumber; Lambda retries from the lowest one reported, and treats
    // one it can't find in the batch (empty, unknown) as a failure of the whole batch.
    const positions = failures.map((failure) =>
      batch.findIndex((record) => record.dynamodb?.SequenceNumber === failure.itemIdentifier),
    );
    if (positions.includes(-1)) {
      const unknown = failures.filter((_, at) => positions[at] === -1).map((failure) => failure.itemIdentifier);
      return {
        from: 0,
        error: new Error(`batchItemFailures names records not in the batch: ${JSON.stringify(unknown)}`),
      };
    }
    const from = Math.min(...positions);
    return {
      from,
      error: new Error(`batchItemFailures reported record ${batch[from]!.dynamodb!.SequenceNumber} as failed`),
    };
  }

  private giveUp(shardId: string, records: DynamoDBRecord[], error: unknown): void {
    if (!this.options.onFailure) {
      const numbers = records.map((record) => record.dynamodb?.SequenceNumber);
      console.warn(
        `stream poller (${this.options.tableName}): gave up on ${records.length} record(s) after ${this.settings.maxRetries} retries (sequence numbers ${numbers[0]}–${numbers.at(-1)}):`,
        error,
      );
      return;
    }
    try {
      this.options.onFailure(records, error, {
        streamArn: this.streamArn,
        shardId,
        startSequenceNumber: records[0]!.dynamodb!.SequenceNumber!,
        endSequenceNumber: records.at(-1)!.dynamodb!.SequenceNumber!,
        batchSize: records.length,
      });
    } catch (failed) {
      console.warn(`stream poller (${this.options.tableName}): onFailure threw:`, failed);
    }
  }

  private settleDrains(which: (waiter: DrainWaiter) => boolean, settle: (waiter: DrainWaiter) => void): void {
    const settled = this.drains.filter(which);
    this.drains = this.drains.filter((waiter) => !which(waiter));
    for (const waiter of settled) settle(waiter);
  }

  /** Waits `ms`, or less when drain() or stop() wakes the poller. */
  private pause(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }
}
