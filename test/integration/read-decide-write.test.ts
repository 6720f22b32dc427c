import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { db, tableName, writtenIf } from '#shared/data/client';
import { READ_DECIDE_WRITE_TRIES, readDecideWrite } from '#shared/data/read-decide-write';
import { ConcurrentUpdate } from '#shared/errors';
import { clearFaults, watchCalls } from '../support/faults.ts';

/**
 * The one read-decide-write loop (shared/data/read-decide-write.ts) against the local table: a counter item read,
 * raised by one conditionally on the value read, while a rival raises it between the read and the write.
 */
afterEach(clearFaults);

const WRITES = ['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand'];

async function counter(): Promise<Record<string, string>> {
  const key = { PK: `RDW_TEST#${randomUUID()}`, SK: 'COUNTER' };
  await db.send(new PutCommand({ TableName: tableName(), Item: { ...key, n: 0 } }));
  return key;
}

const countOf = async (key: Record<string, string>): Promise<number> =>
  (await db.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item!.n as number;

/** Raises the counter by one, conditionally on it still holding `from`: false when it moved. */
const raise = (key: Record<string, string>, from: number) =>
  writtenIf(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'SET n = :to',
      ConditionExpression: 'n = :from',
      ExpressionAttributeValues: { ':from': from, ':to': from + 1 },
    }),
  );

/** A read-decide-write raising the counter by one; `rival` runs between each read and its write. */
const raiseOnce = (key: Record<string, string>, rival: (attempt: number) => Promise<unknown>, reads: number[]) =>
  readDecideWrite({
    subject: 'The test counter',
    read: () => countOf(key),
    decide: async (n, attempt) => {
      reads.push(n);
      await rival(attempt);
      return { write: () => raise(key, n), answer: n + 1 };
    },
  });

describe('readDecideWrite', () => {
  it('reads again and decides again after a lost race, and writes once', async () => {
    const key = await counter();
    const reads: number[] = [];
    const answer = await raiseOnce(key, (attempt) => (attempt === 0 ? raise(key, 0) : Promise.resolve()), reads);
    // The first decision (0 → 1) lost to the rival's 0 → 1; the second read 1 and wrote 2.
    expect(reads).toEqual([0, 1]);
    expect(answer).toBe(2);
    expect(await countOf(key)).toBe(2);
  });

  it('answers 409 concurrent_update after its tries when every one lost, having written nothing of its own', async () => {
    const key = await counter();
    const reads: number[] = [];
    const rivalWrites = { n: 0 };
    const rival = async () => {
      if (await raise(key, await countOf(key))) rivalWrites.n++;
    };
    const refused = await raiseOnce(key, rival, reads).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConcurrentUpdate);
    expect(refused).toMatchObject({ reason: 'concurrent_update', kind: 'conflict' });
    expect(reads).toHaveLength(READ_DECIDE_WRITE_TRIES);
    // Every raise the counter holds is the rival's.
    expect(rivalWrites.n).toBe(READ_DECIDE_WRITE_TRIES);
    expect(await countOf(key)).toBe(READ_DECIDE_WRITE_TRIES);
  });

  it('writes nothing when the decision is to stop, and answers what it decided', async () => {
    const key = await counter();
    const writes = watchCalls(db, WRITES);
    const answer = await readDecideWrite({
      subject: 'The test counter',
      read: () => countOf(key),
      decide: (n) => ({ answer: `already ${n}` }),
    });
    expect(answer).toBe('already 0');
    expect(writes.attempts).toBe(0);
    expect(await countOf(key)).toBe(0);
  });

  it('ends at a refusal the decision throws, writing nothing', async () => {
    const key = await counter();
    const writes = watchCalls(db, WRITES);
    const refusal = new Error('refused');
    await expect(
      readDecideWrite({
        subject: 'The test counter',
        read: () => countOf(key),
        decide: () => {
          throw refusal;
        },
      }),
    ).rejects.toBe(refusal);
    expect(writes.attempts).toBe(0);
  });
});
