import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/client';

/** BatchWriteItem requests in flight (25 items each). */
export const PARALLEL_WRITES = 8;

/** Sends puts and deletes with BatchWriteItem, PARALLEL_WRITES requests at a time, retrying UnprocessedItems with backoff. */
export async function batchWrite(requests: Record<string, unknown>[]): Promise<void> {
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < requests.length; i += 25) batches.push(requests.slice(i, i + 25));
  const send = async (batch: Record<string, unknown>[]) => {
    let pending = batch;
    for (let attempt = 0; pending.length; attempt++) {
      if (attempt > 12) throw new Error(`seed: ${pending.length} items still unprocessed after ${attempt} attempts`);
      if (attempt)
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2000, 25 * 2 ** attempt)));
      const { UnprocessedItems } = await db.send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = (UnprocessedItems?.[tableName()] ?? []) as Record<string, unknown>[];
    }
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL_WRITES, batches.length) }, async () => {
      while (next < batches.length) await send(batches[next++]!);
    }),
  );
}
