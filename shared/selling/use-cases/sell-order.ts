import type { BoxOfficeSaleBody } from '../domain/box-office-body.ts';
import { now } from '../../clock.ts';
import { getCustomer } from '../../identity/data/customers.ts';
import { getEvent, listTicketTypes } from '../../events/data/events.ts';
import { readTicketRecords } from '../../tickets/data/ticket-records.ts';
import { listWaveTimes } from '../../events/data/wave-times.ts';
import { saleCurrency } from '../../events/domain/event.ts';
import type { StaffOrder } from '../domain/order-cancel.ts';
import { newOrder, WALK_UP_CUSTOMER, type Order } from '../domain/order.ts';
import { MAX_TICKETS_PER_RESERVATION, type PromoUse, type StockTake } from '../domain/reservation.ts';
import { priceSale } from '../domain/sale-prices.ts';
import { actorLabel } from '../../tickets/domain/ticket-history.ts';
import { Conflict, NotFound, ValidationError } from '../../errors.ts';
import { logger } from '../../logger.ts';
import { adminActor, inScope } from '../../identity/use-cases/event-scope.ts';
import { attendeesOf } from '../domain/checkout-body.ts';
import { sendOrderConfirmation } from './order-confirmation.ts';
import { checkLines } from './reservations.ts';
import { holdOrder } from './hold-order.ts';
import { findPromoCode } from '../data/promo-codes.ts';
import { promoDiscount } from '../domain/promo-code.ts';
import { issueOrderTickets, OrderLeftIssuing } from './issue-order-tickets.ts';
import { readStaffOrder, type Caller } from './order-reads.ts';
import { invoiceOrFileDue } from './invoices-due.ts';
import { undoSale } from './undo-sale.ts';

/**
 * `POST /orders`: staff sell at the box office, within their event scope (another event's id: 404). The portal's
 * rules: lines as a reservation's (400 naming a type or wave not of the event), at most
 * MAX_TICKETS_PER_RESERVATION tickets (409 `max_per_order`), attendees as the checkout's (one per ticket, the
 * event's required questions answered), never an oversell (409 `sold_out` naming the type and what is left).
 * Unlike the portal the desk sells outside the event's `onSaleDate`/`cutOff` (only an unpublished event is 409
 * `not_on_sale`). Prices are the portal's (the types' prices and taxes, the event's booking fee and its tax:
 * selling/domain/sale-prices.ts; 0 for `comp`, which then carries no fee and no tax), the order carrying its `amounts`;
 * a `promoCode` prices and is refused as a hold's (promo-code.ts: 409 `promo_code_invalid`, `_not_applicable`,
 * `_used_up`; a `comp` sale, free already, takes none: 400) and its use is taken in step 1's transaction, given back
 * by a failed sale's undo; the payment is recorded, not taken: one transaction
 * `{amount, processor: method, reference, time}`. The order and its stock are held before its tickets are issued, so
 * in steps:
 *
 * 1. one transaction: the order `pending` (with its payment, its `boxOffice` hold and an empty `issuedTickets`) and
 *    its stock taken `left` → `held`, all or nothing: a shard emptied meanwhile is read again (read-decide-write.ts),
 *    `sold_out` when a read finds too few places, nothing written;
 * 2. and 3. the tickets issued from that hold (issue-order-tickets.ts: `held` → `sold`, the staff actor in their
 *    history; lists, statistics and ticket webhooks follow), recorded on the order (`issuedTickets`, position → id)
 *    and the order `active` with them in the same transaction (an order too large for one in chunks, each
 *    recorded), conditional on the order still `pending` and no undo started: once the sale is undone no ticket of it
 *    can be issued; then the buyer is mailed the confirmation (a failed mail is logged).
 *
 * A failure in step 2 or 3 undoes the sale before the error propagates (undo-sale.ts: the tickets issued so far
 * cancelled by the staff actor, the rest of the hold back on sale, the order `expired` with its payment offset). A
 * crash where no code runs (the function's timeout) leaves it `pending`: the every-minute sweep
 * (sweep-stuck-orders.ts) undoes it the same way once it is older than the grace period, longer than the
 * function may run. Never an oversell, and never a place off sale for good.
 *
 * A retry with the same Idempotency-Key (shared/http/idempotency.ts): a failure released the key, so the retry
 * sells again, as a new order, the failed one being undone already; after a crash the key stays locked while the
 * dead function could still run (409 `request_in_flight`), then the retry sells a new order while the crashed
 * one waits for the sweep (its places held till then: the retry may find fewer left). Either way the failed
 * sale's tickets never stay active beside the retry's: the places of one failed sale are sold once.
 */
