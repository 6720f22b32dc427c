import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { codeKey, MAX_PROMO_CODES, type PromoCode, type UsesShard } from '../domain/promo-code.ts';
import { Conflict } from '../../errors.ts';
import {
  batchGet,
  db,
  labelled,
  tableName,
  type TransactItem,
  transactWrite,
  TransactionCancelled,
} from '../../data/client.ts';
import { keyCondition } from '../../data/key-conditions.ts';
import { keys } from '../../data/keys.ts';

/**
 * Promo codes (README.md here, "Promo codes"): the code in its event's partition by its case-folded text, a pointer
 * by id, the event's count of codes, and its uses on `usesShards` items of their own (`PROMO_USES#<codeId>#<shard>`),
 * each `used` within its `cap`. A hold takes a use and its end gives it back in their own transactions (holds.ts
 * `promoUseAction`, `promoGiveBackAction`); the code's writes here keep every shard's `used` within its cap and the
 * caps' sum at `maxUses`.
 */

const nullableNumber = (value: unknown) => (value === undefined || value === null ? null : Number(value));
const nullableString = (value: unknown) => (typeof value === 'string' ? value : null);

/** A code as the table holds it, read field by field (a missing optional field is null). */
function promoCodeOf(item: Record<string, unknown>): PromoCode {
  return {
    id: Number(item.id),
    eventId: Number(item.eventId),
    code: String(item.code),
    percentOff: nullableNumber(item.percentOff),
    amountOff: nullableNumber(item.amountOff),
    typeIds: Array.isArray(item.typeIds) ? item.typeIds.map(Number) : null,
    maxUses: nullableNumber(item.maxUses),
    validFrom: nullableString(item.validFrom),
    validUntil: nullableString(item.validUntil),
    created: String(item.created),
    updated: String(item.updated),
    createdBy: Number(item.createdBy),
    updatedBy: Number(item.updatedBy),
    usesShards: Number(item.usesShards),
  };
}

/** The code's item: null fields are left out (DynamoDB stores no empty value that means anything). */
function promoCodeItem(promo: PromoCode) {
  const fields = Object.fromEntries(Object.entries(promo).filter(([, value]) => value !== null));
  return { ...keys.promoCode(promo.eventId, codeKey(promo.code)), entity: 'PromoCode', ...fields };
}

const shardItem = (promo: Pick<PromoCode, 'id' | 'eventId'>, shard: number, cap: number | null) => ({
  ...keys.promoUses(promo.id, shard),
  entity: 'PromoUses',
  codeId: promo.id,
  eventId: promo.eventId,
  used: 0,
  ...(cap === null ? {} : { cap }),
});

const put = (Item: Record<string, unknown>) => ({
  Put: { TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(PK)' },
});

/** A new code with its pointer, its shards (`caps`) and the event's count: 409 on a taken code or a full event. */
export async function createPromoCode(promo: PromoCode, caps: readonly (number | null)[]): Promise<void> {
  try {
    await transactWrite([
      labelled('count', {
        Update: {
          TableName: tableName(),
          Key: keys.promoCodeCount(promo.eventId),
          UpdateExpression: 'ADD #n :one',
          ConditionExpression: 'attribute_not_exists(#n) OR #n < :max',
          ExpressionAttributeNames: { '#n': 'n' },
          ExpressionAttributeValues: { ':one': 1, ':max': MAX_PROMO_CODES },
        },
      }),
      labelled('code', put(promoCodeItem(promo))),
      put({ ...keys.promoCodeById(promo.eventId, promo.id), entity: 'PromoCodeId', code: codeKey(promo.code) }),
      ...caps.map((cap, shard) => put(shardItem(promo, shard, cap))),
    ]);
  } catch (error) {
    if (!(error instanceof TransactionCancelled)) throw error;
    if (error.conditionFailed('code'))
      throw new Conflict(`Event ${promo.eventId} has a code ${promo.code} already.`, 'promo_code_taken', {
        code: promo.code,
      });
    if (error.conditionFailed('count'))
      throw new Conflict(`An event holds at most ${MAX_PROMO_CODES} promo codes.`, 'too_many_promo_codes');
    throw error;
  }
}

/** The event's code matching `code` whatever its case (strongly consistent: a code works as soon as it is made). */
export async function findPromoCode(eventId: number, code: string): Promise<PromoCode | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.promoCode(eventId, codeKey(code)), ConsistentRead: true }),
  );
  return Item ? promoCodeOf(Item) : undefined;
}

/** The event's code by id: its pointer, then the code. */
export async function getPromoCode(eventId: number, id: number): Promise<PromoCode | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.promoCodeById(eventId, id), ConsistentRead: true }),
  );
  return Item ? findPromoCode(eventId, String(Item.code)) : undefined;
}

/** Every code of the event, in the order of their text (at most MAX_PROMO_CODES: one bounded Query). */
export async function listPromoCodes(eventId: number): Promise<PromoCode[]> {
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.eventItems(eventId), { beginsWith: keys.promoCodePrefix }),
      ConsistentRead: true,
      Limit: MAX_PROMO_CODES,
    }),
  );
  return (Items ?? []).map(promoCodeOf);
}

