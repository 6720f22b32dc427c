import { now } from '../../clock.ts';
import { findTicketType, getEvent } from '../../events/data/events.ts';
import { moveOrder } from '../data/order-lists.ts';
import { readCheckoutAttendees } from '../data/order-items.ts';
import { getOrder, orderTakesAction, recordNoTakes } from '../data/orders.ts';
import { convertHold, getReservation, holdAgain } from '../data/reservations.ts';
import { getShippingMethod } from '../data/shipping-methods.ts';
import { readStock } from '../data/stock.ts';
import { readTicketRecords } from '../../tickets/data/ticket-records.ts';
import type { Order } from '../domain/order.ts';
import { planTakes, type PromoUse, type Reservation, type StockTake } from '../domain/reservation.ts';
import { Conflict } from '../../errors.ts';
import { logger } from '../../logger.ts';
import { latePaymentRefundedMail } from '../domain/late-payment-mail.ts';
import { sendEmail } from '../../services/email.ts';
import { refundStripePayment } from './refunds.ts';
import { issueOrderTickets, OrderLeftIssuing } from './issue-order-tickets.ts';
import { sendOrderConfirmation } from './order-confirmation.ts';
import type { Payment } from './payment-claim.ts';
import { planPromoUse } from './hold-takes.ts';
import { findPromoCode } from '../data/promo-codes.ts';

/**
 * A claimed (`pending`) checkout's tickets issued, or the issue resumed where a failure stopped it: a paid checkout
 * claimed by the webhook (payment-claim.ts `claimPayment`), a free one by its own request. The table stream's consumer
 * (issue-paid-orders.ts) and the sweep (sweep-stuck-orders.ts) call it, as often as they like: each step of `issue` is
 * conditional, so two calls at once issue nothing twice, and an order no longer `pending` is left as it is (shared/README.md
 * "Issuing behind the webhook").
 */
export async function issuePaidOrder(orderId: number): Promise<Order['status'] | undefined> {
  const order = await getOrder(orderId);
  if (!order?.checkout || order.status !== 'pending') return order?.status;
  return issueClaimed(order);
}

/** A cancellation staff started stops the issue: the cancel takes the order from here (cancel-order.ts). */
const issueClaimed = (order: Order): Promise<Order['status'] | undefined> =>
  order.issuedTickets && !order.cancellation ? issue(order) : Promise.resolve(order.status);

/**
 * Issues a pending checkout order's tickets, each once: the stock they come from is the reservation's hold
 * (→ `paid`), or, when it lapsed or was released meanwhile, the same quantities held again from the stock left
 * (recorded on the order with that hold); none left: the payment is refunded in full, the order `refunded` and
 * the buyer told. The tickets are issued from that hold together (issue-order-tickets.ts: one transaction for an
 * order that fits one, its record on the order and the order `active` in it; a larger order in chunks, each recorded
 * on the order, so a resumed issue skips what a chunk issued; lists, statistics, history and ticket webhooks follow),
 * then the confirmation mailed. A failure while issuing leaves the order `pending` with the chunks issued so far. A
 * staff cancellation started meanwhile stops it: every chunk, the hold again and the activation are conditional on
 * none (orders.ts `STILL_ISSUING`).
 */
async function issue(order: Order): Promise<Order['status'] | undefined> {
  const checkout = order.checkout!;
  const takes = checkout.takes ?? (await reservationTakes(order));
  if (!takes.length) return refundLate(order, paymentOf(order));
  let active: Order;
  try {
    ({ order: active } = await issueOrderTickets({
      order,
      attendees: await readCheckoutAttendees(order),
      takes,
      customerId: order.customerId,
      actor: { kind: 'customer', id: order.customerId },
    }));
  } catch (error) {
    // Another call issued first (it mails), or a staff cancellation started: the order as it is now.
    if (error instanceof OrderLeftIssuing) return (await getOrder(order.id))?.status;
    throw error;
  }
  await mail(active);
  return active.status;
}

/** The payment the order was claimed with (none for a free order). */
function paymentOf(order: Order): Payment | null {
  const paid = order.transactions.find((transaction) => transaction.processor === 'stripe' && transaction.amount > 0);
  return paid ? { intentId: paid.reference, amount: paid.amount } : null;
}

/**
 * The reservation's own hold (→ `paid` now, or by an earlier or a concurrent call for this order: a reservation
 * has one order), else held again; none when short.
 */
