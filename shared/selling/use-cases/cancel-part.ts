import { createHash } from 'node:crypto';
import type { AdminPrincipal } from '../../auth/tokens.ts';
import { now } from '../../clock.ts';
import { getEvent } from '../../events/data/events.ts';
import { addTransactions } from '../data/order-lists.ts';
import { readOrder, startPartCancellation } from '../data/order-staff.ts';
import { readDecideWrite } from '../../data/read-decide-write.ts';
import { readTicketRecords } from '../../tickets/data/ticket-records.ts';
import {
  checkedInTickets,
  isClosed,
  partCancelledMail,
  refundsDue,
  ticketsToCancel,
  toStaffOrder,
  type StaffOrder,
} from '../domain/order-cancel.ts';
import { saleCurrency } from '../../events/domain/event.ts';
import type { Order, OrderTransaction, PartCancellation } from '../domain/order.ts';
import { actorLabel } from '../../tickets/domain/ticket-history.ts';
import type { TicketRecord } from '../../tickets/domain/ticket.ts';
import { Conflict, ValidationError } from '../../errors.ts';
import { logger } from '../../logger.ts';
import { formatAmount, toMajor, toMinor } from '../../money.ts';
import { sendEmail } from '../../services/email.ts';
import { adminActor, inScope } from '../../identity/use-cases/event-scope.ts';
import { refundStripePart } from './refunds.ts';
import { paidForTicket } from '../domain/sale-prices.ts';
import { cancelOrder } from './cancel-order.ts';
import { soldTickets } from './cancel-steps.ts';
import { cancelTicket } from './cancel-ticket.ts';
import { creditPart } from './invoices.ts';
import { orderFor } from './order-reads.ts';

type Caller = Pick<AdminPrincipal, 'id' | 'eventScope'>;

/**
 * `POST /orders/{id}/cancel` with `ticketIds`: part of an active order cancelled (shared/README.md "Staff's orders"),
 * the rest staying `active`. In steps a retry of the same part resumes, as the whole cancel's:
 *
 * 1. the part is recorded on the order (`partCancellations`, with a `tickets_cancelled` history entry), conditional on
 *    the order `active`, no whole cancellation started and the parts as read: a part naming a ticket of an earlier
 *    part is 409 `already_cancelled`, the same part again resumes;
 * 2. each of its tickets that still holds a place (or the replacement a transfer made of it) is cancelled through
 *    `changeTicket` (`cancel_order`, the staff actor in its history, its place back on sale and the type's `sold`
 *    down);
 * 3. its share is refunded: what its tickets cost, each its price, tax and part of the booking fee (in the currency's
 *    minor units: sale-prices.ts `paidForTicket`), never the shipping (a
 *    part keeps the order posted; the shipping comes back only when the order ends whole), from what each processor
 *    still holds: Stripe's `refunds.create` with that `amount`, idempotency key and `metadata.part` naming the part
 *    (`partName`), a box-office payment recorded as due at the desk; each recorded once by its reference;
 * 4. when no ticket of the order holds a place any more, the order ends as a whole cancel ends it (cancel-order.ts:
 *    the rest of the payment, the shipping, refunded, the status `refunded` or `cancelled`), else the buyer is mailed.
 *
 * A ticket not of the order (another order's, or none) is a 400 naming it: the ids are the order's `ticketIds`, so the
 * answer tells nothing of other orders. A checked-in ticket needs `force`; an order not `active` (awaiting payment,
 * being issued) is cancelled whole (409 `order_not_active`); a closed one is 409 `already_cancelled`.
 */
export async function cancelPart(caller: Caller, id: number, ticketIds: number[], force: boolean): Promise<StaffOrder> {
  const actor = adminActor(caller);
  const { order, part } = await recordPart(caller, id, ticketIds, force, actorLabel(actor));
  const cancelled: TicketRecord[] = [];
  for (const ticket of ticketsToCancel(await soldTickets(part.ticketIds)))
    cancelled.push(await cancelTicket(ticket, actor, part.force));

  const refunded = await refundPart(order, part);
  await creditPart(id, part);
  const remaining = ticketsToCancel(await soldTickets(order.ticketIds));
  if (!remaining.length) return cancelOrder(caller, id, { force: part.force });
  const after = (await readOrder(id))!;
  const changed = await readTicketRecords(cancelled.map((ticket) => ticket.id));
  await mailPart(after, part, refunded, [...changed.values()]);
  return toStaffOrder(after, await readTicketRecords(after.ticketIds));
}

