import type { AdminPrincipal } from '../../auth/tokens.ts';
import { now } from '../../clock.ts';
import { readOrder, startCancellation } from '../../data/order-staff.ts';
import { addTransactions } from '../../data/order-lists.ts';
import { moveOrderStatus, orderStatusMoveActions, OrderStatusMoved, sameLength } from '../../data/order-status.ts';
import { getReservation, returnUnissued } from '../../data/reservations.ts';
import { readTicketRecords } from '../../data/ticket-records.ts';
import {
  cancellationOutcome,
  checkedInTickets,
  deskRefund,
  isClosed,
  issuedTicketIds,
  orderCancelledMail,
  refundsDue,
  replacementIds,
  soldTicketIds,
  ticketsToCancel,
  toStaffOrder,
  type StaffOrder,
} from '../../domain/order-cancel.ts';
import type { Order, OrderTransaction } from '../../domain/order.ts';
import { unissuedTakes, type Reservation, type StockTake } from '../../domain/reservation.ts';
import { actorLabel } from '../../domain/ticket-history.ts';
import { withStates, statesOf } from '../../domain/ticket-states.ts';
import type { Via } from '../../domain/ticket-transitions.ts';
import { PROCESS_STATE, type TicketRecord } from '../../domain/ticket.ts';
import { Conflict } from '../../errors.ts';
import { logger } from '../../logger.ts';
import { sendEmail } from '../../services/email.ts';
import { adminActor, inScope } from '../event-scope.ts';
import { refundStripePayment } from '../payments/refunds.ts';
import { cancelOrderPayment } from '../portal/checkout-intent.ts';
import { changeTicket } from '../tickets/change-ticket.ts';
import { orderFor } from './order-reads.ts';

/**
 * `POST /orders/{id}/cancel`: the order's tickets to the spec's cancelled state, the order to `cancelled` (or
 * `refunded` when a payment was taken), the buyer mailed; with `ticketIds`, only those tickets (cancel-part.ts). An
 * order holds up to 50 tickets and a ticket's transaction ~27 actions, so it cannot be one transaction; like
 * `createOrder` it goes in steps, each a conditional write, and a retry (with the same `Idempotency-Key` or another)
 * resumes where one stopped:
 *
 * 1. the order records its `cancellation` (who, when, `force`, the status it will end in), conditional on none
 *    having started and the status read: from here the order reads as being cancelled, and a checkout's payment
 *    issues no more tickets and never activates it (orders.ts `STILL_ISSUING`);
 * 2. by the status it was in:
 *    - `awaiting_payment` (a checkout not yet paid): its PaymentIntent cancelled at Stripe, then the order `cancelled`
 *      with its reservation released (the stock back on sale) in one transaction conditional on both as read. A
 *      payment that claimed the order first (`pending`) makes that fail, and the cancel goes on as for `pending`; one
 *      that succeeded at Stripe but reaches the webhook after the close is refunded there (refunds.ts
 *      `refundPaymentOfClosedOrder`);
 *    - `pending` (paid, its tickets being issued): its tickets issued so far (`issuedTickets`, final from step 1) are
 *      cancelled, the payment refunded, and the order closed with the stock its other attendees still held given
 *      back in one transaction (`stopIssuing`);
 *    - `active`: the steps below;
 * 3. each ticket the order sold that still holds a place (its own, or the replacement a transfer made of one:
 *    order-cancel.ts) is cancelled through `changeTicket` (its own transaction: history with the actor,
 *    `cancel_order` or `force_cancel_order`, the type's `sold` down, lists and statistics); a ticket already
 *    cancelled is skipped, so a repeat does nothing twice;
 * 4. what is paid and not refunded is refunded (shared/README.md "Refunds"): a Stripe payment in full through
 *    Stripe, keyed by the order (a retry, or a crash after Stripe refunded, gets the one refund back), a
 *    box-office payment recorded as due at the desk; each a negative transaction, recorded once by its reference.
 *    Stripe not answering is a 503 with `Retry-After`, Stripe refusing a 409 `refund_refused`: the order stays
 *    being cancelled, its status unmoved, and a retry resumes here;
 * 5. the order's status moves (with the staff's counts, one transaction conditional on the status it leaves);
 * 6. the buyer is mailed (after the commit: a failed mail is logged, the cancellation stands).
 *
 * A checked-in ticket needs `force: true` (else 409 `checked_in` naming them, nothing written); a replacement in an
 * event outside the caller's scope is 409 `transferred_out_of_scope`, nothing written. A closed order is 409
 * `already_cancelled`; a box-office sale still `pending` (being completed, or undone by its request or the sweep) is
 * 409 `sale_in_progress`.
 */
