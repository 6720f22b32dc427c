import type { Reservation } from '../domain/reservation.ts';
import { keys } from '../../data/keys.ts';
import { labelled, tableName, transactWrite, TransactionCancelled } from '../../data/client.ts';
import {
  customerHold,
  customerMarkerAction,
  networkCountAction,
  PROMO_USE,
  promoUseAction,
  type TransactItem,
} from './hold-limits.ts';
import { putDue } from './reservation-due.ts';
import { HoldRefused, holdAction, shortTake } from './stock.ts';

/**
 * A hold's write, apart from the reservation's later moves (reservations.ts) so the hold's path reaches no order:
 * one transaction of a few small items, each in a partition of its own (reservations.ts says which).
 */

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
