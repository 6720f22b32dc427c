import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { db, tableName } from '../../data/client.ts';
import { keys } from '../../data/keys.ts';

/**
 * The session version of an administrator or customer: the `sessionVersion` attribute of
 * the account's own record (absent = 0). Every token carries the version it was issued
 * under (`sv`); raising it ends every earlier token and its refresh (README "Sessions and
 * revocation").
 */
export type SessionOwner = 'admin' | 'customer';

const recordKey = (owner: SessionOwner, id: number) => (owner === 'admin' ? keys.administrator(id) : keys.customer(id));

/** The current version; 0 for a record without one and for no record at all (see README: a removed account). */
export async function readSessionVersion(owner: SessionOwner, id: number): Promise<number> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: recordKey(owner, id), ProjectionExpression: 'sessionVersion' }),
  );
  return Number(Item?.sessionVersion ?? 0);
}

/** The update clause that raises the version, for updates that must end sessions in the same write (password changes). */
export const END_SESSIONS_CLAUSE = 'ADD sessionVersion :sessionStep';
export const END_SESSIONS_VALUES = { ':sessionStep': 1 } as const;

/** Raises the version (logout everywhere); false when there is no such record. */
export async function raiseSessionVersion(owner: SessionOwner, id: number): Promise<boolean> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: recordKey(owner, id),
        UpdateExpression: END_SESSIONS_CLAUSE,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: END_SESSIONS_VALUES,
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
