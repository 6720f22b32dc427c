import type { AdminPrincipal } from '../../auth/tokens.ts';
import { now } from '../../clock.ts';
import { readOrder, startCancellation } from '../data/order-staff.ts';
import { readDecideWrite } from '../../data/read-decide-write.ts';
import { moveOrderStatus, OrderStatusMoved } from '../data/order-status.ts';
import { readTicketRecords } from '../../tickets/data/ticket-records.ts';
import {
  cancellationOutcome,
  checkedInTickets,
  isClosed,
  soldTicketIds,
  ticketsToCancel,
  toStaffOrder,
  type StaffOrder,
} from '../domain/order-cancel.ts';
import type { Order } from '../domain/order.ts';
import { actorLabel } from '../../tickets/domain/ticket-history.ts';
import type { TicketRecord } from '../../tickets/domain/ticket.ts';
import { Conflict } from '../../errors.ts';
import { adminActor, inScope } from '../../identity/use-cases/event-scope.ts';
import { closeUnpaid, stopIssuing } from './cancel-checkout.ts';
import { finished, refund, soldTickets } from './cancel-steps.ts';
import { cancelTicket } from './cancel-ticket.ts';
import { creditRest } from './invoices.ts';
import { orderFor } from './order-reads.ts';

/**
 * `POST /orders/{id}/cancel`: the order's tickets to the spec's cancelled state, the order to `cancelled` (or
 * `refunded` when a payment was taken), the buyer mailed; with `ticketIds`, only those tickets (cancel-part.ts). An
 * order holds up to 50 tickets and a ticket's transaction ~27 actions, so it cannot be one transaction; like a
 * sale's issue it goes in steps, each a conditional write, and a retry (with the same `Idempotency-Key` or another)
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
 *      `refundPaymentOfClosedOrder`) (cancel-checkout.ts `closeUnpaid`);
 *    - `pending` (paid, its tickets being issued): its tickets issued so far (`issuedTickets`, final from step 1) are
 *      cancelled, the payment refunded, and the order closed with the stock its other attendees still held given
 *      back in one transaction (cancel-checkout.ts `stopIssuing`);
 *    - `active`: the steps below (each in cancel-steps.ts);
 * 3. each ticket the order sold that still holds a place (its own, or the replacement a transfer made of one:
 *    order-cancel.ts) is cancelled through `changeTicket` (its own transaction: history with the actor,
 *    `cancel_order` or `force_cancel_order`, the type's `sold` down, lists and statistics); a ticket already
 *    cancelled is skipped, so a repeat does nothing twice;
 * 4. what is paid and not refunded is refunded (shared/README.md "Refunds"): a Stripe payment in full through
 *    Stripe, keyed by the order (a retry, or a crash after Stripe refunded, gets the one refund back), but not a
 *    charged-back one (Stripe refuses it; the dispute settles it and the order ends `cancelled`), a
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

  const refunded = await refund(order);
  order = refunded.order;
  // Before the status moves, so a retry of a cancel that died here still issues it (once: invoices.ts).
  await creditRest(order.id);
  const outcome = refunded.chargedBack ? 'cancelled' : order.cancellation!.outcome;
  // A dispute that came after the cancellation started changes the outcome it recorded.
  const cancellation = { ...order.cancellation!, outcome };
  const entry = { at: now().toISOString(), by, action: outcome, force: recordedForce };
  try {
    await moveOrderStatus(order, { status: outcome }, { SET: { cancellation }, APPEND: { history: [entry] } });
    order = { ...order, status: outcome, cancellation, history: [...(order.history ?? []), entry] };
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

/** Step 1, or the cancellation already started (a retry): the order with its `cancellation`. */
async function begin(
  caller: Pick<AdminPrincipal, 'id' | 'eventScope'>,
  id: number,
  force: boolean,
  by: string,
): Promise<Order> {
  return readDecideWrite({
    subject: `Order ${id}`,
    read: () => orderFor(caller, id),
    decide: async (order) => {
      if (isClosed(order))
        throw new Conflict(`Order ${id} is already ${order.status}.`, 'already_cancelled', {
          orderStatus: order.status,
        });
      if (order.cancellation) return { answer: order };
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
      // Lost when another request started (or the order moved status) since the read.
      return {
        write: () => startCancellation(order, cancellation, entry),
        answer: { ...order, cancellation, history: [...(order.history ?? []), entry] },
      };
    },
  });
}
