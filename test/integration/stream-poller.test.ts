import { randomUUID } from 'node:crypto';
import { CreateTableCommand, DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { FilterPattern } from '../../bin/local/event-filter.ts';
import { type StreamPoller, type StreamPollerOptions, startStreamPoller } from '../../bin/local/stream-poller.ts';
import { ownStreamTable } from '../support/env.ts';
import { createOwnTable, dropOwnTable } from '../support/fuzz-table.ts';

// The file's own table with a stream (test/support/env.ts OWN_STREAM_TABLES): each test keys its items under a prefix
// of its own and filters on it or looks only at it.
const POLLER_TABLE = ownStreamTable('poller');
const dynamo = new DynamoDBClient({});
const db = DynamoDBDocumentClient.from(dynamo);
const pollers: StreamPoller[] = [];

afterEach(async () => {
  await Promise.all(pollers.splice(0).map((poller) => poller.stop()));
});
afterAll(() => dynamo.destroy());

const newPrefix = () => `POLLERTEST#${randomUUID()}`;
const put = (item: Record<string, unknown>, tableName = POLLER_TABLE) =>
  db.send(new PutCommand({ TableName: tableName, Item: item }));
const onlyPrefix = (prefix: string): FilterPattern => ({ dynamodb: { Keys: { PK: { S: [{ prefix }] } } } });
const pkOf = (record: DynamoDBRecord) => record.dynamodb?.Keys?.PK?.S;
const mine = (records: DynamoDBRecord[], prefix: string) =>
  records.filter((record) => pkOf(record)?.startsWith(prefix));

type TestPollerOptions = Partial<StreamPollerOptions> & {
  /** What the handler answers to its `call`th batch (from 1), once recorded. */
  answer?: (records: DynamoDBRecord[], call: number) => DynamoDBBatchResponse | undefined | Promise<unknown>;
};

/** A poller on the file's table whose handler calls are recorded (`calls`), then answered by `answer`. */
async function pollerFor(options: TestPollerOptions = {}) {
  const calls: DynamoDBRecord[][] = [];
  const { answer, ...rest } = options;
  const poller = await startStreamPoller({
    tableName: POLLER_TABLE,
    intervalMs: 50,
    handler: async (event: DynamoDBStreamEvent) => {
      calls.push(event.Records);
      return (await answer?.(event.Records, calls.length)) as DynamoDBBatchResponse | undefined;
    },
    ...rest,
  });
  pollers.push(poller);
  return { poller, calls };
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/**
 * Makes the next batch exactly `names`: the handler holds the batch of a first item while the
 * items are written, so the poller's next read finds them all (it reads only between calls).
 */
async function batchOf(prefix: string, names: string[], options: Omit<TestPollerOptions, 'filter'> = {}) {
  const held = gate();
  const holding = gate();
  const started = await pollerFor({
    ...options,
    filter: onlyPrefix(prefix),
    answer: async (records, call) => {
      if (call === 1) {
        holding.open();
        await held.opened;
        return;
      }
      return options.answer?.(records, call - 1);
    },
  });
  await put({ PK: `${prefix}#first`, SK: 'ITEM' });
  await holding.opened;
  for (const name of names) await put({ PK: `${prefix}#${name}`, SK: 'ITEM' });
  held.open();
  await started.poller.drain();
  const shortNames = (records: DynamoDBRecord[]) => records.map((record) => pkOf(record)!.slice(prefix.length + 1));
  return { ...started, names: () => started.calls.slice(1).map(shortNames) };
}

describe('the local stream poller feeds a stream handler as an event source mapping would', () => {
  it('delivers INSERT, MODIFY and REMOVE with the keys and both images in DynamoDB JSON', async () => {
    const { poller, calls } = await pollerFor();
    const prefix = newPrefix();
    const key = { PK: `${prefix}#item`, SK: 'ITEM' };
    const before = Math.floor(Date.now() / 1000);
    await put({ ...key, name: 'Gate A', count: 1, bytes: new Uint8Array([1, 2, 255]), tags: new Set(['x']) });
    await db.send(
      new UpdateCommand({
        TableName: POLLER_TABLE,
        Key: key,
        UpdateExpression: 'SET #count = :count, nested = :nested',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':count': 2, ':nested': { list: [true, null] } },
      }),
    );
    await db.send(new DeleteCommand({ TableName: POLLER_TABLE, Key: key }));
    await poller.drain();

    const records = mine(calls.flat(), prefix);
    expect(records.map((record) => record.eventName)).toEqual(['INSERT', 'MODIFY', 'REMOVE']);
    const keys = { PK: { S: key.PK }, SK: { S: 'ITEM' } };
    const inserted = {
      ...keys,
      name: { S: 'Gate A' },
      count: { N: '1' },
      bytes: { B: Buffer.from([1, 2, 255]).toString('base64') },
      tags: { SS: ['x'] },
    };
    const modified = {
      ...inserted,
      count: { N: '2' },
      nested: { M: { list: { L: [{ BOOL: true }, { NULL: true }] } } },
    };
    expect(records.map((record) => [record.dynamodb?.NewImage, record.dynamodb?.OldImage])).toEqual([
      [inserted, undefined],
      [modified, inserted],
      [undefined, modified],
    ]);
    for (const record of records) {
      expect(record).toMatchObject({
        eventID: expect.any(String),
        eventSource: 'aws:dynamodb',
        eventVersion: expect.any(String),
        awsRegion: expect.any(String),
        eventSourceARN: expect.stringMatching(new RegExp(`^arn:aws:dynamodb:.*:table/${POLLER_TABLE}/stream/`)),
        dynamodb: {
          Keys: keys,
          SequenceNumber: expect.stringMatching(/^\d+$/),
          SizeBytes: expect.any(Number),
          StreamViewType: 'NEW_AND_OLD_IMAGES',
        },
      });
      // Epoch seconds (DynamoDB Local rounds them down to the minute).
      expect(record.dynamodb?.ApproximateCreationDateTime).toBeGreaterThan(before - 61);
      expect(record.dynamodb?.ApproximateCreationDateTime).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    }
    const sequence = records.map((record) => BigInt(record.dynamodb!.SequenceNumber!));
    expect(sequence).toEqual([...sequence].sort((a, b) => (a < b ? -1 : 1)));
  });

  it('keeps the order of changes to one item, in batches of at most batchSize', async () => {
    const prefix = newPrefix();
    const { poller, calls } = await pollerFor({ batchSize: 3, filter: onlyPrefix(prefix) });
    const key = { PK: `${prefix}#counter`, SK: 'ITEM' };
    for (let n = 1; n <= 10; n++) await put({ ...key, n });
    await poller.drain();

    expect(calls.flat().map((record) => record.dynamodb?.NewImage?.n?.N)).toEqual(
      Array.from({ length: 10 }, (_, n) => String(n + 1)),
    );
    for (const batch of calls) expect(batch.length).toBeLessThanOrEqual(3);
  });

  it('drops the records its filter does not match, as the mapping does', async () => {
    const prefix = newPrefix();
    const { poller, calls } = await pollerFor({
      filter: { eventName: ['INSERT', 'MODIFY'], dynamodb: { Keys: { PK: { S: [{ prefix: `${prefix}#keep` }] } } } },
    });
    await put({ PK: `${prefix}#keep-1`, SK: 'ITEM' });
    await put({ PK: `${prefix}#drop-1`, SK: 'ITEM' });
    await put({ PK: `${prefix}#keep-1`, SK: 'ITEM', changed: true });
    await db.send(new DeleteCommand({ TableName: POLLER_TABLE, Key: { PK: `${prefix}#keep-1`, SK: 'ITEM' } }));
    await put({ PK: `${prefix}#keep-2`, SK: 'ITEM' });
    await poller.drain();

    // Nothing else either: not the other tests' writes to the same table.
    expect(calls.flat().map((record) => [record.eventName, pkOf(record)])).toEqual([
      ['INSERT', `${prefix}#keep-1`],
      ['MODIFY', `${prefix}#keep-1`],
      ['INSERT', `${prefix}#keep-2`],
    ]);
  });

  it('redelivers the record reported in batchItemFailures and those after it, not those before', async () => {
    const { names, calls } = await batchOf(newPrefix(), ['a', 'b', 'c', 'd', 'e'], {
      answer: (records, call) =>
        call === 1 ? { batchItemFailures: [{ itemIdentifier: records[2]!.dynamodb!.SequenceNumber! }] } : undefined,
    });
    expect(names()).toEqual([
      ['a', 'b', 'c', 'd', 'e'],
      ['c', 'd', 'e'],
    ]);
    // The same records, not copies made afresh from the stream.
    expect(calls[2]).toEqual(calls[1]!.slice(2));
  });

  it('retries from the lowest sequence number when batchItemFailures names several', async () => {
    const { names } = await batchOf(newPrefix(), ['a', 'b', 'c', 'd', 'e'], {
      answer: (records, call) =>
        call === 1
          ? {
              batchItemFailures: [records[3]!, records[1]!].map((record) => ({
                itemIdentifier: record.dynamodb!.SequenceNumber!,
              })),
            }
          : undefined,
    });
    expect(names()).toEqual([
      ['a', 'b', 'c', 'd', 'e'],
      ['b', 'c', 'd', 'e'],
    ]);
  });

  it('retries the whole batch when batchItemFailures names a record not in it', async () => {
    const { names } = await batchOf(newPrefix(), ['a', 'b'], {
      answer: (_records, call) => (call === 1 ? { batchItemFailures: [{ itemIdentifier: '' }] } : undefined),
    });
    expect(names()).toEqual([
      ['a', 'b'],
      ['a', 'b'],
    ]);
  });

  it('calls the handler again with the whole batch after it threw, until it succeeds', async () => {
    const failures: unknown[] = [];
    const { names } = await batchOf(newPrefix(), ['a', 'b', 'c'], {
      maxRetries: 3,
      onFailure: (_records, error) => failures.push(error),
      answer: async (_records, call) => {
        if (call <= 3) throw new Error(`failure ${call}`);
      },
    });
    expect(names()).toEqual([
      ['a', 'b', 'c'],
      ['a', 'b', 'c'],
      ['a', 'b', 'c'],
      ['a', 'b', 'c'],
    ]);
    expect(failures).toEqual([]);
  });

  it('hands a record to onFailure after maxRetries retries and goes on with the next', async () => {
    const prefix = newPrefix();
    const failed: Array<{ records: DynamoDBRecord[]; error: unknown }> = [];
    const { poller, calls } = await pollerFor({
      filter: onlyPrefix(prefix),
      maxRetries: 2,
      onFailure: (records, error) => failed.push({ records, error }),
      answer: async (records) => {
        if (records.some((record) => pkOf(record)?.endsWith('#poison'))) throw new Error('cannot handle poison');
      },
    });
    await put({ PK: `${prefix}#poison`, SK: 'ITEM' });
    await poller.drain();
    await put({ PK: `${prefix}#next`, SK: 'ITEM' });
    await poller.drain();

    expect(calls.map((batch) => batch.map(pkOf))).toEqual([
      [`${prefix}#poison`],
      [`${prefix}#poison`],
      [`${prefix}#poison`],
      [`${prefix}#next`],
    ]);
    expect(failed).toHaveLength(1);
    expect(failed[0]!.records.map(pkOf)).toEqual([`${prefix}#poison`]);
    expect(failed[0]!.error).toEqual(new Error('cannot handle poison'));
  });

  it('gives onFailure the failing record and those after it when batchItemFailures keeps naming it', async () => {
    const failed: DynamoDBRecord[][] = [];
    const { names } = await batchOf(newPrefix(), ['a', 'b', 'c'], {
      maxRetries: 1,
      onFailure: (records) => failed.push(records),
      answer: (records) => {
        const poison = records.find((record) => pkOf(record)?.endsWith('#b'));
        return { batchItemFailures: poison ? [{ itemIdentifier: poison.dynamodb!.SequenceNumber! }] : [] };
      },
    });
    expect(names()).toEqual([
      ['a', 'b', 'c'],
      ['b', 'c'],
    ]);
    expect(failed.map((records) => records.map((record) => pkOf(record)!.split('#').at(-1)))).toEqual([['b', 'c']]);
  });

  // 250 ms (the default): drain() must not wait the idle interval out. 1 ms: drain() often comes while a read is
  // under way, which may have missed the write: it waits for the next one.
  it.each([250, 1])('drain() sees a record written just before it (idle interval %i ms)', async (intervalMs) => {
    const prefix = newPrefix();
    const { poller, calls } = await pollerFor({ filter: onlyPrefix(prefix), intervalMs });
    for (let n = 0; n < 40; n++) {
      await put({ PK: `${prefix}#${n}`, SK: 'ITEM' });
      await poller.drain();
      expect(calls.flat().map(pkOf).at(-1)).toBe(`${prefix}#${n}`);
    }
    expect(calls.flat()).toHaveLength(40);
  });

  it('stop() waits for the handler call in flight, then reads no more', async () => {
    const prefix = newPrefix();
    const held = gate();
    const holding = gate();
    let finished = false;
    const { poller, calls } = await pollerFor({
      filter: onlyPrefix(prefix),
      answer: async () => {
        holding.open();
        await held.opened;
        finished = true;
      },
    });
    await put({ PK: `${prefix}#1`, SK: 'ITEM' });
    await holding.opened;
    let stopped = false;
    const stopping = poller.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stopped).toBe(false);
    held.open();
    await stopping;
    expect(finished).toBe(true);

    await put({ PK: `${prefix}#2`, SK: 'ITEM' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(calls.flat().map(pkOf)).toEqual([`${prefix}#1`]);
    await expect(poller.drain()).rejects.toThrow(/stopped/);
  });

  it('starts at the oldest record with TRIM_HORIZON', async () => {
    const tableName = `poller-trim-horizon-${randomUUID()}`;
    await createOwnTable(tableName, { stream: true });
    try {
      for (const n of [1, 2, 3]) await put({ PK: `ITEM#${n}`, SK: 'ITEM' }, tableName);
      const calls: DynamoDBRecord[][] = [];
      const poller = await startStreamPoller({
        tableName,
        startingPosition: 'TRIM_HORIZON',
        handler: async (event) => {
          calls.push(event.Records);
        },
      });
      pollers.push(poller);
      await poller.drain();
      expect(calls.flat().map(pkOf)).toEqual(['ITEM#1', 'ITEM#2', 'ITEM#3']);
    } finally {
      await Promise.all(pollers.splice(0).map((poller) => poller.stop()));
      await dropOwnTable(tableName);
    }
  });

  it('refuses a table without a stream, such as one created before createTable made one', async () => {
    const tableName = `poller-no-stream-${randomUUID()}`;
    await dynamo.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'PK', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }],
      }),
    );
    try {
      await expect(startStreamPoller({ tableName, handler: async () => {} })).rejects.toThrow(
        `table ${tableName} has no stream`,
      );
    } finally {
      await dynamo.send(new DeleteTableCommand({ TableName: tableName }));
    }
  });
});
