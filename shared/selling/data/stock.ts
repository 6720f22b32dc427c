import type { TicketType, TypeWithSold } from '../../events/domain/event.ts';
import { spreadStock, type StockShard, type StockTake } from '../domain/reservation.ts';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import * as z from '../../schema.ts';
import { batchGet, db, labelled, tableName, transactWrite, TransactionCancelled } from '../../data/client.ts';
import { storedSchema } from '../../data/stored-items.ts';
import { keys } from '../../data/keys.ts';
import { typeShardsFromItem } from '../../events/data/event-items.ts';
import type { SaleSums } from '../domain/sale-prices.ts';
import { forgetSoldOut } from './event-sale-cache.ts';

/**
 * A ticket type's stock (shared/data/README.md "Stock"): `stockShards` items `STOCK#<typeId>#<shard>`,
 * each with `left` (on sale), `held` (taken by reservations) and `sold` (its share of the type's tickets holding a
 * place), written in the type's creation transaction (an event's: event-creation.ts; one added:
 * events/use-cases/ticket-types.ts). For every type:
 *
 *   sum(left + held + sold) = type.total
 *
 * Each write that moves one of the three moves another by as much on the same shard, conditional on it having it:
 * a hold (left → held), its release or lapse (held → left), a sale from a hold (held → sold), a sale without one
 * (left → sold), a ticket that stops holding a place (sold → left), a total's rise (→ left of shard 0) or fall (left
 * of the fullest shards →, each conditional). The type's `sold` is the sum over its shards (`withSold`): kept on the
 * type's item it would take every sale's transaction, far past an item's rate at on-sale. A ticket gives its place
 * back to the shard its id picks, not always the one it came from, so one shard's `sold` may fall below zero: only
 * the sum means anything. Each move of `sold` may carry its tickets' sales sums (`sums`: domain/sale-figures.ts),
 * added to the shard's `gross`, `tax`, `fees`, `discount` in the same update (no write unit more: the item stays
 * about 200 bytes); a sold ticket's figures changed alone move them without its place (`salesMoveAction`).
 */

/** A take of a shard, as a reservation or an order stores it (reservations.ts, order-items.ts). */
export const StockTakeItem = storedSchema<StockTake>()(
  z.lazy(() => z.object({ typeId: z.number(), shard: z.number(), quantity: z.number() })),
);

/** A shard as stored: the hold path's view (`left`, `held`) and its share of the type's `sold`. */
export type CountedShard = StockShard & { sold: number };

/** The Puts of a new type's stock items. */
export function newStockItems(type: Pick<TicketType, 'id' | 'eventId' | 'total' | 'stockShards'>) {
  return spreadStock(type.total, type.stockShards).map((left, shard) => ({
    ...keys.stock(type.id, shard),
    entity: 'Stock',
    typeId: type.id,
    eventId: type.eventId,
    left,
    held: 0,
    sold: 0,
  }));
}

/** The same, as the conditional Puts of the type's creation transaction. */
export const newStockPuts = (type: Pick<TicketType, 'id' | 'eventId' | 'total' | 'stockShards'>) =>
  newStockItems(type).map((Item) => ({
    Put: { TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(PK)' },
  }));

/** A shard as a plan reads it. */
export type ReadShard = CountedShard & { typeId: number };

/**
 * Some of a type's shards as stored now, strongly consistent (the plan of a conditional write): one
 * BatchGetItem for every type's wanted shards (at most 100 keys a call, sent at once), never a GetItem per shard.
 */
export async function readShards(wanted: readonly Pick<StockTake, 'typeId' | 'shard'>[]): Promise<ReadShard[]> {
  return (await readShardsWith(wanted, [])).shards;
}

/**
 * readShards, with other items of the table read in the same BatchGetItem, as consistently (`alongside`, answered
 * in their order, undefined for one missing): a hold reads its customer's marker so, one call fewer on every hold.
 */
export async function readShardsWith(
  wanted: readonly Pick<StockTake, 'typeId' | 'shard'>[],
  alongside: readonly Record<string, unknown>[],
): Promise<{ shards: ReadShard[]; alongside: (Record<string, unknown> | undefined)[] }> {
  const items = await batchGet([...alongside, ...wanted.map(({ typeId, shard }) => keys.stock(typeId, shard))], {
    consistent: true,
  });
  const shardItems = items.slice(alongside.length);
  return {
    alongside: items.slice(0, alongside.length),
    shards: wanted.map(({ typeId, shard }, n) => ({
      typeId,
      shard,
      left: Number(shardItems[n]?.left ?? 0),
      held: Number(shardItems[n]?.held ?? 0),
      sold: Number(shardItems[n]?.sold ?? 0),
    })),
  };
}

/** All of a type's shards as stored now (strongly consistent): one BatchGetItem. */
export async function readStock(type: Pick<TicketType, 'id' | 'stockShards'>): Promise<CountedShard[]> {
  const shards = await readShards(Array.from({ length: type.stockShards }, (_, shard) => ({ typeId: type.id, shard })));
  return shards.map(({ shard, left, held, sold }) => ({ shard, left, held, sold }));
}

/** Every shard of several types (strongly consistent): one BatchGetItem for all (100 keys a call, sent at once). */
const readAllShards = (types: readonly Pick<TicketType, 'id' | 'stockShards'>[]) =>
  readShards(
    types.flatMap((type) => Array.from({ length: type.stockShards }, (_, shard) => ({ typeId: type.id, shard }))),
  );

/**
 * The types with their `sold`: the sum of each one's shards, read strongly consistent so a count is exact as soon as
 * the sale that moved it has answered. One BatchGetItem for all the types (100 keys a call, the calls sent at once).
 */
export async function withSold<T extends Pick<TicketType, 'id' | 'stockShards'>>(
  types: readonly T[],
): Promise<(T & { sold: number })[]> {
  const sold = new Map<number, number>();
  for (const shard of await readAllShards(types)) sold.set(shard.typeId, (sold.get(shard.typeId) ?? 0) + shard.sold);
  return types.map((type) => ({ ...type, sold: sold.get(type.id) ?? 0 }));
}

/** One type with its `sold` (withSold). */
export const typeWithSold = async (type: TicketType): Promise<TypeWithSold> => (await withSold([type]))[0]!;

/** A type's stock shard count, by its key in its event's partition (one GetItem, as every ticket route may send). */
export async function stockShardsOf(
  eventId: number,
  typeId: number,
): Promise<Pick<TicketType, 'id' | 'stockShards'> | undefined> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.ticketType(eventId, typeId),
      ProjectionExpression: 'id, stockShards',
    }),
  );
  return Item ? typeShardsFromItem(Item) : undefined;
}