export async function cancelOrder(
  caller: Pick<AdminPrincipal, 'id' | 'eventScope'>,
  id: number,
  { force = false }: { force?: boolean },
): Promise<StaffOrder> {
  const actor = adminActor(caller);
  const by = actorLabel(actor);
  let order = await begin(caller, id, force, by);
  const recordedForce = force || order.cancellation!.force;
  if (order.status === 'awaiting_payment') {
    const unpaid = await closeUnpaid(order, by);
    if ('closed' in unpaid) return finished(unpaid.closed, []);
    order = unpaid.moved;
    // A lapse, or another cancel, closed it first: as it is, without a second mail.
    if (order.status !== 'pending') return toStaffOrder(order, await readTicketRecords(order.ticketIds));
  }
  if (order.status === 'pending') return stopIssuing(order, actor, recordedForce);

  const tickets = await soldTickets(order.ticketIds);
  const cancelled: TicketRecord[] = [];
  for (const ticket of ticketsToCancel(tickets)) cancelled.push(await cancelTicket(ticket, actor, recordedForce));

  order = await refund(order);
  const outcome = order.cancellation!.outcome;
  const entry = { at: now().toISOString(), by, action: outcome, force: recordedForce };
  try {
    await moveOrderStatus(order, { status: outcome }, { APPEND: { history: [entry] } });
    order = { ...order, status: outcome, history: [...(order.history ?? []), entry] };
  } catch (error) {
    if (!(error instanceof OrderStatusMoved)) throw error;
    // Another request finished it first: answer the order as it now is, without a second mail.
    return toStaffOrder((await readOrder(id))!, await readTicketRecords(order.ticketIds));
  }
  return finished(
    order,
    cancelled.map((ticket) => ticket.id),
  );
}

/** The order closed by this request: the buyer mailed with the tickets it cancelled, the order answered. */
async function finished(order: Order, cancelledIds: number[]): Promise<StaffOrder> {
  const changed = await readTicketRecords(cancelledIds);
  await mailBuyer(order, [...changed.values()]);
  return toStaffOrder(order, await readTicketRecords(order.ticketIds));
}

/** Reads and closes of an order being cancelled before giving up (each lost only to a payment or a lapse moving it). */
const CLOSE_TRIES = 5;

/**
 * Step 2 of a checkout awaiting payment: its PaymentIntent cancelled first (so no payment can come once the stock is
 * back on sale; Stripe not answering is the 503, and a retry resumes), then the order `cancelled` with its
 * reservation released in one transaction: `closed`. Else the order as it `moved` first: `pending` when a payment
 * claimed it (the cancel goes on as for a paid order), `expired` when its reservation lapsed (its stock went back
 * then), closed by another cancel.
 */
async function closeUnpaid(started: Order, by: string): Promise<{ closed: Order } | { moved: Order }> {
  await cancelOrderPayment(started);
  for (let attempt = 0; attempt < CLOSE_TRIES; attempt++) {
    const order = (await readOrder(started.id))!;
    if (order.status !== 'awaiting_payment') return { moved: order };
    const reservation = (await getReservation(order.checkout!.reservationId))!;
    const at = now().toISOString();
    const entry = { at, by, action: 'cancelled' as const, force: order.cancellation!.force };
    const close = orderStatusMoveActions(order, { status: 'cancelled' }, { APPEND: { history: [entry] } });
    if (await returnUnissued({ release: reservation, takes: [] }, at, close))
      return { closed: { ...order, status: 'cancelled', history: [...(order.history ?? []), entry] } };
  }
  throw new Conflict(
    `Order ${started.id} kept changing while it was cancelled; retry the request.`,
    'concurrent_update',
  );
}

/**
 * Step 2 of a paid checkout still issuing its tickets. From the cancellation's start no ticket of it is issued, so the
 * order read now holds every ticket it will ever have: each cancelled (as step 3), the payment refunded (step 4),
 * then in one transaction, conditional on the order still `pending` with those tickets, the order closed (its
 * `ticketIds` set, so staff see them cancelled; the outcome `refunded` once a payment was taken) and the places its
 * other attendees held given back (`heldForUnissued`). Tickets first, then the money, then the stock: a failure
 * half-way leaves the order being cancelled, and a retry resumes.
 */