async function reservationTakes(order: Order): Promise<StockTake[]> {
  const id = order.checkout!.reservationId;
  const reservation = (await getReservation(id))!;
  if (reservation.status === 'paid' || (await convertHold(id, 'paid', now()))) return reservation.takes;
  const ended = (await getReservation(id))!;
  return ended.status === 'paid' ? ended.takes : takeAgain(order, ended);
}

/** Attempts at holding a late payment's places and use again when a shard empties between the read and the write. */
const HOLD_AGAIN_ATTEMPTS = 3;

/**
 * The lapsed or released reservation's quantities, held again from the stock left now, and its promo code's use from
 * any shard with one left (`useAgain`), recorded on the order in the same transaction; none when short, recorded too.
 * Of two calls issuing one order (a delivery twice at once) the first to record decides, both hold or refund alike,
 * and a resumed issue finds the decision there.
 */
async function takeAgain(order: Order, reservation: Reservation): Promise<StockTake[]> {
  for (let attempt = 0; attempt < HOLD_AGAIN_ATTEMPTS; attempt++) {
    const takes = await planAgain(reservation);
    // A code's use went back with the hold: taken again with the places, or the payment is refunded (never past maxUses).
    const use = takes && reservation.promo ? await useAgain(order.eventId, reservation.promo) : undefined;
    if (!takes || use === null) return noTakes(order);
    if (await holdAgain(takes, [orderTakesAction(order.id, takes, use)], use)) return takes;
    // A shard was emptied meanwhile, or another call recorded first.
    const recorded = (await getOrder(order.id))?.checkout?.takes;
    if (recorded) return recorded;
  }
  return noTakes(order);
}

/** The reservation's quantities planned from the stock left now; undefined when a type is short. */
async function planAgain(reservation: Reservation): Promise<StockTake[] | undefined> {
  const wanted = new Map<number, number>();
  for (const take of reservation.takes) wanted.set(take.typeId, (wanted.get(take.typeId) ?? 0) + take.quantity);
  const takes: StockTake[] = [];
  for (const [typeId, quantity] of wanted) {
    const type = await findTicketType(typeId);
    const planned = type && planTakes(typeId, await readStock(type), quantity);
    if (!planned) return undefined;
    takes.push(...planned);
  }
  return takes;
}

/** The code's use from a shard with one left, as a hold plans it; null when the code is used up or gone. */
async function useAgain(eventId: number, held: PromoUse): Promise<PromoUse | null> {
  const promo = await findPromoCode(eventId, held.code);
  if (!promo || promo.id !== held.codeId) return null;
  try {
    return await planPromoUse(promo);
  } catch (error) {
    if (error instanceof Conflict) return null;
    throw error;
  }
}

/** None to hold: recorded, unless another call recorded its decision first (then its). */
async function noTakes(order: Order): Promise<StockTake[]> {
  if (await recordNoTakes(order.id)) return [];
  return (await getOrder(order.id))?.checkout?.takes ?? [];
}

async function refund(order: Order, payment: Payment | null): Promise<Order['status'] | undefined> {
  const transactions = payment ? await refundStripePayment(order.id, payment.intentId) : [];
  logger.warn('Paid order refunded: its reservation ended and its tickets are gone', { orderId: order.id });
  const history = [{ at: now().toISOString(), by: 'system', action: 'refunded' as const }];
  return (await moveOrder(order, 'refunded', { transactions, history }))?.status;
}

/** The payment refunded (refund), and the buyer told why: its tickets were gone. */
async function refundLate(order: Order, payment: Payment | null): Promise<Order['status'] | undefined> {
  const status = await refund(order, payment);
  if (status !== 'refunded' || !payment) return status ?? (await getOrder(order.id))?.status;
  try {
    const event = await getEvent(order.eventId);
    await sendEmail({ to: order.emailAddress, ...latePaymentRefundedMail(order, event, payment.amount) });
  } catch (error) {
    // The refund is committed: a mail that cannot go is logged, as the confirmation's.
    logger.error('Late payment refund mail failed', { orderId: order.id, error: error as Error });
  }
  return status;
}

async function mail(order: Order): Promise<void> {
  const [event, records, method] = await Promise.all([
    getEvent(order.eventId),
    readTicketRecords(order.ticketIds),
    order.checkout?.shippingMethodId ? getShippingMethod(order.checkout.shippingMethodId) : null,
  ]);
  await sendOrderConfirmation(order, [...records.values()], event, method);
}
