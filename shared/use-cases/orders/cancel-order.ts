import type { AdminPrincipal } from '../../auth/tokens.ts';
import { now } from '../../clock.ts';
import { readOrder, startCancellation } from '../../data/order-staff.ts';
import { addTransactions } from '../../data/order-lists.ts';
import { moveOrderStatus, OrderStatusMoved } from '../../data/order-status.ts';
import { readTicketRecords } from '../../data/ticket-records.ts';
import {
  cancellationOutcome,
  cancellationRefunds,
  chargedBackPayment,
  checkedInTickets,
  deskRefund,
  isClosed,
  orderCancelledMail,
  replacementIds,
  ticketsToCancel,
  toStaffOrder,
  type StaffOrder,
} from '../../domain/order-cancel.ts';
import type { Order, OrderTransaction } from '../../domain/order.ts';
import { actorLabel } from '../../domain/ticket-history.ts';
import { withStates, statesOf } from '../../domain/ticket-states.ts';
import type { Via } from '../../domain/ticket-transitions.ts';
import { PROCESS_STATE, type TicketRecord } from '../../domain/ticket.ts';
import { Conflict } from '../../errors.ts';
import { logger } from '../../logger.ts';
import { sendEmail } from '../../services/email.ts';
import { adminActor, inScope } from '../event-scope.ts';
import { refundStripePayment } from '../payments/refunds.ts';
import { changeTicket } from '../tickets/change-ticket.ts';
import { orderFor } from './order-reads.ts';

/**
 * `POST /orders/{id}/cancel`: the order's tickets to the spec's cancelled state, the order to `cancelled` (or
 * `refunded` when a payment was taken), the buyer mailed. An order holds up to 50 tickets and a ticket's
 * transaction ~27 actions, so it cannot be one transaction; like `createOrder` it goes in steps, each a
 * conditional write, and a retry (with the same `Idempotency-Key` or another) resumes where one stopped:
 *
 * 1. the order records its `cancellation` (who, when, `force`, the status it will end in), conditional on none
 *    having started: from here the order reads as being cancelled;
 * 2. each ticket the order sold that still holds a place (its own, or the replacement a transfer made of one:
 *    order-cancel.ts) is cancelled through `changeTicket` (its own transaction: history with the actor,
 *    `cancel_order` or `force_cancel_order`, the type's `sold` down, lists and statistics); a ticket already
 *    cancelled is skipped, so a repeat does nothing twice;
 * 3. what is paid and not refunded is refunded (shared/README.md "Refunds"): a Stripe payment in full through
 *    Stripe, keyed by the order (a retry, or a crash after Stripe refunded, gets the one refund back), but not a
 *    charged-back one (Stripe refuses it; the dispute settles it and the order ends `cancelled`), a
 *    box-office payment recorded as due at the desk; each a negative transaction, recorded once by its reference.
 *    Stripe not answering is a 503 with `Retry-After`, Stripe refusing a 409 `refund_refused`: the order stays
 *    being cancelled, its status unmoved, and a retry resumes here;
 * 4. the order's status moves (with the staff's counts, one transaction conditional on the status it leaves);
 * 5. the buyer is mailed (after the commit: a failed mail is logged, the cancellation stands).
 *
 * A checked-in ticket needs `force: true` (else 409 `checked_in` naming them, nothing written); a replacement in an
 * event outside the caller's scope is 409 `transferred_out_of_scope`, nothing written. A closed order is 409
 * `already_cancelled`.
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
  const tickets = await soldTickets(order);
  const cancelled: TicketRecord[] = [];
  for (const ticket of ticketsToCancel(tickets)) cancelled.push(await cancelTicket(ticket, actor, recordedForce));

  const refunded = await refund(order);
  order = refunded.order;
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
  const after = await readTicketRecords(order.ticketIds);
  const changed = await readTicketRecords(cancelled.map((ticket) => ticket.id));
  await mailBuyer(order, [...changed.values()]);
  return toStaffOrder(order, after);
}

/**
 * Step 3: each processor's payment less its refunds refunded and recorded; the order with its transactions, and
 * whether its card payment is charged back (no refund of ours: README "Refunds").
 */
async function refund(order: Order): Promise<{ order: Order; chargedBack: boolean }> {
  // A dispute recorded since the cancellation started counts: read the order again.
  const current = (await readOrder(order.id)) ?? order;
  let chargedBack = chargedBackPayment(current);
  const refunds: OrderTransaction[] = [];
  for (const due of cancellationRefunds(current))
    if (due.processor === 'stripe') {
      const made = await refundUnlessDisputed(order.id, due.paymentReference);
      if (made) refunds.push(...made);
      else chargedBack = true;
    } else refunds.push(deskRefund(order.id, due, now().toISOString()));
  const { transactions } = refunds.length ? (await addTransactions(order.id, refunds))! : current;
  return { order: { ...order, transactions, dispute: current.dispute }, chargedBack };
}

/**
 * The Stripe refund, or undefined when Stripe refuses it as charged back (`charge_disputed`: the dispute's event has
 * not reached the order yet; it records the dispute when it does).
 */
async function refundUnlessDisputed(orderId: number, paymentIntentId: string): Promise<OrderTransaction[] | undefined> {
  try {
    return await refundStripePayment(orderId, paymentIntentId);
  } catch (error) {
    if (!(error instanceof Conflict) || error.details.processorCode !== 'charge_disputed') throw error;
    logger.warn('Cancelled order not refunded: its payment is charged back', { orderId, paymentIntentId });
    return undefined;
  }
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
    const tickets = await soldTickets(order);
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
 * The tickets the order sold as they are now: its own and, for one transferred to another type or event, its
 * replacement (and that one's, after another transfer), one batch read per generation of transfers.
 */
async function soldTickets(order: Order): Promise<TicketRecord[]> {
  const tickets: TicketRecord[] = [];
  const seen = new Set<number>(order.ticketIds);
  for (let ids = order.ticketIds; ids.length; ) {
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

async function mailBuyer(order: Order, cancelled: TicketRecord[]): Promise<void> {
  try {
    await sendEmail({ to: order.emailAddress, ...orderCancelledMail(order, cancelled) });
  } catch (error) {
    logger.error('order cancellation mail not sent', { orderId: order.id, error: error as Error });
  }
}