/** What is left of several types, by type id (one BatchGetItem, eventually consistent: a view, not a plan). */
export async function stockLeft(
  types: readonly Pick<TicketType, 'id' | 'stockShards'>[],
): Promise<Map<number, number>> {
  const wanted = types.flatMap((type) =>
    Array.from({ length: type.stockShards }, (_, shard) => ({ typeId: type.id, key: keys.stock(type.id, shard) })),
  );
  const items = await batchGet(wanted.map(({ key }) => key));
  const left = new Map<number, number>();
  wanted.forEach(({ typeId }, n) => {
    left.set(typeId, (left.get(typeId) ?? 0) + Number(items[n]?.left ?? 0));
  });
  return left;
}

/** The attribute names an expression uses (DynamoDB refuses a name it does not). */
const namesIn = (text: string) =>
  Object.fromEntries([...text.matchAll(/#(\w+)/g)].map(([name, attribute]) => [name, attribute!]));

/** One update of a shard: its `SET` on its condition, and the moved tickets' sums added (`ADD`) in the same update. */
function move(typeId: number, shard: number, set: string, condition: string, quantity: number, sums?: SaleSums) {
  const added = Object.entries(sums ?? {}).filter(([, amount]) => amount !== 0);
  const values: Record<string, number> = Object.fromEntries(added.map(([name, amount]) => [`:${name}`, amount]));
  if ((set + condition).includes(':q')) values[':q'] = quantity;
  const adds = added.length ? ` ADD ${added.map(([name]) => `#${name} :${name}`).join(', ')}` : '';
  if (set.includes('#left = #left +')) forgetSoldOut(typeId);
  return {
    Update: {
      TableName: tableName(),
      Key: keys.stock(typeId, shard),
      UpdateExpression: `${set}${adds}`.trim(),
      ConditionExpression: condition,
      ExpressionAttributeNames: namesIn(set + adds + condition),
      ExpressionAttributeValues: values,
    },
  };
}

/** A move's tickets' sales sums (sale-prices.ts `ticketSums`), signed as they change the shard's sums. */
type WithSums = { sums?: SaleSums };
type SoldFromHold = Pick<StockTake, 'typeId' | 'shard'> & { quantity?: number } & WithSums;

/** The label of a take's hold (client.ts `labelled`): its condition failed when the shard no longer had the places. */
const takeLabel = ({ typeId, shard }: StockTake) => `take ${typeId}#${shard}`;

/** A hold's take: `left` → `held`, only while the shard has that many left. */
export const holdAction = (take: StockTake) =>
  labelled(
    takeLabel(take),
    move(take.typeId, take.shard, 'SET #left = #left - :q, #held = #held + :q', '#left >= :q', take.quantity),
  );

/** The first of `takes` whose shard no longer had its places, when their hold's transaction was cancelled. */
export const shortTake = (error: TransactionCancelled, takes: readonly StockTake[]): StockTake | undefined =>
  takes.find((take) => error.conditionFailed(takeLabel(take)));

/** The label of the actions a caller joins to a stock move (`with`): one's condition failed, nothing was written. */
export const JOINED = 'joined';

/** A release's or lapse's return: `held` → `left`. */
export const releaseAction = ({ typeId, shard, quantity }: StockTake) =>
  move(typeId, shard, 'SET #left = #left + :q, #held = #held - :q', '#held >= :q', quantity);

/**
 * Places still `held` for tickets never issued (a stopped checkout's: cancel-checkout.ts) back to `left`, with `with`
 * (the order's close) in the same transaction, so the stock is back exactly when the order closes. False when a
 * `with` item's condition failed (nothing written).
 */
export async function releaseHeldWith(
  takes: readonly StockTake[],
  with_: NonNullable<TransactWriteCommandInput['TransactItems']>,
): Promise<boolean> {
  try {
    await transactWrite([...with_.map((action) => labelled(JOINED, action)), ...takes.map(releaseAction)]);
    return true;
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailed(JOINED)) return false;
    throw error;
  }
}

/** Tickets sold from a hold (one unless said): the shard's `held` → its `sold` (in the tickets' own transaction). */
export const soldFromHoldAction = ({ typeId, shard, quantity = 1, sums }: SoldFromHold) =>
  move(
    typeId,
    shard,
    'SET #held = #held - :q, #sold = #sold + :q',
    '#held >= :q AND attribute_exists(#sold)',
    quantity,
    sums,
  );

/** A ticket sold without a hold (a transfer into the type, a restore, the box office): `left` → `sold`. */
export const soldFromStockAction = ({ typeId, shard, sums }: Pick<StockTake, 'typeId' | 'shard'> & WithSums) =>
  move(typeId, shard, 'SET #left = #left - :q, #sold = #sold + :q', '#left >= :q AND attribute_exists(#sold)', 1, sums);

/** A ticket that stops holding a place (deleted, cancelled, transferred away): `sold` → `left`. */
export const returnToStockAction = ({ typeId, shard, quantity, sums }: StockTake & WithSums) =>
  move(typeId, shard, 'SET #left = #left + :q, #sold = #sold - :q', 'attribute_exists(#sold)', quantity, sums);

/** A sold ticket's figures changed, its place kept (an edit of its price): only the sums move. */
export const salesMoveAction = (typeId: number, shard: number, sums: SaleSums) =>
  move(typeId, shard, '', 'attribute_exists(#sold)', 0, sums);

/**
 * Tickets written in bulk (the scale loader, never a request): `left` → `sold` of shard 0, whatever it has left (the
 * loader sizes the types; a shard's `left` below zero still sums right), so the sum stays the total.
 */
export const bulkSoldUpdate = (typeId: number, quantity: number, sums?: SaleSums) =>
  move(typeId, 0, 'SET #left = #left - :q, #sold = #sold + :q', 'attribute_exists(#sold)', quantity, sums).Update;

/**
 * A type's `total` moved by `delta` (its stock read as `shards`): a rise adds to shard 0's
 * `left`; a fall takes from the fullest shards, each conditional on holding it. Undefined
 * when the shards do not hold that many left (the caller's 409).
 */
export function totalChangeActions(typeId: number, shards: readonly StockShard[], delta: number) {
  if (delta >= 0) return delta ? [move(typeId, 0, 'SET #left = #left + :q', 'attribute_exists(#sold)', delta)] : [];
  const actions = [];
  let missing = -delta;
  for (const shard of [...shards].sort((a, b) => b.left - a.left)) {
    if (missing <= 0 || shard.left <= 0) break;
    const taken = Math.min(shard.left, missing);
    actions.push(move(typeId, shard.shard, 'SET #left = #left - :q', '#left >= :q', taken));
    missing -= taken;
  }
  return missing > 0 ? undefined : actions;
}

/**
 * The deletes of a type's stock items (`shards`, read as their `sold` summed to none), each only while nothing is
 * held and its `sold` is as read: a sale or a return between the read and the write fails it.
 */
export const stockDeleteActions = (typeId: number, shards: readonly CountedShard[]) =>
  shards.map(({ shard, sold }) => ({
    Delete: {
      TableName: tableName(),
      Key: keys.stock(typeId, shard),
      ConditionExpression: '#held = :zero AND #sold = :sold',
      ExpressionAttributeNames: { '#held': 'held', '#sold': 'sold' },
      ExpressionAttributeValues: { ':zero': 0, ':sold': sold },
    },
  }));

/**
 * The hold failed: a shard no longer has what was read (`take`), its promo code's shard no longer has a use
 * (`promoUsedUp`), the customer holds one already (`existing`) or is cooling down after one (`coolsUntil`), or their
 * network holds its cap (`networkFull`).
 */
export class HoldRefused extends Error {
  constructor(
    readonly refusal:
      | { take: StockTake }
      | { promoUsedUp: true }
      | { existing: number }
      | { coolsUntil: string }
      | { networkFull: true },
  ) {
    super('The hold was refused.');
  }
}
