import { now } from '../../clock.ts';
import { addTransactions } from '../../data/order-lists.ts';
import { readTicketRecords } from '../../data/ticket-records.ts';
import {
  deskRefund,
  orderCancelledMail,
  refundsDue,
  replacementIds,
  ticketsToCancel,
  toStaffOrder,
  type StaffOrder,
} from '../../domain/order-cancel.ts';
import type { Order, OrderTransaction } from '../../domain/order.ts';
import type { Actor } from '../../domain/ticket-history.ts';
import { withStates, statesOf } from '../../domain/ticket-states.ts';
import type { Via } from '../../domain/ticket-transitions.ts';
import { PROCESS_STATE, type TicketRecord } from '../../domain/ticket.ts';
import { logger } from '../../logger.ts';
import { sendEmail } from '../../services/email.ts';
import { refundStripePayment } from '../payments/refunds.ts';
import { changeTicket } from '../tickets/change-ticket.ts';

/**
 * The steps a staff cancellation is made of (cancel-order.ts for a whole order, cancel-checkout.ts for a checkout not
 * yet active, cancel-part.ts for part of one; a failed sale's undo, undo-sale.ts, cancels its tickets the same way).
 */

/** The order closed by this request: the buyer mailed with the tickets it cancelled, the order answered. */
export async function finished(order: Order, cancelledIds: number[]): Promise<StaffOrder> {
  const changed = await readTicketRecords(cancelledIds);
  await mailBuyer(order, [...changed.values()]);
  return toStaffOrder(order, await readTicketRecords(order.ticketIds));
}

/** Each processor's payment less its refunds refunded and recorded; the order with its transactions. */
export async function refund(order: Order): Promise<Order> {
  const refunds: OrderTransaction[] = [];
  for (const due of refundsDue(order))
    if (due.processor === 'stripe') refunds.push(...(await refundStripePayment(order.id, due.paymentReference)));
    else refunds.push(deskRefund(order.id, due, now().toISOString()));
  if (!refunds.length) return order;
  const recorded = await addTransactions(order.id, refunds);
  return { ...order, transactions: recorded!.transactions };
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
export async function cancelTicket(ticket: TicketRecord, actor: Actor, force: boolean): Promise<TicketRecord> {
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
