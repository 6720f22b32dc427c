import {
  type PartCancellation,
  orderShipping,
  orderTicketStatus,
  type Order,
  type OrderCancellation,
} from './order.ts';
import type { Customer } from '../../identity/domain/customer.ts';
import { isChargeback, refundFailures } from './order-dispute.ts';
import type { StaffOrder } from './staff-order.ts';

export type { StaffOrder };
import { PROCESS_STATE, type TicketRecord } from '../../tickets/domain/ticket.ts';
import { addAmounts, formatAmount } from '../../money.ts';

/**
 * Staff's view of an order (its schema and type: staff-order.ts) and the rules of cancelling one
 * (`POST /orders/{id}/cancel`). Pure.
 *
 * Which tickets a cancellation changes: what the order sold, that still holds a place or could be admitted:
 * active, reserved (pending) and, with `force`, checked-in ones. A ticket transferred to another type or event
 * was replaced by a new ticket of the same holder and order (transfer.ts): the cancellation follows
 * `transferredTo` to it, as pretix cancels a changed position with its order. Already cancelled and deleted
 * ones stay as they are.
 */

/** Tickets transferred away: the ids of their replacements, to read next (none already `seen`). */
export const replacementIds = (tickets: readonly TicketRecord[], seen: ReadonlySet<number>): number[] =>
  tickets.flatMap((ticket) =>
    ticket.transferState === 'transferred' && ticket.transferredTo !== null && !seen.has(ticket.transferredTo)
      ? [ticket.transferredTo]
      : [],
  );

/** A pending order's tickets issued so far (`issuedTickets`), in attendee order. */
export const issuedTicketIds = (order: Pick<Order, 'issuedTickets'>): number[] =>
  Object.entries(order.issuedTickets ?? {})
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, id]) => id);

/** The tickets an order sold so far: an active or closed order's `ticketIds`, a pending one's issued ones. */
export const soldTicketIds = (order: Pick<Order, 'status' | 'ticketIds' | 'issuedTickets'>): number[] =>
  order.status === 'pending' ? issuedTicketIds(order) : order.ticketIds;

/** The order's tickets the cancellation moves to cancelled. */
export const ticketsToCancel = (tickets: readonly TicketRecord[]): TicketRecord[] =>
  tickets.filter((ticket) => ['active', 'pending', 'checked_in'].includes(orderTicketStatus(ticket)));

/** The order's checked-in tickets: they need `force`. */
export const checkedInTickets = (tickets: readonly TicketRecord[]): TicketRecord[] =>
  tickets.filter((ticket) => !ticket.deleted && ticket.processState === PROCESS_STATE.checkedIn);

/** Whether a payment was taken on the order (refunded since or not): then it ends `refunded`. */
export const hasPayment = (order: Pick<Order, 'transactions'>): boolean =>
  order.transactions.some((transaction) => transaction.amount > 0);

/** What a cancellation still has to refund on one processor: its payments less its refunds, and the payment's reference. */
export interface RefundDue {
  processor: string;
  /** Positive, in the currency's major unit. */
  amount: number;
  /** The latest payment's reference (Stripe's: the PaymentIntent). */
  paymentReference: string;
}

/** Per processor, what is paid and not yet refunded (a refund made in Stripe's dashboard counts); `comp` is nothing. */
export function refundsDue(order: Pick<Order, 'transactions'>): RefundDue[] {
  const due = new Map<string, RefundDue>();
  for (const { processor, amount, reference } of order.transactions) {
    if (processor === 'comp') continue;
    const entry = due.get(processor) ?? { processor, amount: 0, paymentReference: reference };
    entry.amount = addAmounts([entry.amount, amount]);
    if (amount > 0) entry.paymentReference = reference;
    due.set(processor, entry);
  }
  return [...due.values()].filter((entry) => entry.amount > 0);
}

/**
 * A box-office payment's refund (`cash`, `card_present`: any processor but Stripe and `comp`), paid out at the desk:
 * the order's transaction, once (its reference names the order and processor).
 */
export const deskRefund = (orderId: number, due: RefundDue, time: string): Order['transactions'][number] => ({
  amount: -due.amount,
  processor: due.processor,
  reference: `order-${orderId}-refund-${due.processor}`,
  time,
});

