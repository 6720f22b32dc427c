import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds, now } from '../../clock.ts';
import { db, labelled, tableName, transactWrite, TransactionCancelled } from '../../data/client.ts';
import { passwordChange } from './administrators.ts';
import { keys } from '../../data/keys.ts';
import { keyCondition } from '../../data/key-conditions.ts';

/**
 * Password-reset tokens of legacy mode. Only the SHA-256 of a token is stored (the key),
 * bound to one administrator, with `expiresAt` both as the TTL attribute and checked on
 * use (TTL deletion lags by up to days). GSI1 lists an administrator's outstanding
 * tokens, so a reset can void the others.
 */
export interface ResetToken {
  tokenHash: string;
  adminId: number;
  expiresAt: number;
}

export async function storeResetToken(tokenHash: string, adminId: number, ttlSeconds: number): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.resetToken(tokenHash),
        ...keys.resetTokenIndexes(adminId, now().toISOString()),
        entity: 'ResetToken',
        adminId,
        expiresAt: epochSeconds() + ttlSeconds,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

/** Removes one token (its mail never left): deleting one already gone is no error. */
export async function deleteResetToken(tokenHash: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: tableName(), Key: keys.resetToken(tokenHash) }));
}

export async function findResetToken(tokenHash: string): Promise<ResetToken | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.resetToken(tokenHash), ConsistentRead: true }),
  );
  return Item ? { tokenHash, adminId: Number(Item.adminId), expiresAt: Number(Item.expiresAt) } : undefined;
}

async function outstandingTokenKeys(adminId: number): Promise<{ PK: string; SK: string }[]> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.resetTokensOf(adminId)),
      ProjectionExpression: 'PK, SK',
    }),
  );
  return Items.map((item) => ({ PK: String(item.PK), SK: String(item.SK) }));
}

export type SpendOutcome = 'done' | 'token-spent' | 'password-changed';

/**
 * One transaction: the token is deleted only if it still exists, is unexpired and belongs
 * to the administrator (so of two concurrent resets exactly one succeeds), the password
 * changes only if it is still the one read, and every other outstanding token of the
 * administrator is voided.
 */
export async function spendResetToken(token: ResetToken, newHash: string, currentHash: string): Promise<SpendOutcome> {
  const own = keys.resetToken(token.tokenHash);
  const others = (await outstandingTokenKeys(token.adminId)).filter((key) => key.PK !== own.PK);
  try {
    await transactWrite([
      labelled('token', {
        Delete: {
          TableName: tableName(),
          Key: own,
          ConditionExpression: 'attribute_exists(PK) AND adminId = :admin AND expiresAt > :now',
          ExpressionAttributeValues: { ':admin': token.adminId, ':now': epochSeconds() },
        },
      }),
      labelled('password', passwordChange(token.adminId, newHash, currentHash)),
      ...others.map((key) => ({ Delete: { TableName: tableName(), Key: key } })),
    ]);
    return 'done';
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailed('token')) return 'token-spent';
    if (error instanceof TransactionCancelled && error.conditionFailed('password')) return 'password-changed';
    throw error;
  }
}

/** Voids every outstanding token of an administrator (after a password change). */
export async function voidResetTokens(adminId: number): Promise<void> {
  for (const key of await outstandingTokenKeys(adminId))
    await db.send(new DeleteCommand({ TableName: tableName(), Key: key }));
}
