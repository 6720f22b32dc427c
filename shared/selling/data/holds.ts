import { GetCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { PromoUse, Reservation } from '../domain/reservation.ts';
import { HOLD_COOL_DOWN_SECONDS, heldQuantity } from '../domain/hold-limits.ts';
import { db, labelled, tableName, transactWrite, TransactionCancelled } from '../../data/client.ts';
import { keys } from '../../data/keys.ts';
import { putDue } from './reservation-due.ts';
import { HoldRefused, holdAction, shortTake } from './stock.ts';

/**
 * A hold's one transaction (`holdReservation`; the reservation's later moves are reservations.ts's, so the hold's
 * path reaches no order), and the items that bound what a customer and a network hold of an event (shared/README.md
 * "Reservations"), each written in the transaction of the hold or of its end (reservations.ts): the customer's
 * marker (one holding reservation per customer and event, then their cool-down after one that ended unpaid) and the
 * network's count of held tickets (conditional on the event's cap, given back by the move that ends the hold); and
 * the promo code's use it takes (promo-codes.ts: a shard of the code's uses, conditional on its cap, given back when
 * it ends unpaid).
 */

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * Writes a new hold: its due entry (`putDue`), then its stock takes, its promo code's use (while its shard has one
 * left), the reservation, the customer's marker (new, or replacing a cool-down that ended) and its network's count,
 * within `perNetwork`, in one transaction.
 */
export async function holdReservation(reservation: Reservation, perNetwork: number): Promise<void> {
  await putDue(reservation);
  const takes = reservation.takes.map(holdAction);
  const items: TransactItem[] = [
    ...takes,
    ...(reservation.promo ? [promoUseAction(reservation.promo)] : []),
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.reservation(reservation.id), entity: 'Reservation', ...reservation },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    labelled('customer marker', customerMarkerAction(reservation)),
  ];
  const counted = networkCountAction(reservation, perNetwork);
  try {
    await transactWrite(counted ? [...items, labelled('network count', counted)] : items);
  } catch (error) {
    if (!(error instanceof TransactionCancelled)) throw error;
    const short = shortTake(error, reservation.takes);
    if (short) throw new HoldRefused({ take: short });
    if (error.conditionFailed(PROMO_USE)) throw new HoldRefused({ promoUsedUp: true });
    if (error.conditionFailed('customer marker')) {
      // Judged at the hold's own instant, as its condition was: a cool-down ending meanwhile still refused it.
      const found = await customerHold(reservation.customerId, reservation.eventId, new Date(reservation.created));
      throw new HoldRefused(found && 'coolsUntil' in found ? found : { existing: found?.holding ?? 0 });
    }
    if (error.conditionFailed('network count')) throw new HoldRefused({ networkFull: true });
    throw error;
  }
}

/**
 * A network's count of held tickets outlives every hold counted in it (at most 60 + 15 minutes, or while a paid
 * order issues its tickets) before its TTL: a count deleted under a hold would let the network past its cap.
 */
const NETWORK_COUNT_TTL_SECONDS = 24 * 3600;
const epochSecondsOf = (at: string) => Math.ceil(Date.parse(at) / 1000);
const networkCountExpiry = (at: string) => epochSecondsOf(at) + NETWORK_COUNT_TTL_SECONDS;
const countNames = { '#entity': 'entity', '#expiresAt': 'expiresAt', '#held': 'held' };

/** A customer's marker for an event: the reservation holding it, or the cool-down after one that ended unpaid. */
export type CustomerHold = { holding: number } | { coolsUntil: string };

/** The key of a customer's marker for an event (a hold reads it beside the stock: selling/data/stock.ts `readShards`). */
export const customerHoldKey = (customerId: number, eventId: number) => keys.activeReservation(customerId, eventId);

/**
 * What stops the customer holding the event at `at`: their holding reservation, or a cool-down not over by then
 * (a strongly consistent read: a hold just written or just ended is seen).
 */
export async function customerHold(customerId: number, eventId: number, at: Date): Promise<CustomerHold | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: customerHoldKey(customerId, eventId), ConsistentRead: true }),
  );
  return customerHoldFrom(Item, at);
}

/** The same, from the marker's item as read (strongly consistent) with other items. */
export function customerHoldFrom(Item: Record<string, unknown> | undefined, at: Date): CustomerHold | undefined {
  if (!Item) return undefined;
  if (typeof Item.coolsUntil !== 'string') return { holding: Number(Item.reservationId) };
  return Item.coolsUntil > at.toISOString() ? { coolsUntil: Item.coolsUntil } : undefined;
}

