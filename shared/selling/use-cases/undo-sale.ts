import { now } from '../../clock.ts';
import { closeFailedSale, FAILED_SALE_STATUS, startUndo } from '../data/box-office-orders.ts';
import { getOrder } from '../data/orders.ts';
import { readDecideWrite } from '../../data/read-decide-write.ts';
import { readTicketRecords } from '../../tickets/data/ticket-records.ts';
import { deskRefund, issuedTicketIds, refundsDue, ticketsToCancel } from '../domain/order-cancel.ts';
import type { Order, OrderHistoryEntry } from '../domain/order.ts';
import type { StockTake } from '../domain/reservation.ts';
import { actorLabel, type Actor } from '../../tickets/domain/ticket-history.ts';
import type { TicketRecord } from '../../tickets/domain/ticket.ts';
import { cancelTicket } from './cancel-ticket.ts';

/**
 * Undoes a box-office sale that failed after its first step (sell-order.ts): by the failed request itself before
 * its error propagates (the staff actor), or by the sweep (sweep-stuck-orders.ts, `system`) when the function died.
 * Every step is conditional, so the two, or two sweeps, may run at once and nothing moves twice:
 *
 * 0. the undo starts (`boxOffice.undo`, conditional on the order `pending`): from then no ticket of it is issued and
 *    it is never activated (a request still alive past the grace period cannot complete it under the undo), so the
 *    tickets read next are all it will ever have;
 * 1. each ticket the order records (`issuedTickets`) cancelled through the ticket state machine (`changeTicket`,
 *    `cancel_order`, the actor in its history, its place back on sale and the type's `sold` down, lists and
 *    statistics following); one already cancelled is skipped;
 * 2. one transaction (closeFailedSale): the order `pending` → `expired` with a history entry, its recorded payment
 *    offset by a negative transaction (both appended) (a desk refund, `order-<id>-refund-<method>`, as a cancel records one; `comp`
 *    has none), its ticket ids set (the staff see them cancelled), and the places of its hold not issued back on
 *    sale (`held` → `left`), its promo code's use given back to its shard; conditional on the order still `pending`
 *    with the tickets read, else read again.
 *
 * `expired` and not `cancelled`/`refunded`: those are a completed sale's cancel by staff (`POST /orders/{id}/cancel`,
 * with its `cancellation` and mail); `expired` is already an order that ended before it was ever complete (a
 * checkout's unpaid one), closed (a cancel of it is 409 `already_cancelled`), outside the staff's `refunded` list.
 * The order as it ends (undefined: none; another status: not this one's to undo, left as it is).
 */
export async function undoSale(orderId: number, actor: Actor): Promise<Order | undefined> {
  return readDecideWrite<Order | undefined, Order | undefined>({
    subject: `Order ${orderId}`,
    read: () => getOrder(orderId),
    decide: async (read) => {
      if (!undoable(read)) return { answer: read };
      if (!read.boxOffice!.undo) await startUndo(orderId, { at: now().toISOString(), by: actorLabel(actor) });
      // Started here or by another undo first (or the order moved): its tickets are final from now on.
      const order = read.boxOffice!.undo ? read : await getOrder(orderId);
      if (!undoable(order) || !order.boxOffice!.undo) return { answer: order };
      const ids = issuedTicketIds(order);
      const tickets = [...(await readTicketRecords(ids)).values()];
      for (const ticket of ticketsToCancel(tickets)) await cancelTicket(ticket, actor, true);
      const at = now().toISOString();
      const entry: OrderHistoryEntry = { at, by: actorLabel(actor), action: FAILED_SALE_STATUS };
      const refunds = refundsDue(order).map((due) => deskRefund(order.id, due, at));
      const releases = unissued(order.boxOffice!.takes, tickets);
      // Lost only when the recorded tickets changed between the read and the close.
      return {
        write: () => closeFailedSale(order, { entry, refunds, ticketIds: ids }, releases),
        answer: {
          ...order,
          status: FAILED_SALE_STATUS,
          history: [...(order.history ?? []), entry],
          transactions: [...order.transactions, ...refunds],
          ticketIds: ids,
        },
      };
    },
  });
}

/** A box-office sale still `pending` (every sale records its tickets on `issuedTickets`, sell-order.ts). */
const undoable = (order: Order | undefined): order is Order & Required<Pick<Order, 'issuedTickets'>> =>
  !!order?.boxOffice && order.status === 'pending' && order.issuedTickets !== undefined;

/**
 * The places of the hold no ticket took: the sale issues its attendees in order, each from the first take of its
 * type with places left, so a type's issued tickets took the first places of that type's takes.
 */
export function unissued(takes: readonly StockTake[], issued: readonly Pick<TicketRecord, 'typeId'>[]): StockTake[] {
  const taken = new Map<number, number>();
  for (const { typeId } of issued) taken.set(typeId, (taken.get(typeId) ?? 0) + 1);
  const left: StockTake[] = [];
  for (const take of takes) {
    const used = Math.min(take.quantity, taken.get(take.typeId) ?? 0);
    taken.set(take.typeId, (taken.get(take.typeId) ?? 0) - used);
    if (take.quantity > used) left.push({ ...take, quantity: take.quantity - used });
  }
  return left;
}
