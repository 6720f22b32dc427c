import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  type GetRecordsOutput,
  GetShardIteratorCommand,
  type Shard,
  type ShardIteratorType,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import { toEventRecord } from '../maintenance/stream-records.ts';
import { matchesFilter } from './event-filter.ts';
import { listShards, type StreamPoller, type StreamPollerOptions } from './stream-poller-options.ts';

/** The stream poller's reading (stream-poller.ts): shard cursors, batches, retries, drain() and stop(). */

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

export class Poller implements StreamPoller {
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
