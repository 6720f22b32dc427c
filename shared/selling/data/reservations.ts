import { GetCommand } from '@aws-sdk/lib-dynamodb';
import {
  HOLDING_STATES,
  type PromoUse,
  RESERVATION_STATES,
  statesBefore,
  type Reservation,
  type ReservationState,
  type StockTake,
} from '../domain/reservation.ts';
import * as z from '../../schema.ts';
import { db, labelled, tableName, transactWrite, TransactionCancelled } from '../../data/client.ts';
import { parseItem, storedSchema } from '../../data/stored-items.ts';
import {
  markerEndAction,
  networkGiveBackAction,
  promoGiveBackAction,
  promoUseAction,
  type TransactItem,
} from './holds.ts';
import { keys } from '../../data/keys.ts';
import { readDecideWrite } from '../../data/read-decide-write.ts';
import { dueKey, filedAt, refileDue } from './reservation-due.ts';
import { SaleAmountsItem } from './order-items.ts';
import { orderStatusMoveActions } from './order-status.ts';
import { orderEntriesCaughtUp } from './order-list-entries.ts';
import { getOrder } from './orders.ts';
import { holdAction, JOINED, releaseAction, StockTakeItem } from './stock.ts';

/**
 * Reservations (shared/README.md "Reservations"): a hold is one transaction of a few small
 * items, each in a partition of its own: a stock shard's decrement per take (usually one),
 * the reservation, the customer's active marker for the event (one holding reservation per
 * customer and event; after one ended unpaid, their cool-down) and its network's count of held tickets
 * (conditional on the event's cap); its due entry (the minute it lapses in, DUE_SHARDS ways) is put just
 * before that transaction, on its own (`putDue`). Every
 * later move of the reservation is conditional on its state, so a release, a lapse and a
 * payment racing for it are decided by DynamoDB: one wins, the others see it moved; the move that ends
 * it gives its tickets back to its network's count in the same transaction.
 */

// Its `expiresAt` is the reservation's ISO instant, not a TTL: the lapsing job ends it (reservation-due.ts).
const ReservationItem = storedSchema<Reservation>()(
  z.lazy(() =>
    z.object({
      id: z.number(),
      customerId: z.number(),
      eventId: z.number(),
      status: z.enum(RESERVATION_STATES),
      created: z.string(),
      expiresAt: z.string(),
      lines: z.array(
        z.object({
          typeId: z.number(),
          name: z.string(),
          quantity: z.number(),
          waveTimeId: z.nullable(z.number()),
          unitPrice: z.number(),
          discount: z.optional(z.number()),
          fee: z.optional(z.number()),
          tax: z.optional(z.number()),
          amount: z.number(),
          feePaid: z.optional(z.number()),
          feeTax: z.optional(z.number()),
        }),
      ),
      shippingMethodId: z.nullable(z.number()),
      amounts: SaleAmountsItem,
      takes: z.array(StockTakeItem),
      updated: z.string(),
      orderId: z.optional(z.number()),
      network: z.optional(z.string()),
      promo: z.optional(z.object({ codeId: z.number(), code: z.string(), shard: z.number() })),
      dueAt: z.optional(z.string()),
    }),
  ),
);

/** The label of a reservation's own move (client.ts `labelled`): its condition failed when it moved first. */
const RESERVATION_MOVED = 'reservation';

export async function getReservation(id: number): Promise<Reservation | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.reservation(id), ConsistentRead: true }),
  );
  return Item ? parseItem(ReservationItem, Item, 'reservation') : undefined;
}

/**
 * Moves a reservation to `to`, only from a state that may move there and only from the
 * state read (`from`), with `with` actions (each conditional) in the same transaction. When `to` no longer
 * holds, the due entry goes, its tickets leave its network's count, and the customer's marker goes (paid) or
 * becomes their cool-down (released, lapsed); `returns` gives the stock back. False when the reservation or a
 * `with` action's item moved first (the caller reads them again).
 */
