import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { keys, type Key } from './keys.ts';

/**
 * Allocates `count` consecutive numeric ids from a named sequence in one atomic
 * update; returns the first. The spec's ids are integers, so no UUIDs here.
 */
export async function allocateIds(sequence: string, count = 1): Promise<number> {
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
