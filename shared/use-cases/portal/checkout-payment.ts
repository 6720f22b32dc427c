import { now } from '../../clock.ts';
import { findTicketType, getEvent } from '../../data/events.ts';
import { activateOrder, getOrder, moveOrder } from '../../data/orders.ts';
import { convertHold, getReservation, holdAgain } from '../../data/reservations.ts';
import { getShippingMethod } from '../../data/shipping-methods.ts';
import { readStock } from '../../data/stock.ts';
import { readTicketRecords } from '../../data/ticket-records.ts';
import type { Order, OrderTransaction } from '../../domain/order.ts';
import { planTakes, type Reservation, type StockTake } from '../../domain/reservation.ts';
import { logger } from '../../logger.ts';
import { refundStripePayment } from '../payments/refunds.ts';
import { createTicket } from '../tickets/create-ticket.ts';
import { sendOrderConfirmation } from './order-confirmation.ts';

/** The payment that paid an order, as Stripe reported it (none for a free order). */
export interface Payment {
  intentId: string;
  /** In the currency's minor unit, as Stripe counts it. */
  amount: number;
}

/**
 * A checkout's order is paid (`payment_intent.succeeded`, or a free checkout at once). Acts once
 * however often and in whatever order it is told: the order moves `awaiting_payment` → `pending`
 * conditionally first, so a second delivery finds it moved and changes nothing. Then the reservation
 * → `paid` and each ticket issued from its hold (createTicket `fromHold`: lists, statistics, history and
 * ticket webhooks follow), the order `active` with them, the confirmation mailed. A reservation that
 * lapsed or was released meanwhile: its quantities are held again from the stock left if all are there,
 * else the payment is refunded in full and the order `refunded`. A failure while issuing leaves the order
 * `pending` with the tickets issued so far (as create-order.ts).
 */
export async function payOrder(orderId: number, payment: Payment | null): Promise<Order['status'] | undefined> {
  const order = await getOrder(orderId);
  if (!order?.checkout || order.status !== 'awaiting_payment') return order?.status;
  const at = now();
  const paid: OrderTransaction[] = payment
    ? [{ amount: payment.amount / 100, processor: 'stripe', reference: payment.intentId, time: at.toISOString() }]
    : [];
  const claimed = await moveOrder(order, 'pending', {
    transactions: [...order.transactions, ...paid],
  });
  if (!claimed) return (await getOrder(orderId))?.status;
  const reservation = (await getReservation(order.checkout.reservationId))!;
  const takes = (await convertHold(reservation.id, 'paid', at)) ? reservation.takes : await takeAgain(reservation);
  if (!takes) return refund(claimed, payment);
  const tickets = [];
  const left = takes.map((take) => ({ ...take }));
  for (const attendee of claimed.checkout!.attendees) {
    const take = left.find((candidate) => candidate.typeId === attendee.typeId && candidate.quantity > 0)!;
    take.quantity--;
    const { price, ...fields } = attendee;
    tickets.push(
      await createTicket(
        {
          ...fields,
          price,
          orderId,
          customerId: order.customerId,
          purchasedDate: order.purchasedDate,
          fromHold: { shard: take.shard },
        },
        { kind: 'customer', id: order.customerId },
      ),
    );
  }
  const active = await activateOrder(
    claimed,
    tickets.map((ticket) => ticket.id),
  );
  await mail(active);
  return active.status;
}

/** The lapsed or released reservation's quantities, held again from the stock left now; undefined when short. */
async function takeAgain(reservation: Reservation): Promise<StockTake[] | undefined> {
  const wanted = new Map<number, number>();
  for (const take of reservation.takes) wanted.set(take.typeId, (wanted.get(take.typeId) ?? 0) + take.quantity);
  const takes: StockTake[] = [];
  for (const [typeId, quantity] of wanted) {
    const type = await findTicketType(typeId);
    const planned = type && planTakes(typeId, await readStock(type), quantity);
    if (!planned) return undefined;
    takes.push(...planned);
  }
  return (await holdAgain(takes)) ? takes : undefined;
}

async function refund(order: Order, payment: Payment | null): Promise<Order['status'] | undefined> {
  const transactions = [...order.transactions];
  if (payment) transactions.push(...(await refundStripePayment(order.id, payment.intentId)));
  logger.warn('Paid order refunded: its reservation ended and its tickets are gone', { orderId: order.id });
  return (await moveOrder(order, 'refunded', { transactions }))?.status;
}

async function mail(order: Order): Promise<void> {
  const [event, records, method] = await Promise.all([
    getEvent(order.eventId),
    readTicketRecords(order.ticketIds),
    order.checkout?.shippingMethodId ? getShippingMethod(order.checkout.shippingMethodId) : null,
  ]);
  await sendOrderConfirmation(order, [...records.values()], event, method);
}