async function stopIssuing(started: Order, actor: ReturnType<typeof adminActor>, force: boolean): Promise<StaffOrder> {
  const read = (await readOrder(started.id))!;
  if (read.status !== 'pending') return toStaffOrder(read, await readTicketRecords(soldTicketIds(read)));
  const ids = issuedTicketIds(read);
  const cancelled: TicketRecord[] = [];
  for (const ticket of ticketsToCancel(await soldTickets(ids)))
    cancelled.push(await cancelTicket(ticket, actor, force));
  let order = await refund(read);
  for (let attempt = 0; attempt < CLOSE_TRIES; attempt++) {
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
    if (await returnUnissued(await heldForUnissued(order), at, close)) {
      const closed = {
        ...order,
        status: outcome,
        ticketIds: ids,
        cancellation,
        history: [...(order.history ?? []), entry],
      };
      return finished(
        closed,
        cancelled.map((ticket) => ticket.id),
      );
    }
    order = (await readOrder(started.id))!;
    // Closed meanwhile (another cancel of it, or its payment refunded by the issue for want of stock): as it is.
    if (order.status !== 'pending') return toStaffOrder(order, await readTicketRecords(soldTicketIds(order)));
  }
  throw new Conflict(
    `Order ${started.id} kept changing while it was cancelled; retry the request.`,
    'concurrent_update',
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
  if (checkout.takes) return { takes: unissuedTakes(checkout.takes, checkout.attendees, issued) };
  const reservation = await getReservation(checkout.reservationId);
  if (reservation?.status === 'checked_out') return { release: reservation, takes: [] };
  if (reservation?.status === 'paid') return { takes: unissuedTakes(reservation.takes, checkout.attendees, issued) };
  return { takes: [] };
}

/** Step 3: each processor's payment less its refunds refunded and recorded; the order with its transactions. */
async function refund(order: Order): Promise<Order> {
  const refunds: OrderTransaction[] = [];
  for (const due of refundsDue(order))
    if (due.processor === 'stripe') refunds.push(...(await refundStripePayment(order.id, due.paymentReference)));
    else refunds.push(deskRefund(order.id, due, now().toISOString()));
  if (!refunds.length) return order;
  const recorded = await addTransactions(order.id, refunds);
  return { ...order, transactions: recorded!.transactions };
}

/** Step 1, or the cancellation already started (a retry): the order with its `cancellation`. */
async function begin(
  caller: Pick<AdminPrincipal, 'id' | 'eventScope'>,
  id: number,
  force: boolean,
  by: string,
): Promise<Order> {
  for (;;) {
    const order = await orderFor(caller, id);
    if (isClosed(order))
      throw new Conflict(`Order ${id} is already ${order.status}.`, 'already_cancelled', { orderStatus: order.status });
    if (order.cancellation) return order;
    if (order.status === 'pending' && !order.checkout)
      throw new Conflict(
        `Order ${id} is a box-office sale still being completed or undone: cancel it once it is active.`,
        'sale_in_progress',
        { orderStatus: order.status },
      );
    const tickets = await soldTickets(soldTicketIds(order));
    const elsewhere = tickets.filter((ticket) => !inScope(caller.eventScope, ticket.eventId));
    if (elsewhere.length) {
      const list = elsewhere.map((ticket) => String(ticket.id));
      throw new Conflict(
        `Tickets ${list.join(', ')} of order ${id} were transferred to an event outside your events: an administrator of both cancels it.`,
        'transferred_out_of_scope',
        { ticketIds: list },
      );
    }
    const checkedIn = checkedInTickets(tickets);
    if (checkedIn.length && !force) {
      const list = checkedIn.map((ticket) => String(ticket.id));
      throw new Conflict(
        `Tickets ${list.join(', ')} of order ${id} are checked in: cancel with {"force": true} to cancel them too.`,
        'checked_in',
        { ticketIds: list },
      );
    }
    const at = now().toISOString();
    const cancellation = { at, by, force, outcome: cancellationOutcome(order) };
    const entry = { at, by, action: 'cancel_started' as const, force };
    if (await startCancellation(order, cancellation, entry))
      return { ...order, cancellation, history: [...(order.history ?? []), entry] };
    // Another request started (or the order moved status) in between: read it again.
  }
}

/**
 * The tickets an order sold (`ticketIds`) as they are now: each and, for one transferred to another type or event,
 * its replacement (and that one's, after another transfer), one batch read per generation of transfers.
 */
export async function soldTickets(ticketIds: readonly number[]): Promise<TicketRecord[]> {
  const tickets: TicketRecord[] = [];
  const seen = new Set<number>(ticketIds);
  for (let ids = [...ticketIds]; ids.length; ) {
    const read = [...(await readTicketRecords(ids)).values()];
    tickets.push(...read);
    ids = replacementIds(read, seen);
    for (const next of ids) seen.add(next);
  }
  return tickets;
}

/** A ticket of the order to the spec's cancelled state (skipped when it no longer holds a place); also a failed sale's undo (undo-sale.ts). */
export async function cancelTicket(
  ticket: TicketRecord,
  actor: ReturnType<typeof adminActor>,
  force: boolean,
): Promise<TicketRecord> {
  const via: Via[] = force ? ['cancel_order', 'force_cancel'] : ['cancel_order'];
  return changeTicket(ticket.id, { actor, action: 'cancel_order', via }, (record, at) => {
    // Changed since it was read (cancelled by an earlier attempt, deleted, transferred): nothing to do.
    if (!ticketsToCancel([record]).length) return { changes: [], result: record };
    const after = {
      ...withStates(record, { ...statesOf(record), processState: PROCESS_STATE.cancelled }),
      updated: at,
    };
    const forced = record.processState === PROCESS_STATE.checkedIn;
    return {
      changes: [{ before: record, after }],
      action: forced ? 'force_cancel_order' : 'cancel_order',
      result: after,
    };
  });
}

export async function mailBuyer(order: Order, cancelled: TicketRecord[]): Promise<void> {
  try {
    await sendEmail({ to: order.emailAddress, ...orderCancelledMail(order, cancelled) });
  } catch (error) {
    logger.error('order cancellation mail not sent', { orderId: order.id, error: error as Error });
  }
}
