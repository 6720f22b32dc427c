import { attendeeProblems, attendeesOf, type CheckoutBody } from '../domain/checkout-body.ts';
import { now } from '../../clock.ts';
import { allocateIds } from '../../data/counters.ts';
import { getCustomer } from '../../identity/data/customers.ts';
import { getEvent } from '../../events/data/events.ts';
import { getOrder, newOrderActions } from '../data/orders.ts';
import { newOrderEntriesWritten } from '../data/order-list-entries.ts';
import { checkOutHold } from '../data/reservations.ts';
import { getShippingMethod } from '../data/shipping-methods.ts';
import { newOrder, type Order } from '../domain/order.ts';
import { orderStripeAmount } from '../domain/order-payment.ts';
import { DEFAULT_RESERVATION_MINUTES, type Reservation } from '../domain/reservation.ts';
import { checkoutExpiry } from '../domain/hold-limits.ts';
import type { ShippingMethod } from '../domain/shipping-method.ts';
import { Conflict, NotFound, ValidationError, type FieldProblem } from '../../errors.ts';
import { publishableKey } from '../services/payments.ts';
import { homeCountry } from '../services/shipping-settings.ts';
import { cancelOrderPayment, checkoutPaymentIntent, createCheckoutPaymentIntent } from './checkout-intent.ts';
import { logger } from '../../logger.ts';
import { claim } from './payment-claim.ts';
import { ownReservation } from './own-reservations.ts';

/**
 * How long a checked-out reservation is kept for its payment from the checkout on (README "Checkout"):
 * a card payment without redirects settles in seconds; the margin covers a retry after a declined card.
 * Never past the event's reservation minutes plus these from the hold's creation (`checkoutExpiry`).
 */
export const CHECKOUT_MINUTES = 15;

/**
 * `POST /my-account/reservations/{id}/checkout`: the caller's held reservation becomes an order
 * `awaiting_payment` (its lines and amounts the reservation's) in the transaction that moves the
 * reservation to `checked_out` and keeps it CHECKOUT_MINUTES for the payment (at most the event's reservation
 * minutes plus CHECKOUT_MINUTES from the hold's creation), its PaymentIntent created just before (idempotency key
 * from the order id) and its id written in the order's creation, not by a write of its own. A free order is paid at
 * once (no Stripe): recorded `pending` as a paid one's webhook records it (payment-claim.ts), its tickets issued behind
 * the answer by the table stream's consumer as a paid order's are, so the checkout reaches no ticket writer. A
 * reservation already checked out answers its order again (the same PaymentIntent: a retry after a failure or a
 * declined card; an order paid, `pending` till the consumer has issued it, free or not); any other state is 409
 * `reservation_not_held`.
 */
export async function checkoutReservation(customerId: number, reservationId: number, body: CheckoutBody) {
  const reservation = await ownReservation(customerId, reservationId);
  if (reservation.status === 'checked_out' && reservation.orderId) return answer(await orderOf(reservation));
  if (reservation.status === 'paid' && reservation.orderId) {
    // Paid, its issue under way or stopped part-way (the consumer's retry or the sweep finishes it): answered again.
    const order = await orderOf(reservation);
    if (order.status === 'pending') return answer(order);
  }
  if (reservation.status !== 'held')
    throw new Conflict(
      `Reservation ${reservationId} is ${reservation.status}: only a held one checks out.`,
      'reservation_not_held',
      {
        reservationStatus: reservation.status,
      },
    );
  const [event, customer, method] = await Promise.all([
    getEvent(reservation.eventId),
    getCustomer(customerId),
    reservation.shippingMethodId === null ? null : getShippingMethod(reservation.shippingMethodId),
  ]);
  if (!customer) throw new NotFound('Customer', customerId);
  // Every problem of the body at once (the attendees' and the address's), so a form shows them all by field.
  const problems = attendeeProblems(reservation, event, body);
  problems.push(...shippingProblems(method, body));
  if (problems.length) throw new ValidationError('The checkout does not fit its reservation.', problems);
  const attendees = attendeesOf(reservation, event, body);

  const id = await allocateIds('ORDER');
  const at = now();
  const order: Order = {
    ...newOrder({
      id,
      customerId,
      eventId: event.id,
      at: at.toISOString(),
      status: 'awaiting_payment',
      emailAddress: customer.emailAddress,
      purchaser: customer.name,
      billing: body.billing,
      lines: reservation.lines,
      grandTotal: reservation.amounts.total,
      amounts: reservation.amounts,
      transactions: [],
    }),
    checkout: {
      reservationId,
      shippingMethodId: reservation.shippingMethodId,
      shippingAddress: body.shippingAddress?.trim() || null,
      shippingCountry: body.shippingCountry ?? null,
      currency: reservation.amounts.currency,
      attendees,
    },
    ...(reservation.promo ? { promo: reservation.promo } : {}),
  };
  const intent = order.grandTotal === 0 ? undefined : await createCheckoutPaymentIntent(payable(order));
  if (intent) order.checkout!.paymentIntentId = intent.id;
  const minutes = event.reservationMinutes ?? DEFAULT_RESERVATION_MINUTES;
  const until = checkoutExpiry(reservation, minutes, CHECKOUT_MINUTES, at);
  if (!(await checkOutHold(reservation, id, until.toISOString(), at.toISOString(), newOrderActions(order, event)))) {
    // Another call checked it out first, or it lapsed: this order's intent was never answered, so none pays it.
    if (intent) await abandonIntent(order);
    throw new Conflict(`Reservation ${reservationId} moved: read it again.`, 'reservation_not_held');
  }
  await newOrderEntriesWritten(order);
  if (order.grandTotal === 0) {
    // Nothing to pay: recorded paid now, as a paid one's webhook records it; the stream's consumer issues both alike.
    const { order: claimed } = await claim(id, null);
    return answer(claimed ?? (await orderOf({ orderId: id })));
  }
  return answer(order, intent);
}