/** The hold's marker: new, or over a cool-down that has ended. */
export const customerMarkerAction = (reservation: Reservation): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: {
      ...keys.activeReservation(reservation.customerId, reservation.eventId),
      entity: 'ActiveReservation',
      reservationId: reservation.id,
    },
    // A holding marker has no `coolsUntil`: the comparison is false and the hold is refused.
    ConditionExpression: 'attribute_not_exists(PK) OR coolsUntil <= :now',
    ExpressionAttributeValues: { ':now': reservation.created },
  },
});

/** The marker at the hold's end: gone when it was paid, the customer's cool-down (till TTL) when it ended unpaid. */
export function markerEndAction(reservation: Reservation, end: 'paid' | 'unpaid', at: string): TransactItem {
  const Key = keys.activeReservation(reservation.customerId, reservation.eventId);
  const ConditionExpression = 'reservationId = :id';
  if (end === 'paid')
    return {
      Delete: {
        TableName: tableName(),
        Key,
        ConditionExpression,
        ExpressionAttributeValues: { ':id': reservation.id },
      },
    };
  const coolsUntil = new Date(Date.parse(at) + HOLD_COOL_DOWN_SECONDS * 1000).toISOString();
  return {
    Update: {
      TableName: tableName(),
      Key,
      UpdateExpression: 'SET coolsUntil = :coolsUntil, expiresAt = :ttl',
      ConditionExpression,
      ExpressionAttributeValues: {
        ':id': reservation.id,
        ':coolsUntil': coolsUntil,
        ':ttl': epochSecondsOf(coolsUntil),
      },
    },
  };
}

/** The hold's tickets counted against its network, conditional on staying within `perNetwork`. */
export function networkCountAction(reservation: Reservation, perNetwork: number): TransactItem | undefined {
  if (reservation.network === undefined) return undefined;
  const quantity = heldQuantity(reservation);
  return {
    Update: {
      TableName: tableName(),
      Key: keys.networkHolds(reservation.eventId, reservation.network),
      UpdateExpression: 'SET #entity = :entity, #expiresAt = :ttl ADD #held :quantity',
      ConditionExpression: 'attribute_not_exists(#held) OR #held <= :room',
      ExpressionAttributeNames: countNames,
      ExpressionAttributeValues: {
        ':entity': 'NetworkHolds',
        ':ttl': networkCountExpiry(reservation.created),
        ':quantity': quantity,
        ':room': perNetwork - quantity,
      },
    },
  };
}

/** The hold's tickets given back to its network's count (a reservation held before the caps was never counted). */
export function networkGiveBackAction(reservation: Reservation, at: string): TransactItem | undefined {
  if (reservation.network === undefined) return undefined;
  return {
    Update: {
      TableName: tableName(),
      Key: keys.networkHolds(reservation.eventId, reservation.network),
      // A count its TTL took early (a hold stuck past a day) comes back with an expiry, never as a lasting debt.
      UpdateExpression:
        'SET #entity = if_not_exists(#entity, :entity), #expiresAt = if_not_exists(#expiresAt, :ttl) ADD #held :minus',
      ExpressionAttributeNames: countNames,
      ExpressionAttributeValues: {
        ':entity': 'NetworkHolds',
        ':ttl': networkCountExpiry(at),
        ':minus': -heldQuantity(reservation),
      },
    },
  };
}

/** The label of a hold's use (client.ts `labelled`): its condition failed when the shard's uses ran out first. */
export const PROMO_USE = 'promo use';

/** A hold's use: one more `used` on its shard, only while the shard exists and is under its cap. */
export const promoUseAction = (use: PromoUse) =>
  labelled(PROMO_USE, {
    Update: {
      TableName: tableName(),
      Key: keys.promoUses(use.codeId, use.shard),
      UpdateExpression: 'SET #used = #used + :one',
      ConditionExpression: 'attribute_exists(#used) AND (attribute_not_exists(#cap) OR #used < #cap)',
      ExpressionAttributeNames: { '#used': 'used', '#cap': 'cap' },
      ExpressionAttributeValues: { ':one': 1 },
    },
  });

/** A hold's end unpaid gives its use back to the shard it came from (a code with uses taken is never deleted). */
export const promoGiveBackAction = (use: PromoUse) => ({
  Update: {
    TableName: tableName(),
    Key: keys.promoUses(use.codeId, use.shard),
    UpdateExpression: 'SET #used = #used - :one',
    ConditionExpression: '#used >= :one',
    ExpressionAttributeNames: { '#used': 'used' },
    ExpressionAttributeValues: { ':one': 1 },
  },
});
