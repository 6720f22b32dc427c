import { now } from '../../clock.ts';
import { addTransactions } from '../data/order-lists.ts';
import { readTicketRecords } from '../../tickets/data/ticket-records.ts';
import { readOrder } from '../data/order-staff.ts';
import {
  cancellationRefunds,
  chargedBackPayment,
  deskRefund,
  orderCancelledMail,
  replacementIds,
  toStaffOrder,
  type StaffOrder,
} from '../domain/order-cancel.ts';
import type { Order, OrderTransaction } from '../domain/order.ts';
import type { TicketRecord } from '../../tickets/domain/ticket.ts';
import { Conflict } from '../../errors.ts';
import { logger } from '../../logger.ts';
import { sendEmail } from '../../services/email.ts';
import { refundStripePayment } from './refunds.ts';

/**
 * The steps a staff cancellation is made of (cancel-order.ts for a whole order, cancel-checkout.ts for a checkout not
 * yet active, cancel-part.ts for part of one); each ticket's own cancel is cancel-ticket.ts.
 */

/** The order closed by this request: the buyer mailed with the tickets it cancelled, the order answered. */
export async function finished(order: Order, cancelledIds: number[]): Promise<StaffOrder> {
  const changed = await readTicketRecords(cancelledIds);
  await mailBuyer(order, [...changed.values()]);
  return toStaffOrder(order, await readTicketRecords(order.ticketIds));
}

/**
 * Each processor's payment less its refunds refunded and recorded; the order with its transactions, and whether its
 * card payment is charged back (no refund of ours: shared/README.md "Refunds").
 */
export async function refund(order: Order): Promise<{ order: Order; chargedBack: boolean }> {
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

export async function mailBuyer(order: Order, cancelled: TicketRecord[]): Promise<void> {
  try {
    await sendEmail({ to: order.emailAddress, ...orderCancelledMail(order, cancelled) });
  } catch (error) {
    logger.error('order cancellation mail not sent', { orderId: order.id, error: error as Error });
  }
}