/** Some shards of some codes, as stored now (strongly consistent): one BatchGetItem, in the order asked. */
export async function readUsesShards(wanted: readonly { codeId: number; shard: number }[]): Promise<UsesShard[]> {
  const items = await batchGet(
    wanted.map(({ codeId, shard }) => keys.promoUses(codeId, shard)),
    { consistent: true },
  );
  return wanted.map(({ shard }, n) => ({
    shard,
    used: Number(items[n]?.used ?? 0),
    cap: items[n] && items[n].cap !== undefined ? Number(items[n].cap) : null,
  }));
}

/** Every shard of each code: the shards by code id. */
export async function readAllUses(
  codes: readonly Pick<PromoCode, 'id' | 'usesShards'>[],
): Promise<Map<number, UsesShard[]>> {
  const wanted = codes.flatMap((code) =>
    Array.from({ length: code.usesShards }, (_, shard) => ({ codeId: code.id, shard })),
  );
  const shards = await readUsesShards(wanted);
  const byCode = new Map<number, UsesShard[]>(codes.map((code) => [code.id, []]));
  for (const [n, { codeId }] of wanted.entries()) byCode.get(codeId)!.push(shards[n]!);
  return byCode;
}

/**
 * The code changed as `after` (conditional on the code as read, by its `updated`), and, when its limit moved, each
 * shard's cap (`caps`, one per shard, new shards created): an existing shard's only while its `used` is within its new
 * cap, so a use taken meanwhile past it fails the change (false: the caller reads again).
 */
export async function updatePromoCode(
  before: PromoCode,
  after: PromoCode,
  caps?: readonly (number | null)[],
): Promise<boolean> {
  const code = {
    Put: {
      TableName: tableName(),
      Item: promoCodeItem(after),
      ConditionExpression: '#updated = :read',
      ExpressionAttributeNames: { '#updated': 'updated' },
      ExpressionAttributeValues: { ':read': before.updated },
    },
  };
  const shards = (caps ?? []).map((cap, shard) =>
    shard >= before.usesShards ? put(shardItem(after, shard, cap)) : recapAction(after.id, shard, cap),
  );
  try {
    await transactWrite([code, ...shards]);
    return true;
  } catch (error) {
    if (error instanceof TransactionCancelled) return false;
    throw error;
  }
}

function recapAction(codeId: number, shard: number, cap: number | null): TransactItem {
  const Key = keys.promoUses(codeId, shard);
  if (cap === null)
    return {
      Update: {
        TableName: tableName(),
        Key,
        UpdateExpression: 'REMOVE #cap',
        ConditionExpression: 'attribute_exists(#used)',
        ExpressionAttributeNames: { '#cap': 'cap', '#used': 'used' },
      },
    };
  return {
    Update: {
      TableName: tableName(),
      Key,
      UpdateExpression: 'SET #cap = :cap',
      ConditionExpression: 'attribute_exists(#used) AND #used <= :cap',
      ExpressionAttributeNames: { '#cap': 'cap', '#used': 'used' },
      ExpressionAttributeValues: { ':cap': cap },
    },
  };
}

/** Every item of an event's codes and their count: what the event's deletion deletes with it (events' delete-event.ts). */
export const promoCodeItemsOf = (eventId: number, promos: readonly PromoCode[]) => [
  ...promos.flatMap((promo) => [
    keys.promoCode(eventId, codeKey(promo.code)),
    keys.promoCodeById(eventId, promo.id),
    ...Array.from({ length: promo.usesShards }, (_, shard) => keys.promoUses(promo.id, shard)),
  ]),
  ...(promos.length ? [keys.promoCodeCount(eventId)] : []),
];

/**
 * The code, its pointer, its shards and its place in the event's count deleted, each shard only while none of its
 * uses is taken: 409 `promo_code_in_use` when one is (a hold holds it, or an order paid with it keeps it).
 */
export async function deletePromoCode(promo: PromoCode): Promise<void> {
  const shards = Array.from({ length: promo.usesShards }, (_, shard) =>
    labelled('unused', {
      Delete: {
        TableName: tableName(),
        Key: keys.promoUses(promo.id, shard),
        ConditionExpression: '#used = :zero',
        ExpressionAttributeNames: { '#used': 'used' },
        ExpressionAttributeValues: { ':zero': 0 },
      },
    }),
  );
  try {
    await transactWrite([
      {
        Delete: {
          TableName: tableName(),
          Key: keys.promoCode(promo.eventId, codeKey(promo.code)),
          ConditionExpression: 'attribute_exists(PK)',
        },
      },
      { Delete: { TableName: tableName(), Key: keys.promoCodeById(promo.eventId, promo.id) } },
      {
        Update: {
          TableName: tableName(),
          Key: keys.promoCodeCount(promo.eventId),
          UpdateExpression: 'ADD #n :minus',
          ExpressionAttributeNames: { '#n': 'n' },
          ExpressionAttributeValues: { ':minus': -1 },
        },
      },
      ...shards,
    ]);
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailed('unused'))
      throw new Conflict(
        `Promo code ${promo.code} has been used: set its validUntil to end it instead.`,
        'promo_code_in_use',
      );
    throw error;
  }
}