async function moveReservation(
  reservation: Reservation,
  to: ReservationState,
  at: string,
  options: {
    returns?: boolean;
    extraCondition?: { expression: string; values: Record<string, unknown> };
    with?: readonly TransactItem[];
  } = {},
): Promise<boolean> {
  if (!statesBefore(to).includes(reservation.status)) return false;
  const extra = options.extraCondition;
  const items: TransactItem[] = [
    labelled(RESERVATION_MOVED, {
      Update: {
        TableName: tableName(),
        Key: keys.reservation(reservation.id),
        UpdateExpression: 'SET #status = :to, #updated = :at',
        ConditionExpression: `#status = :from${extra ? ` AND ${extra.expression}` : ''}`,
        ExpressionAttributeNames: {
          '#status': 'status',
          '#updated': 'updated',
          ...(extra ? { '#expiresAt': 'expiresAt' } : {}),
        },
        ExpressionAttributeValues: { ':to': to, ':from': reservation.status, ':at': at, ...extra?.values },
      },
    }),
    ...(HOLDING_STATES.includes(to) ? [] : endingActions(reservation, to, at)),
    ...(options.returns ? reservation.takes.map(releaseAction) : []),
  ];
  const with_ = (options.with ?? []).map((action) => labelled(JOINED, action));
  try {
    await transactWrite([...items, ...with_]);
    return true;
  } catch (error) {
    if (!(error instanceof TransactionCancelled)) throw error;
    if (error.conditionFailed(RESERVATION_MOVED) || error.conditionFailed(JOINED)) return false;
    throw error;
  }
}

/**
 * What a hold's end writes beside the reservation's move: its marker, its due entry, its network's count, and, when it
 * ends unpaid, its promo code's use given back (a paid order keeps it).
 */
function endingActions(reservation: Reservation, to: ReservationState, at: string): TransactItem[] {
  const counted = networkGiveBackAction(reservation, at);
  const unpaid = to !== 'paid';
  return [
    markerEndAction(reservation, unpaid ? 'unpaid' : 'paid', at),
    { Delete: { TableName: tableName(), Key: dueKey(reservation) } },
    ...(counted ? [counted] : []),
    ...(unpaid && reservation.promo ? [promoGiveBackAction(reservation.promo)] : []),
  ];
}

/**
 * The customer let go (`released`) or the reservation's minutes ran out (`lapsed`): its
 * stock goes back to its shards in the same transaction. A lapse is conditional on the
 * reservation's own `expiresAt` having passed, read inside the write: the seam a checkout
 * uses to keep a reservation whose payment is processing (it moves `expiresAt` on, the lapse re-files its due entry
 * there and leaves the reservation be). A checked-out reservation's order, still
 * `awaiting_payment`, moves to `expired` in the same transaction, conditional on that status: a payment that
 * claimed the order first (`pending`, checkout-payment.ts) keeps the reservation, which is answered as it is
 * (still holding); one that comes after finds the order `expired` and takes the tickets again or is refunded.
 * Idempotent: a reservation no longer holding answers as it is. Answers the reservation as it ends up.
 */
export async function releaseHold(
  reservationId: number,
  reason: 'released' | 'lapsed',
  at: Date,
): Promise<Reservation | undefined> {
  const ended = await readDecideWrite<Reservation | undefined, Reservation | undefined>({
    subject: `Reservation ${reservationId}`,
    read: () => getReservation(reservationId),
    decide: async (reservation) => {
      if (!reservation || !HOLDING_STATES.includes(reservation.status)) return { answer: reservation };
      if (reason === 'lapsed' && reservation.expiresAt > at.toISOString())
        return filedAt(reservation) < reservation.expiresAt
          ? { write: () => refileDue(reservation), answer: { ...reservation, dueAt: reservation.expiresAt } }
          : { answer: reservation };
      const order =
        reservation.status === 'checked_out' && reservation.orderId ? await getOrder(reservation.orderId) : undefined;
      // A payment claimed the order first: it takes this reservation. An order closed otherwise (by staff) lets it end alone.
      if (order?.status === 'pending') return { answer: reservation };
      const by = reason === 'released' ? `customer ${reservation.customerId}` : 'system';
      // Appended: an entry written on the order meanwhile (a cancellation's start) stays.
      const history = [{ at: at.toISOString(), by, action: 'expired' as const }];
      const expire = order?.status === 'awaiting_payment' ? order : undefined;
      const closing = expire ? orderStatusMoveActions(expire, { status: 'expired' }, { APPEND: { history } }) : [];
      const extraCondition =
        reason === 'lapsed' ? { expression: '#expiresAt <= :now', values: { ':now': at.toISOString() } } : undefined;
      return {
        write: () =>
          moveReservation(reservation, reason, at.toISOString(), { returns: true, extraCondition, with: closing }),
        answer: { ...reservation, status: reason, updated: at.toISOString() },
      };
    },
  });
  // A checked-out hold's order may have moved `expired` with it: its status entry follows.
  if (ended?.orderId) await orderEntriesCaughtUp([ended.orderId]);
  return ended;
}