/**
 * What a cancellation refunds itself: what is due, but not a charged-back card payment (Stripe refuses to refund it:
 * the card's bank has taken the money back, or decides whether it does).
 */
export const cancellationRefunds = (order: Pick<Order, 'transactions' | 'dispute'>): RefundDue[] =>
  refundsDue(order).filter((due) => due.processor !== 'stripe' || !isChargeback(order.dispute));

/** Whether a card payment is due a refund that Stripe refuses (charged back): the cancellation leaves it to the dispute. */
export const chargedBackPayment = (order: Pick<Order, 'transactions' | 'dispute'>): boolean =>
  isChargeback(order.dispute) && refundsDue(order).some((due) => due.processor === 'stripe');

/** `refunded` when a payment was taken and the cancellation returns it; a charged-back order ends `cancelled`. */
export const cancellationOutcome = (order: Pick<Order, 'transactions' | 'dispute'>): OrderCancellation['outcome'] =>
  hasPayment(order) && !isChargeback(order.dispute) ? 'refunded' : 'cancelled';

/**
 * An order already cancelled, refunded or expired (a checkout's that ended unpaid: a payment arriving late is the
 * webhook's to take or refund, checkout-payment.ts): a cancel is a 409 `already_cancelled`.
 */
export const isClosed = (order: Pick<Order, 'status'>): boolean =>
  order.status === 'cancelled' || order.status === 'refunded' || order.status === 'expired';

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
      paid: addAmounts(order.transactions.map((transaction) => transaction.amount)),
      transactions: order.transactions,
      ...(order.paymentProblems?.length ? { problems: order.paymentProblems } : {}),
    },
    affiliate: order.affiliate,
    waveTimeId: order.waveTimeId,
    teamId: order.teamId,
    ticketIds: order.ticketIds.map(String),
    history: [
      { at: order.created, by: order.boxOffice?.soldBy ?? `customer ${order.customerId}`, action: 'created' },
      ...(order.history ?? []).map(({ ticketIds, ...entry }) =>
        ticketIds ? { ...entry, ticketIds: ticketIds.map(String) } : entry,
      ),
    ],
  };
  if (order.amounts) shown.amounts = order.amounts;
  if (order.promo) shown.promoCode = order.promo.code;
  if (order.billing) shown.billing = order.billing;
  const shipping = orderShipping(order);
  if (shipping) shown.shipping = shipping;
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
          taxAmount: ticket.taxAmount,
          barcode: ticket.barcode,
        },
      ];
    });
  if (order.dispute) shown.dispute = order.dispute;
  const failures = refundFailures(order);
  if (failures.length) shown.refundFailures = failures;
  if (order.cancellation) shown.cancellation = order.cancellation;
  return shown;
}

/** The buyer's mail when staff cancel their order (plain text, as account-mail.ts's). */
export function orderCancelledMail(
  order: Order,
  cancelled: readonly TicketRecord[],
): { subject: string; text: string } {
  const refunded = order.status === 'refunded';
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
        ? `The payment of ${formatAmount(order.grandTotal, order.checkout?.currency)} is refunded to the way you paid.`
        : isChargeback(order.dispute)
          ? 'The payment is disputed with your card issuer, which decides what is returned to you.'
          : 'No payment was taken for this order.',
    ].join('\n'),
  };
}

/** The buyer's mail when staff cancel part of their order: the tickets no longer valid, the share refunded (`EUR 12.50`). */
export function partCancelledMail(
  order: Order,
  part: Pick<PartCancellation, 'ticketIds'>,
  refunded: string | undefined,
  cancelled: readonly TicketRecord[],
): { subject: string; text: string } {
  return {
    subject: `Tickets of your order ${order.id} were cancelled`,
    text: [
      `Hello ${order.purchaser || 'there'},`,
      '',
      `The organiser cancelled ${part.ticketIds.length} ticket(s) of order ${order.id} (event ${order.eventId}); the other tickets stay valid.`,
      ...(cancelled.length ? ['These tickets are no longer valid:'] : []),
      ...cancelled.map(
        (ticket) =>
          `- Ticket ${ticket.id}, ${`${ticket.partyMember} ${ticket.partyMemberLastName}`.trim() || '(no name)'}, barcode ${ticket.barcode}`,
      ),
      '',
      refunded ? `${refunded} is refunded to the way you paid.` : 'Nothing is refunded for them.',
    ].join('\n'),
  };
}
