import {
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { WEBHOOK_CHANGE_FILTER } from '#shared/webhooks/data/webhook-change-filter';
import * as z from '#shared/schema';
import { matchesFilter } from '../local/event-filter.ts';
import { toEventRecord } from './stream-records.ts';

/**
 * The repair for the table stream's on-failure queue (infra/webhooks.ts; `npm run webhooks:replay`):
 * each message there is the mapping's pointer to a batch of ticket changes it gave up on (10 failed
 * retries, or 12 hours old) - a shard and a range of sequence numbers, never the records. Once the
 * cause is fixed, the records are read again from the stream (it keeps them 24 hours), filtered as
 * the mapping filters them, and handed to the consumer in batches as the mapping would. A change
 * already recorded records nothing twice (its deliveries' ids come from the change).
 */

const SEQUENCE_NUMBER = z.string().check(z.regex(/^\d{1,64}$/));

/** What Lambda writes to a stream mapping's on-failure destination (its `DDBStreamBatchInfo`; other fields unused). */
const OnFailureRecord = z.object({
  DDBStreamBatchInfo: z.object({
    streamArn: z.string().check(z.startsWith('arn:'), z.maxLength(2048)),
    shardId: z.string().check(z.minLength(1), z.maxLength(128)),
    startSequenceNumber: SEQUENCE_NUMBER,
    endSequenceNumber: SEQUENCE_NUMBER,
    batchSize: z.number().check(z.int(), z.positive()),
  }),
});
export type FailedBatch = z.infer<typeof OnFailureRecord>['DDBStreamBatchInfo'];

/** The batch a message of the on-failure queue points to; throws, saying what is wrong, for any other message. */
export function failedBatchOf(messageBody: string): FailedBatch {
  let json: unknown;
  try {
    json = JSON.parse(messageBody);
  } catch {
    throw new Error('not an on-failure record: the message is not JSON');
  }
  const parsed = OnFailureRecord.safeParse(json);
  if (!parsed.success)
    throw new Error(`not an on-failure record of a DynamoDB stream mapping: ${z.prettifyError(parsed.error)}`);
  const batch = parsed.data.DDBStreamBatchInfo;
  if (BigInt(batch.endSequenceNumber) < BigInt(batch.startSequenceNumber))
    throw new Error('not an on-failure record: its range ends before it starts');
  return batch;
}

/** GetRecords returns at most 1,000 records a call. */
const RECORDS_PER_READ = 1_000;
/**
 * Reads before giving up on reaching the batch's end: a million records between its first and
 * last, more than a shard holds in the hours the mapping retries. An open shard answers empty
 * pages at its tip, forever: this bound is what stops a pointer past the tip.
 */
const MAX_READS = 1_000;

/**
 * The batch's records, read from its shard from its first sequence number to its last, as the
 * mapping handed them to the consumer (the same filter, the same event shape). Throws
 * `TrimmedDataAccessException` when the stream no longer holds them (older than 24 hours).
 */
export async function readFailedBatch(streams: DynamoDBStreamsClient, batch: FailedBatch): Promise<DynamoDBRecord[]> {
  const end = BigInt(batch.endSequenceNumber);
  const { ShardIterator: first } = await streams.send(
    new GetShardIteratorCommand({
      StreamArn: batch.streamArn,
      ShardId: batch.shardId,
      ShardIteratorType: 'AT_SEQUENCE_NUMBER',
      SequenceNumber: batch.startSequenceNumber,
    }),
  );
  const found: DynamoDBRecord[] = [];
  let iterator = first;
  for (let reads = 0; iterator; reads++) {
    if (reads === MAX_READS)
      throw new Error(`${batch.shardId}: ${batch.endSequenceNumber} not reached after ${MAX_READS} reads`);
    const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: RECORDS_PER_READ }));
    for (const record of page.Records ?? []) {
      const at = BigInt(record.dynamodb?.SequenceNumber ?? '0');
      if (at > end) return found;
      const event = toEventRecord(record, batch.streamArn);
      if (matchesFilter(event, WEBHOOK_CHANGE_FILTER)) found.push(event);
      if (at === end) return found;
    }
    iterator = page.NextShardIterator;
  }
  // The shard closed before the range's end: everything it held from the start is here.
  return found;
}

/** The mapping's BatchSize (infra/webhooks.ts TICKET_CHANGE_MAPPING): the consumer is never handed more at once. */
const BATCH_SIZE = 100;

export interface ReplayOutcome {
  /** Ticket changes read from the stream for the batch. */
  changes: number;
  /** Of those, handed to the consumer and recorded (or found recorded already). */
  replayed: number;
  /** The sequence number the consumer could not record, when it could not: the pointer stays for another try. */
  failedAt?: string;
}

/** Hands the changes to the consumer in the mapping's batches, stopping at the first it cannot record. */
export async function replayChanges(
  changes: readonly DynamoDBRecord[],
  consume: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>,
): Promise<ReplayOutcome> {
  for (let at = 0; at < changes.length; at += BATCH_SIZE) {
    const batch = changes.slice(at, at + BATCH_SIZE);
    const { batchItemFailures } = await consume({ Records: batch });
    const failedAt = batchItemFailures[0]?.itemIdentifier;
    if (failedAt) {
      const recorded = batch.findIndex((record) => record.dynamodb?.SequenceNumber === failedAt);
      return { changes: changes.length, replayed: at + Math.max(recorded, 0), failedAt };
    }
  }
  return { changes: changes.length, replayed: changes.length };
}
