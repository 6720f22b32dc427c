import { now } from '../../clock.ts';
import { readOrder } from '../data/order-staff.ts';
import { readCheckoutAttendees } from '../data/order-items.ts';
import { readDecideWrite } from '../../data/read-decide-write.ts';
import { orderStatusMoveActions, sameLength } from '../data/order-status.ts';
import { orderEntriesCaughtUp } from '../data/order-list-entries.ts';
import { getReservation, releaseWith } from '../data/reservations.ts';
import { releaseHeldWith } from '../data/stock.ts';
import { readTicketRecords } from '../../tickets/data/ticket-records.ts';
import {
  cancellationOutcome,
  issuedTicketIds,
  soldTicketIds,
  ticketsToCancel,
  toStaffOrder,
  type StaffOrder,
} from '../domain/order-cancel.ts';
import type { Order } from '../domain/order.ts';
import { unissuedTakes, type Reservation, type StockTake } from '../domain/reservation.ts';
import { actorLabel, type Actor } from '../../tickets/domain/ticket-history.ts';
import type { TicketRecord } from '../../tickets/domain/ticket.ts';
import { cancelOrderPayment } from './checkout-intent.ts';
import { finished, refund, soldTickets } from './cancel-steps.ts';
import { cancelTicket } from './cancel-ticket.ts';

/**
 * A staff cancel of a checkout's order before it is active (cancel-order.ts step 2): awaiting payment (`closeUnpaid`)
 * or paid and still issuing its tickets (`stopIssuing`). Both start once the order records its `cancellation`, from
 * which no ticket of it is issued and it is never activated (orders.ts `STILL_ISSUING`).
 */

/**
 * Step 2 of a checkout awaiting payment: its PaymentIntent cancelled first (so no payment can come once the stock is
 * back on sale; Stripe not answering is the 503, and a retry resumes), then the order `cancelled` with its
 * reservation released in one transaction: `closed`. Else the order as it `moved` first: `pending` when a payment
 * claimed it (the cancel goes on as for a paid order), `expired` when its reservation lapsed (its stock went back
 * then), closed by another cancel.
 */
export async function closeUnpaid(started: Order, by: string): Promise<{ closed: Order } | { moved: Order }> {
  await cancelOrderPayment(started);
  const ended = await readDecideWrite<Order, { closed: Order } | { moved: Order }>({
    subject: `Order ${started.id}`,
    read: async () => (await readOrder(started.id))!,
    decide: async (order) => {
      if (order.status !== 'awaiting_payment') return { answer: { moved: order } };
      const reservation = (await getReservation(order.checkout!.reservationId))!;
      const at = now().toISOString();
      const entry = { at, by, action: 'cancelled' as const, force: order.cancellation!.force };
      const close = orderStatusMoveActions(order, { status: 'cancelled' }, { APPEND: { history: [entry] } });
      return {
        write: () => releaseWith(reservation, at, close),
        answer: { closed: { ...order, status: 'cancelled', history: [...(order.history ?? []), entry] } },
      };
    },
  });
  if ('closed' in ended) await orderEntriesCaughtUp([started.id]);
  return ended;
}

/**
 * Step 2 of a paid checkout still issuing its tickets. From the cancellation's start no ticket of it is issued, so the
 * order read now holds every ticket it will ever have: each cancelled (as step 3), the payment refunded (step 4),
 * then in one transaction, conditional on the order still `pending` with those tickets, the order closed (its
 * `ticketIds` set, so staff see them cancelled; the outcome `refunded` once a payment was taken) and the places its
 * other attendees held given back (`heldForUnissued`). Tickets first, then the money, then the stock: a failure
 * half-way leaves the order being cancelled, and a retry resumes.
 */
export async function stopIssuing(started: Order, actor: Actor, force: boolean): Promise<StaffOrder> {
  const read = (await readOrder(started.id))!;
  if (read.status !== 'pending') return toStaffOrder(read, await readTicketRecords(soldTicketIds(read)));
  const ids = issuedTicketIds(read);
  const cancelled: TicketRecord[] = [];
  for (const ticket of ticketsToCancel(await soldTickets(ids)))
    cancelled.push(await cancelTicket(ticket, actor, force));
  const { order: refunded } = await refund(read);
  const ended = await readDecideWrite<Order, { closed: Order } | { asItIs: StaffOrder }>({
    subject: `Order ${started.id}`,
    read: async (attempt) => (attempt === 0 ? refunded : (await readOrder(started.id))!),
    decide: async (order) => {
      // Closed meanwhile (another cancel of it, or its payment refunded by the issue for want of stock): as it is.
      if (order.status !== 'pending')
        return { answer: { asItIs: toStaffOrder(order, await readTicketRecords(soldTicketIds(order))) } };
      const outcome = cancellationOutcome(order);
      const at = now().toISOString();
      const entry = { at, by: actorLabel(actor), action: outcome, force };
      const cancellation = { ...order.cancellation!, outcome };
      const close = orderStatusMoveActions(
        order,
        { status: outcome },
        { SET: { ticketIds: ids, cancellation }, APPEND: { history: [entry] } },
        sameLength('issuedTickets', ids.length),
      );
      const held = await heldForUnissued(order);
      return {
        write: () => (held.release ? releaseWith(held.release, at, close) : releaseHeldWith(held.takes, close)),
        answer: {
          closed: {
            ...order,
            status: outcome,
            ticketIds: ids,
            cancellation,
            history: [...(order.history ?? []), entry],
          },
        },
      };
    },
  });
  if ('asItIs' in ended) return ended.asItIs;
  await orderEntriesCaughtUp([started.id]);
  return finished(
    ended.closed,
    cancelled.map((ticket) => ticket.id),
  );
}

/**
 * What a pending checkout still holds for its attendees not issued: the places of a late payment's hold again
 * (`checkout.takes`), or of its paid reservation; its reservation itself while still `checked_out` (the payment has
 * not converted it: no ticket issued from it yet); nothing when it lapsed or was released before the payment (its
 * stock went back then) and nothing was held again.
 */
async function heldForUnissued(order: Order): Promise<{ release?: Reservation; takes: StockTake[] }> {
  const checkout = order.checkout!;
  const issued = new Set(Object.keys(order.issuedTickets ?? {}).map(Number));
  if (checkout.takes) return { takes: unissuedTakes(checkout.takes, await readCheckoutAttendees(order), issued) };
  const reservation = await getReservation(checkout.reservationId);
  if (reservation?.status === 'checked_out') return { release: reservation, takes: [] };
  if (reservation?.status === 'paid')
    return { takes: unissuedTakes(reservation.takes, await readCheckoutAttendees(order), issued) };
  return { takes: [] };
}
