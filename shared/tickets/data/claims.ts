import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds, now } from '../../clock.ts';
import { CLAIM_TOKEN_TTL_SECONDS } from '../domain/claim.ts';
import { db, tableName } from '../../data/client.ts';
import { keys } from '../../data/keys.ts';
import type { ExtraAction } from './ticket-changes.ts';

/**
 * Claim link tokens: `CLAIM_TOKEN#<sha256>` holding the ticket and the address it was
 * mailed to, with `expiresAt` as the TTL attribute and checked on use (TTL deletion
 * lags). Written and deleted only as extra actions of the ticket's change transaction
 * (changeTicket), so a token exists exactly while the claim it belongs to is open with
 * that claimant: a claimant change deletes the old one, the accepting transaction spends it.
 */
export interface ClaimToken {
  ticketId: number;
  claimantEmail: string;
  expiresAt: number;
}

export const claimTokenPut = (tokenHash: string, ticketId: number, claimantEmail: string): ExtraAction => ({
  action: {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.claimToken(tokenHash),
        entity: 'ClaimToken',
        ticketId,
        claimantEmail,
        created: now().toISOString(),
        expiresAt: epochSeconds() + CLAIM_TOKEN_TTL_SECONDS,
      },
      // 32 random bytes do not collide; the condition makes a collision an error, never an overwrite.
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  },
});

/** Voids a token (the claimant changed): unconditional, a token already gone by TTL is as good as deleted. */
export const claimTokenDelete = (tokenHash: string): ExtraAction => ({
  action: { Delete: { TableName: tableName(), Key: keys.claimToken(tokenHash) } },
});

/** Spends a token: only if it still exists, names this ticket and has not expired, else `onSpent`. */
export const claimTokenSpend = (tokenHash: string, ticketId: number, onSpent: () => Error): ExtraAction => ({
  action: {
    Delete: {
      TableName: tableName(),
      Key: keys.claimToken(tokenHash),
      ConditionExpression: 'ticketId = :ticket AND expiresAt > :now',
      ExpressionAttributeValues: { ':ticket': ticketId, ':now': epochSeconds() },
    },
  },
  onConditionFailed: onSpent,
});

/** The token's item, strongly consistent; undefined when there is none (never issued, spent or voided). */
export async function findClaimToken(tokenHash: string): Promise<ClaimToken | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.claimToken(tokenHash), ConsistentRead: true }),
  );
  return Item
    ? { ticketId: Number(Item.ticketId), claimantEmail: String(Item.claimantEmail), expiresAt: Number(Item.expiresAt) }
    : undefined;
}
