import { randomBytes } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../data/client.ts';
import { keys } from '../../data/keys.ts';

let cached: Promise<Buffer> | undefined;

/**
 * The stage's key for hashing what must not be logged in clear (submitted logins): 32
 * random bytes kept in the table, made by the first function that needs them (a
 * conditional put, so racing containers agree), then cached per container. Log readers
 * cannot reverse a hash without it, and whoever can read the table sees the logins anyway.
 */
export function logKey(): Promise<Buffer> {
  cached ??= readOrCreate().catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}

async function readOrCreate(): Promise<Buffer> {
  const key = keys.logKey();
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  if (Item) return Buffer.from(String(Item.secret), 'base64');
  const secret = randomBytes(32);
  try {
    await db.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...key, entity: 'LogKey', secret: secret.toString('base64') },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return secret;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    return readOrCreate();
  }
}