export async function sellOrder(caller: Caller, sale: BoxOfficeSaleBody): Promise<StaffOrder> {
  if (!inScope(caller.eventScope, sale.eventId)) throw new NotFound('Event', sale.eventId);
  const comp = sale.payment.method === 'comp';
  if (comp && sale.promoCode !== undefined)
    throw new ValidationError('A comp sale is free: no promo code applies.', [
      { path: 'body.promoCode', message: 'must be absent when payment.method is comp' },
    ]);
  const [event, types, waves, customer, promo] = await Promise.all([
    getEvent(sale.eventId),
    listTicketTypes(sale.eventId),
    sale.lines.some((line) => line.waveTimeId !== undefined) ? listWaveTimes(sale.eventId) : [],
    sale.customerId === undefined ? undefined : getCustomer(sale.customerId),
    sale.promoCode === undefined ? undefined : findPromoCode(sale.eventId, sale.promoCode),
  ]);
  if (sale.customerId !== undefined && !customer)
    throw new ValidationError('Unknown customer.', [
      { path: 'body.customerId', message: `Customer ${sale.customerId} does not exist.` },
    ]);
  const byId = new Map(types.map((type) => [type.id, type]));
  checkLines(sale, byId, new Set(waves.map((wave) => wave.id)));
  const atDate = now();
  const discount =
    sale.promoCode === undefined
      ? undefined
      : promoDiscount(sale.promoCode, promo, atDate, [...new Set(sale.lines.map((line) => line.typeId))]);
  const currency = saleCurrency(event);
  const { lines, amounts } = priceSale({
    lines: sale.lines,
    types: comp ? new Map(types.map((type) => [type.id, { ...type, price: 0 }])) : byId,
    event,
    currency,
    shipping: 0,
    ...(discount ? { discount } : {}),
  });
  if (lines.reduce((sum, line) => sum + line.quantity, 0) > MAX_TICKETS_PER_RESERVATION)
    throw new Conflict(`An order holds at most ${MAX_TICKETS_PER_RESERVATION} tickets.`, 'max_per_order', {
      maxPerOrder: MAX_TICKETS_PER_RESERVATION,
    });
  const attendees = attendeesOf({ lines, amounts }, event, sale);
  if (!event.published) throw new Conflict('The event is not published.', 'not_on_sale');

  const actor = adminActor(caller);
  const at = atDate.toISOString();
  const total = amounts.total;
  const { firstName = '', lastName = '' } = sale.buyer;
  const customerId = customer?.id ?? WALK_UP_CUSTOMER;
  const order = (id: number, takes: StockTake[], use?: PromoUse): Order => ({
    ...newOrder({
      id,
      customerId,
      eventId: event.id,
      at,
      status: 'pending',
      emailAddress: sale.buyer.emailAddress,
      purchaser: `${firstName} ${lastName}`.trim() || customer?.name || sale.buyer.emailAddress,
      billing: sale.billing,
      lines,
      grandTotal: total,
      amounts,
      transactions: [
        {
          amount: total,
          processor: sale.payment.method,
          reference: sale.payment.reference ?? `order-${id}-${sale.payment.method}`,
          time: at,
        },
      ],
    }),
    issuedTickets: {},
    boxOffice: { soldBy: actorLabel(actor), method: sale.payment.method, takes },
    ...(use ? { promo: use } : {}),
  });

  const { order: pending } = await holdOrder(sale, byId, order, event, promo);
  const id = pending.id;
  let active: Order;
  try {
    active = await issue(pending, attendees, customer?.id ?? null, actor);
  } catch (error) {
    try {
      await undoSale(id, actor);
    } catch (undoError) {
      // The sweep undoes it after the grace period.
      logger.error('box-office sale not undone', { orderId: id, error: undoError as Error });
    }
    throw error;
  }
  await invoiceSale(id);
  await sendOrderConfirmation(active, [...(await readTicketRecords(active.ticketIds)).values()], event, null);
  return readStaffOrder(caller, id);
}

/** Steps 2 and 3: the attendees' tickets from the hold, recorded on the order, and the order `active` (issue-order-tickets.ts). */
async function issue(
  pending: Order,
  attendees: ReturnType<typeof attendeesOf>,
  customerId: number | null,
  actor: ReturnType<typeof adminActor>,
): Promise<Order> {
  try {
    const issued = await issueOrderTickets({
      order: pending,
      attendees,
      takes: pending.boxOffice!.takes,
      customerId,
      actor,
    });
    return issued.order;
  } catch (error) {
    if (!(error instanceof OrderLeftIssuing)) throw error;
    throw new Conflict(`Order ${pending.id} was undone while its tickets were issued.`, 'concurrent_update');
  }
}

/**
 * A desk sale's invoice, numbered on its own (desk sales are few); when that fails, filed as due for the every-minute
 * job (invoices-due.ts). The sale stands either way; only a failed filing too leaves it without (logged).
 */
async function invoiceSale(orderId: number): Promise<void> {
  try {
    await invoiceOrFileDue([orderId]);
  } catch (error) {
    logger.error('box-office sale neither invoiced nor filed as due', { orderId, error: error as Error });
  }
}
