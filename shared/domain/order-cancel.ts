import type { Customer } from './customer.ts';
import { orderTicketStatus, type Order, type OrderCancellation, type OrderTicketStatus } from './order.ts';
import { PROCESS_STATE, type TicketRecord } from './ticket.ts';

/**
 * Staff's view of an order and the rules of cancelling one (`POST /orders/{id}/cancel`). Pure.
 *
 * Which tickets a cancellation changes: the order's own (`ticketIds`) that still hold a place or could be
 * admitted: active, reserved (pending) and, with `force`, checked-in ones. Already cancelled, deleted and
 * transferred ones stay as they are (a transferred original's replacement belongs to its receiver).
 */

/** The order's tickets the cancellation moves to cancelled. */
export const ticketsToCancel = (tickets: readonly TicketRecord[]): TicketRecord[] =>
  tickets.filter((ticket) => ['active', 'pending', 'checked_in'].includes(orderTicketStatus(ticket)));

/** The order's checked-in tickets: they need `force`. */
export const checkedInTickets = (tickets: readonly TicketRecord[]): TicketRecord[] =>
  tickets.filter((ticket) => !ticket.deleted && ticket.processState === PROCESS_STATE.checkedIn);

/** Whether a payment was taken on the order (its transactions sum above zero): then it ends `refunded`. */
export const hasPayment = (order: Pick<Order, 'transactions'>): boolean =>
  order.transactions.reduce((sum, transaction) => sum + transaction.amount, 0) > 0;

export const cancellationOutcome = (order: Pick<Order, 'transactions'>): OrderCancellation['outcome'] =>
  hasPayment(order) ? 'refunded' : 'cancelled';

/**
 * An order already cancelled, refunded or expired (a checkout's that ended unpaid: a payment arriving late is the
 * webhook's to take or refund, checkout-payment.ts): a cancel is a 409 `already_cancelled`.
 */
export const isClosed = (order: Pick<Order, 'status'>): boolean =>
  order.status === 'cancelled' || order.status === 'refunded' || order.status === 'expired';

export interface StaffOrderTicket {
  id: string;
  status: OrderTicketStatus;
  typeId: number;
  name: string;
  price: number;
  barcode: string;
}

/** `GET /orders/{id}` and the list's entries: the order with its amounts, customer, payment and history. */
export interface StaffOrder {
  id: string;
  eventId: number;
  status: Order['status'];
  created: string;
  purchasedDate: string;
  customer: { id: number; emailAddress: string; purchaser: string; name?: string };
  grandTotal: number;
  /** Payments (positive) and refunds (negative), as the processor reported them. */
  payment: { paid: number; transactions: Order['transactions'] };
  affiliate: string | null;
  waveTimeId: number | null;
  teamId: number | null;
  ticketIds: string[];
  tickets?: StaffOrderTicket[];
  cancellation?: OrderCancellation;
  history: { at: string; by: string; action: string; force?: boolean }[];
}

export function toStaffOrder(
  order: Order,
  tickets?: ReadonlyMap<number, TicketRecord>,
  customer?: Pick<Customer, 'name'>,
): StaffOrder {
  const shown: StaffOrder = {
    id: String(order.id),
    eventId: order.eventId,
    status: order.status,
    created: order.created,
    purchasedDate: order.purchasedDate,
    customer: {
      id: order.customerId,
      emailAddress: order.emailAddress,
      purchaser: order.purchaser,
      ...(customer ? { name: customer.name } : {}),
    },
    grandTotal: order.grandTotal,
    payment: {
      paid: Math.round(order.transactions.reduce((sum, t) => sum + t.amount, 0) * 100) / 100,
      transactions: order.transactions,
    },
    affiliate: order.affiliate,
    waveTimeId: order.waveTimeId,
    teamId: order.teamId,
    ticketIds: order.ticketIds.map(String),
    history: [{ at: order.created, by: `customer ${order.customerId}`, action: 'created' }, ...(order.history ?? [])],
  };
  if (tickets)
    shown.tickets = order.ticketIds.flatMap((id) => {
      const ticket = tickets.get(id);
      if (!ticket) return [];
      return [
        {
          id: String(id),
          status: orderTicketStatus(ticket),
          typeId: ticket.typeId,
          name: `${ticket.partyMember} ${ticket.partyMemberLastName}`.trim(),
          price: ticket.price,
          barcode: ticket.barcode,
        },
      ];
    });
  if (order.cancellation) shown.cancellation = order.cancellation;
  return shown;
}

/** The buyer's mail when staff cancel their order (plain text, as account-mail.ts's). */
export function orderCancelledMail(
  order: Order,
  cancelled: readonly TicketRecord[],
): { subject: string; text: string } {
  const refunded = order.cancellation?.outcome === 'refunded';
  return {
    subject: `Your order ${order.id} was cancelled`,
    text: [
      `Hello ${order.purchaser || 'there'},`,
      '',
      `Order ${order.id} of ${order.purchasedDate.slice(0, 10)} (event ${order.eventId}) was cancelled by the organiser.`,
      ...(cancelled.length ? ['These tickets are no longer valid:'] : []),
      ...cancelled.map(
        (ticket) =>
          `- Ticket ${ticket.id}, ${`${ticket.partyMember} ${ticket.partyMemberLastName}`.trim() || '(no name)'}, barcode ${ticket.barcode}`,
      ),
      '',
      refunded
        ? `The payment of ${order.grandTotal.toFixed(2)} is refunded to the way you paid.`
        : 'No payment was taken for this order.',
    ].join('\n'),
  };
}
