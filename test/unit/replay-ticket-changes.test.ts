import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { failedBatchOf, replayChanges } from '../../bin/maintenance/replay-ticket-changes.ts';

/** What Lambda writes to a DynamoDB stream mapping's on-failure queue (the AWS Lambda guide's example, our names). */
const onFailureRecord = {
  requestContext: {
    requestId: '316aa6d0-8154-4b6c-9af7-85d5f4a6bc81',
    functionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:Ticketing-prod-webhook-ticket-changes',
    condition: 'RetryAttemptsExhausted',
    approximateInvokeCount: 11,
  },
  responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
  version: '1.0',
  timestamp: '2026-11-27T10:13:49.717Z',
  DDBStreamBatchInfo: {
    shardId: 'shardId-00000001573689847184-864758bb',
    startSequenceNumber: '800000000003126276362',
    endSequenceNumber: '800000000003126276370',
    approximateArrivalOfFirstRecord: '2026-11-27T10:13:19Z',
    approximateArrivalOfLastRecord: '2026-11-27T10:13:19Z',
    batchSize: 4,
    streamArn: 'arn:aws:dynamodb:eu-west-1:123456789012:table/ticketing-prod/stream/2026-11-14T00:04:06.388',
  },
};
const info = onFailureRecord.DDBStreamBatchInfo;

describe('failedBatchOf: the pointer in an on-failure message', () => {
  it('reads the shard and the range Lambda names', () => {
    expect(failedBatchOf(JSON.stringify(onFailureRecord))).toEqual({
      shardId: info.shardId,
      startSequenceNumber: info.startSequenceNumber,
      endSequenceNumber: info.endSequenceNumber,
      batchSize: 4,
      streamArn: info.streamArn,
    });
  });

  it.each<[string, string, RegExp]>([
    ['not JSON', '{"DDBStreamBatchInfo":', /not JSON/],
    ['another message', JSON.stringify({ hello: 'world' }), /DDBStreamBatchInfo/],
    [
      'a sequence number that is not digits',
      JSON.stringify({ DDBStreamBatchInfo: { ...info, startSequenceNumber: '12; drop' } }),
      /startSequenceNumber/,
    ],
    [
      'a range that ends before it starts',
      JSON.stringify({ DDBStreamBatchInfo: { ...info, startSequenceNumber: '900', endSequenceNumber: '800' } }),
      /ends before it starts/,
    ],
    ['no stream', JSON.stringify({ DDBStreamBatchInfo: { ...info, streamArn: 'table/x' } }), /streamArn/],
  ])('refuses %s, saying what is wrong', (_, body, reason) => {
    expect(() => failedBatchOf(body)).toThrow(reason);
  });
});

const change = (sequenceNumber: number): DynamoDBRecord => ({
  eventName: 'MODIFY',
  dynamodb: { SequenceNumber: String(sequenceNumber), Keys: { PK: { S: `TICKET#${sequenceNumber}` } } },
});

describe('replayChanges: the changes to the consumer as the mapping hands them', () => {
  it('in batches of at most 100, in order', async () => {
    const handed: DynamoDBStreamEvent[] = [];
    const changes = Array.from({ length: 250 }, (_, n) => change(1000 + n));
    const outcome = await replayChanges(changes, async (event) => {
      handed.push(event);
      return { batchItemFailures: [] };
    });
    expect(outcome).toEqual({ changes: 250, replayed: 250 });
    expect(handed.map((event) => event.Records.length)).toEqual([100, 100, 50]);
    expect(handed.flatMap((event) => event.Records)).toEqual(changes);
  });

  it('stops at the first change the consumer could not record, and says which', async () => {
    const changes = Array.from({ length: 150 }, (_, n) => change(1000 + n));
    let calls = 0;
    const outcome = await replayChanges(changes, async (): Promise<DynamoDBBatchResponse> => {
      calls++;
      return { batchItemFailures: calls === 2 ? [{ itemIdentifier: '1120' }] : [] };
    });
    expect(outcome).toEqual({ changes: 150, replayed: 120, failedAt: '1120' });
    expect(calls).toBe(2);
  });

  it('hands nothing over for a batch with no ticket change left in it', async () => {
    let calls = 0;
    expect(
      await replayChanges([], async () => {
        calls++;
        return { batchItemFailures: [] };
      }),
    ).toEqual({ changes: 0, replayed: 0 });
    expect(calls).toBe(0);
  });
});