/** The order, when the stage takes payments (else 409 `payments_unavailable`, before anything is written). */
function payable(order: Order): Order {
  if (!publishableKey()) throw new Conflict('This stage takes no payments yet.', 'payments_unavailable');
  return order;
}

/** Best effort: an intent nobody was given the secret of cannot be paid, so a failure to cancel it is only logged. */
async function abandonIntent(order: Order): Promise<void> {
  try {
    await cancelOrderPayment(order);
  } catch (error) {
    logger.warn('Unused checkout PaymentIntent not cancelled', { orderId: order.id, error: error as Error });
  }
}

/**
 * The address and its country: both required where the method posts the tickets (else both refused), and the
 * country the stage's home one unless the method `allowInternational` (README "Checkout").
 */
function shippingProblems(
  method: Pick<ShippingMethod, 'name' | 'requiresShippingInfo' | 'allowInternational'> | null,
  body: Pick<CheckoutBody, 'shippingAddress' | 'shippingCountry'>,
): FieldProblem[] {
  if (!method?.requiresShippingInfo)
    return (['shippingAddress', 'shippingCountry'] as const)
      .filter((field) => body[field] !== undefined)
      .map((field) => ({ path: `body.${field}`, message: 'The shipping method takes no address.' }));
  const problems: FieldProblem[] = [];
  const required = `Required: ${method.name} posts the tickets.`;
  if (!body.shippingAddress?.trim()) problems.push({ path: 'body.shippingAddress', message: required });
  if (body.shippingCountry === undefined) problems.push({ path: 'body.shippingCountry', message: required });
  else if (!method.allowInternational && body.shippingCountry !== homeCountry())
    problems.push({
      path: 'body.shippingCountry',
      message: `${method.name} posts within ${homeCountry()} only: choose a method that allows international shipping.`,
    });
  return problems;
}

async function orderOf(reservation: Pick<Reservation, 'orderId'>): Promise<Order> {
  const order = await getOrder(reservation.orderId!);
  if (!order) throw new NotFound('Order', reservation.orderId!);
  return order;
}

/** Awaiting its payment, paid with its tickets to follow (`pending`), or issued. */
const checkoutStatus = (status: Order['status']) =>
  status === 'awaiting_payment' || status === 'pending' ? status : ('active' as const);

/** The order and, while it awaits payment, its PaymentIntent's client secret (`intent`: just created with it). */
async function answer(order: Order, intent?: { id: string; clientSecret: string }) {
  const currency = order.checkout!.currency;
  const view = {
    id: String(order.id),
    status: checkoutStatus(order.status),
    grandTotal: order.grandTotal,
    currency,
    reservationId: order.checkout!.reservationId,
    // A checkout's order is priced from its reservation, so it always has them (a box-office order has its own).
    amounts: order.amounts!,
  };
  if (order.status !== 'awaiting_payment') return { order: view, payment: null };
  const key = publishableKey();
  if (!key) throw new Conflict('This stage takes no payments yet.', 'payments_unavailable');
  const amount = orderStripeAmount(order);
  const { clientSecret } = intent ?? (await checkoutPaymentIntent(order));
  return {
    order: view,
    payment: { processor: 'stripe' as const, clientSecret, publishableKey: key, amount, currency },
  };
}