/** Step 1, or the same part recorded by an earlier attempt (a retry): the order as read and its part. */
async function recordPart(
  caller: Caller,
  id: number,
  ticketIds: number[],
  force: boolean,
  by: string,
): Promise<{ order: Order; part: PartCancellation }> {
  const wanted = [...ticketIds].sort((a, b) => a - b);
  return readDecideWrite({
    subject: `Order ${id}`,
    read: () => orderFor(caller, id),
    decide: async (order) => {
      refuseUnlessActive(order);
      const foreign = wanted.filter((ticketId) => !order.ticketIds.includes(ticketId));
      if (foreign.length)
        throw new ValidationError(
          `Tickets ${foreign.join(', ')} are not tickets of order ${id}.`,
          foreign.map((ticketId) => ({
            path: `body.ticketIds[${ticketIds.indexOf(ticketId)}]`,
            message: `not a ticket of order ${id}`,
          })),
        );
      const same = order.partCancellations?.find((part) => part.ticketIds.join() === wanted.join());
      if (same) return { answer: { order, part: same } };
      const earlier = new Set(order.partCancellations?.flatMap((part) => part.ticketIds));
      const again = wanted.filter((ticketId) => earlier.has(ticketId));
      if (again.length)
        throw new Conflict(
          `Tickets ${again.join(', ')} of order ${id} were cancelled already, in another part.`,
          'already_cancelled',
          { ticketIds: again.map(String) },
        );
      await refuseTickets(caller, id, await soldTickets(wanted), force);
      const at = now().toISOString();
      const part: PartCancellation = { ticketIds: wanted, at, by, force };
      const entry = { at, by, action: 'tickets_cancelled' as const, force, ticketIds: ticketIds };
      // Lost when another part or a whole cancel was recorded, or the order moved, since the read.
      return { write: () => startPartCancellation(order, part, entry), answer: { order, part } };
    },
  });
}

function refuseUnlessActive(order: Order): void {
  if (isClosed(order) || order.cancellation)
    throw new Conflict(
      `Order ${order.id} is already ${order.cancellation ? 'being cancelled' : order.status}.`,
      'already_cancelled',
      {
        orderStatus: order.status,
      },
    );
  if (order.status !== 'active')
    throw new Conflict(
      `Order ${order.id} is ${order.status}: only an active order is cancelled in part; cancel it whole.`,
      'order_not_active',
      { orderStatus: order.status },
    );
}

/** The whole cancel's refusals, for the part's tickets: one moved to an event out of scope, one checked in without `force`. */
async function refuseTickets(caller: Caller, id: number, tickets: TicketRecord[], force: boolean): Promise<void> {
  const elsewhere = tickets.filter((ticket) => !inScope(caller.eventScope, ticket.eventId));
  if (elsewhere.length)
    throw new Conflict(
      `Tickets ${elsewhere.map((ticket) => ticket.id).join(', ')} of order ${id} were transferred to an event outside your events.`,
      'transferred_out_of_scope',
      { ticketIds: elsewhere.map((ticket) => String(ticket.id)) },
    );
  const checkedIn = checkedInTickets(tickets);
  if (checkedIn.length && !force)
    throw new Conflict(
      `Tickets ${checkedIn.map((ticket) => ticket.id).join(', ')} of order ${id} are checked in: cancel with {"force": true} to cancel them too.`,
      'checked_in',
      { ticketIds: checkedIn.map((ticket) => String(ticket.id)) },
    );
}

/**
 * A part's name: Stripe's idempotency key of its refund and the refund's `metadata.part`, and the reference of a desk
 * refund. From its sorted ticket ids, hashed so that 50 ids stay within Stripe's 255-character key.
 */
export const partName = (orderId: number, part: Pick<PartCancellation, 'ticketIds'>): string =>
  `order-${orderId}-refund-tickets-${createHash('sha256').update(part.ticketIds.join(',')).digest('hex').slice(0, 24)}`;

/** The currency an order was paid in: its checkout's, or a box-office sale's event's. */
const currencyOf = async (order: Order): Promise<string> =>
  order.checkout?.currency ?? saleCurrency(await getEvent(order.eventId));

/** Step 3: the part's share refunded from what each processor still holds, recorded; the amount refunded (in words). */
async function refundPart(order: Order, part: PartCancellation): Promise<string | undefined> {
  const currency = await currencyOf(order);
  const tickets = await readTicketRecords(part.ticketIds);
  let share = part.ticketIds.reduce((sum, ticketId) => {
    const ticket = tickets.get(ticketId);
    return sum + (ticket ? paidForTicket(ticket, currency) : 0);
  }, 0);
  const name = partName(order.id, part);
  const refunds: OrderTransaction[] = [];
  const current = (await readOrder(order.id))!;
  for (const due of refundsDue(current)) {
    const amount = Math.min(share, toMinor(due.amount, currency));
    if (amount <= 0) break;
    share -= amount;
    if (due.processor === 'stripe') refunds.push(await refundStripePart(due.paymentReference, name, amount, currency));
    else
      refunds.push({
        amount: -toMajor(amount, currency),
        processor: due.processor,
        reference: `${name}-${due.processor}`,
        time: now().toISOString(),
      });
  }
  if (!refunds.length) return undefined;
  await addTransactions(order.id, refunds);
  const minor = refunds.reduce((sum, refund) => sum - toMinor(refund.amount, currency), 0);
  return formatAmount(toMajor(minor, currency), currency);
}

async function mailPart(order: Order, part: PartCancellation, refunded: string | undefined, cancelled: TicketRecord[]) {
  try {
    await sendEmail({ to: order.emailAddress, ...partCancelledMail(order, part, refunded, cancelled) });
  } catch (error) {
    logger.error('part cancellation mail not sent', { orderId: order.id, error: error as Error });
  }
}