/**
 * The checkout's moves: `checked_out` (awaiting payment, still holding) and `paid` (the
 * payment succeeded: the marker and due entry go, the stock stays `held` until each ticket's
 * issue moves it to `sold`, create-ticket.ts `fromHold`). False when it no longer holds:
 * released or lapsed first (the payment then takes tickets only if still on sale, or is refunded).
 */
export async function convertHold(reservationId: number, to: 'checked_out' | 'paid', at: Date): Promise<boolean> {
  return readDecideWrite({
    subject: `Reservation ${reservationId}`,
    read: () => getReservation(reservationId),
    decide: (reservation) =>
      !reservation || !statesBefore(to).includes(reservation.status)
        ? { answer: false }
        : { write: () => moveReservation(reservation, to, at.toISOString()), answer: true },
  });
}

/**
 * The checkout's move `held` → `checked_out`, with its order's items (`with`, written by the same
 * transaction: never an order without its reservation moved, nor the reverse). It keeps the
 * reservation until `expiresAt` (later than its own) while the payment processes: the due entry stays where it is
 * (`dueAt`), and the lapse, conditional on the reservation's own `expiresAt`, re-files it and leaves it be till then.
 * False when it no longer was `held` as read.
 */
export async function checkOutHold(
  reservation: Reservation,
  orderId: number,
  expiresAt: string,
  at: string,
  with_: readonly TransactItem[],
): Promise<boolean> {
  try {
    await transactWrite([
      labelled(RESERVATION_MOVED, {
        Update: {
          TableName: tableName(),
          Key: keys.reservation(reservation.id),
          UpdateExpression: 'SET #status = :to, #updated = :at, #expiresAt = :until, #orderId = :order, #dueAt = :due',
          ConditionExpression: '#status = :from',
          ExpressionAttributeNames: {
            '#status': 'status',
            '#updated': 'updated',
            '#expiresAt': 'expiresAt',
            '#orderId': 'orderId',
            '#dueAt': 'dueAt',
          },
          ExpressionAttributeValues: {
            ':to': 'checked_out',
            ':from': 'held',
            ':at': at,
            ':until': expiresAt,
            ':order': orderId,
            ':due': filedAt(reservation),
          },
        },
      }),
      ...with_,
    ]);
    return true;
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailed(RESERVATION_MOVED)) return false;
    throw error;
  }
}

/**
 * A late payment's second chance: the reservation lapsed or was released, so its stock and its promo code's use went
 * back; the same quantities are held again from what is left now (`takes`, planned by the caller from a fresh
 * read), and the use taken again from the shard it went back to (`promo`), all or nothing, with `with` (the order's
 * record of them) in the same transaction. False when a shard no longer has what was read (or the code's shard its
 * use: the payment is then refunded, as when the tickets are gone), or a `with` item moved.
 */
export async function holdAgain(
  takes: readonly StockTake[],
  with_: readonly TransactItem[] = [],
  promo?: PromoUse,
): Promise<boolean> {
  try {
    await transactWrite([...takes.map(holdAction), ...(promo ? [promoUseAction(promo)] : []), ...with_]);
    return true;
  } catch (error) {
    if (error instanceof TransactionCancelled) return false;
    throw error;
  }
}

/**
 * A checked-out reservation released as its buyer's DELETE would (its stock back, marker and due entry gone) with
 * `with` (a staff cancel's close of its order, cancel-checkout.ts) in the same transaction, conditional on the state
 * read: false when it or a `with` item moved first (a payment converting it to `paid`).
 */
export const releaseWith = (reservation: Reservation, at: string, with_: readonly TransactItem[]): Promise<boolean> =>
  moveReservation(reservation, 'released', at, { returns: true, with: with_ });
