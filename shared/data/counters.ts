import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { IdBlocks } from './id-blocks.ts';
import { keys, type Key } from './keys.ts';

/** Draws `count` consecutive numeric ids from a named sequence in one atomic update; returns the first. */
export async function drawIds(sequence: string, count: number): Promise<number> {
  const { Attributes } = await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.sequence(sequence),
      UpdateExpression: 'ADD #value :count',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':count': count },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(Attributes?.value) - count + 1;
}

/** This container's blocks of ids (id-blocks.ts): the sale's sequences are drawn 100 ids at a time. */
const containerIds = new IdBlocks(drawIds);

/**
 * Allocates `count` consecutive numeric ids from a named sequence; returns the first. The spec's ids are integers,
 * so no UUIDs here. Unique, but not in creation order across containers (id-blocks.ts).
 */
export const allocateIds = (sequence: string, count = 1): Promise<number> => containerIds.take(sequence, count);

/** How many ids of `sequence` this container holds without a write (the write-units tests arrange a block). */
export const idsInHand = (sequence: string): number => containerIds.inHand(sequence);

/** The transaction action that moves a maintained count; put it in the same transaction as the change. */
export const countDelta = (name: string, delta: number) => ({
  Update: {
    TableName: tableName(),
    Key: keys.count(name),
    UpdateExpression: 'ADD #total :delta',
    ExpressionAttributeNames: { '#total': 'total' },
    ExpressionAttributeValues: { ':delta': delta },
  },
});

export async function readCount(name: string): Promise<number> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.count(name) }));
  return Number(Item?.total ?? 0);
}

/**
 * The transaction action that moves several counters of one item by their deltas (zero
 * moves left out; undefined when none is left); the first move makes the item, as `entity`.
 */
export function countersUpdate(Key: Key, entity: string, moves: Iterable<[string, number]>) {
  const moved = [...moves].filter(([, delta]) => delta !== 0);
  if (!moved.length) return undefined;
  return {
    Update: {
      TableName: tableName(),
      Key,
      UpdateExpression: `SET #entity = :entity, ${moved.map((_, i) => `#s${i} = if_not_exists(#s${i}, :zero) + :d${i}`).join(', ')}`,
      ExpressionAttributeNames: {
        '#entity': 'entity',
        ...Object.fromEntries(moved.map(([name], i) => [`#s${i}`, name])),
      },
      ExpressionAttributeValues: {
        ':entity': entity,
        ':zero': 0,
        ...Object.fromEntries(moved.map(([, delta], i) => [`:d${i}`, delta])),
      },
    },
  };
}
