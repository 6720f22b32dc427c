import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds, now } from '../../clock.ts';
import type { EmailVerification } from '../domain/customer.ts';
import { db, tableName } from '../../data/client.ts';
import { keys } from '../../data/keys.ts';

/**
 * The customers' email-verification tokens: `EMAIL_VERIFICATION#<sha256>`, holding the
 * customer and the address it verifies, with `expiresAt` as the TTL attribute and checked
 * on use (TTL deletion lags). Written in the transaction that creates the account or asks
 * for a new address; spent by a conditional delete in the transaction that applies it, so
 * a token works once, and of two logins racing with it exactly one applies it.
 */
export const verificationPut = (tokenHash: string, customerId: number, address: string, ttlSeconds: number) => ({
  Put: {
    TableName: tableName(),
    Item: {
      ...keys.emailVerification(tokenHash),
      entity: 'EmailVerification',
      customerId,
      address,
      created: now().toISOString(),
      expiresAt: epochSeconds() + ttlSeconds,
    },
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});

/** The transaction action that spends a token: only if it still exists, is this customer's, for this address and unexpired. */
export const verificationSpend = (tokenHash: string, customerId: number, address: string) => ({
  Delete: {
    TableName: tableName(),
    Key: keys.emailVerification(tokenHash),
    ConditionExpression: 'customerId = :customer AND address = :address AND expiresAt > :now',
    ExpressionAttributeValues: { ':customer': customerId, ':address': address, ':now': epochSeconds() },
  },
});

export async function findVerification(tokenHash: string): Promise<EmailVerification | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.emailVerification(tokenHash), ConsistentRead: true }),
  );
  return Item
    ? { customerId: Number(Item.customerId), address: String(Item.address), expiresAt: Number(Item.expiresAt) }
    : undefined;
}
