import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds } from '../../clock.ts';
import { db, tableName } from '../../data/client.ts';
import { keys } from '../../data/keys.ts';

/**
 * Logins in flight: the PKCE verifier of each, under a random reference that travels in
 * the signed `state`. Kept server-side rather than encrypted into `state`, so that the
 * callback can consume it exactly once (a conditional delete): a replayed state, and
 * with it a replayed code, finds nothing. TTL `expiresAt` cleans up abandoned logins.
 */
export async function storeLoginVerifier(ref: string, verifier: string, ttlSeconds: number): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.oauthLogin(ref), entity: 'OAuthLogin', verifier, expiresAt: epochSeconds() + ttlSeconds },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

/** The verifier, removed as it is read; undefined when already used or expired. */
export async function takeLoginVerifier(ref: string): Promise<string | undefined> {
  try {
    const { Attributes } = await db.send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.oauthLogin(ref),
        ConditionExpression: 'attribute_exists(PK) AND expiresAt > :now',
        ExpressionAttributeValues: { ':now': epochSeconds() },
        ReturnValues: 'ALL_OLD',
      }),
    );
    return typeof Attributes?.verifier === 'string' ? Attributes.verifier : undefined;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}
