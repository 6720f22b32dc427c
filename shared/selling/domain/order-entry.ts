import * as z from '../../schema.ts';
import { ReservationAmountsResource } from './sale-prices.ts';
import {
  ORDER_STATUSES,
  ORDER_TICKET_STATUSES,
  OrderShippingResource,
  OrderTransactionResource,
  orderShipping,
  orderTicketStatus,
  type Order,
} from './order.ts';
import { AttendeeAnswerResource, type TicketRecord } from '../../tickets/domain/ticket.ts';
import { BillingResource } from './checkout-body.ts';

export { OrderShippingResource };

/**
 * An order as `GET /my-account/orders` answers it (the OpenAPI `OrderEntry`), with the expansions asked for: the
 * schemas the route declares and the types `toOrderEntry` builds, one source.
 */

const OrderTicketResource = z.lazy(() =>
  z.strictObject({
    id: z.string(),
    status: z.enum(ORDER_TICKET_STATUSES),
    name: z.string().check(z.describe("The attendee's full name.")),
    price: z
      .number()
      .check(z.describe('Net of tax, after any discount: `price` + `taxAmount` is what the ticket cost.')),
    taxAmount: z.number(),
    attendee: z.int().check(z.describe('0-based position of the attendee in the order.')),
    barcode: z.string().check(z.describe("What the gate scans: the QR code of the ticket's PDF encodes it.")),
    attendeeQuestions: z.optional(z.array(AttendeeAnswerResource)),
  }),
);
export type OrderTicketEntry = z.output<typeof OrderTicketResource>;

export const OrderEntryResource = z.lazy(() =>
  z.strictObject({
    id: z.string(),
    eventId: z.int().check(z.describe('An order is for one event.')),
    created: z.iso.datetime(),
    purchasedDate: z.iso.datetime(),
    status: z
      .enum(ORDER_STATUSES)
      .check(
        z.describe(
          'awaiting_payment: checked out, its payment not yet in; pending: tickets being issued; active: paid and issued; expired: its reservation lapsed or was released unpaid; cancelled; refunded.',
        ),
      ),
    emailAddress: z.string(),
    purchaser: z.string(),
    billing: z.optional(BillingResource),
    affiliate: z.nullable(z.string()),
    grandTotal: z.number(),
    amounts: z
      .optional(ReservationAmountsResource)
      .check(
        z.describe(
          'The sale as priced: `{tickets, discount, fees, shipping, tax, total, currency}`, `total` being `grandTotal` (absent on an order seeded whole).',
        ),
      ),
    promoCode: z
      .optional(z.string())
      .check(z.describe('The promo code the order was priced with, as its event spells it; absent when none.')),
    waveTimeId: z.nullable(z.int()),
    teamId: z.nullable(z.int()),
    shipping: z.optional(OrderShippingResource),
    tickets: z.optional(z.array(OrderTicketResource)).check(z.describe('With includeTickets=true.')),
    transactions: z.optional(z.array(OrderTransactionResource)).check(z.describe('With includeTrans=true.')),
    answers: z
      .optional(z.array(AttendeeAnswerResource))
      .check(z.describe("With includeAnswers=true (also each ticket's attendeeQuestions).")),
  }),
);
export type OrderEntry = z.output<typeof OrderEntryResource>;

export interface OrderIncludes {
  tickets: boolean;
  transactions: boolean;
  answers: boolean;
}

/** The order as listed, with what was asked for; `tickets` holds the records of its ticket ids (missing ones are left out). */
export function toOrderEntry(
  order: Order,
  include: OrderIncludes,
  tickets: ReadonlyMap<number, TicketRecord>,
): OrderEntry {
  const entry: OrderEntry = {
    id: String(order.id),
    eventId: order.eventId,
    created: order.created,
    purchasedDate: order.purchasedDate,
    status: order.status,
    emailAddress: order.emailAddress,
    purchaser: order.purchaser,
    affiliate: order.affiliate,
    grandTotal: order.grandTotal,
    waveTimeId: order.waveTimeId,
    teamId: order.teamId,
  };
  if (order.amounts) entry.amounts = order.amounts;
  if (order.billing) entry.billing = order.billing;
  if (order.promo) entry.promoCode = order.promo.code;
  const shipping = orderShipping(order);
  if (shipping) entry.shipping = shipping;
  if (include.tickets) {
    entry.tickets = order.ticketIds.flatMap((id, attendee) => {
      const ticket = tickets.get(id);
      if (!ticket) return [];
      const name = `${ticket.partyMember} ${ticket.partyMemberLastName}`.trim();
      const shown: OrderTicketEntry = {
        id: String(id),
        status: orderTicketStatus(ticket),
        name,
        price: ticket.price,
        taxAmount: ticket.taxAmount,
        attendee,
        barcode: ticket.barcode,
      };
      if (include.answers) shown.attendeeQuestions = ticket.attendeeQuestions;
      return [shown];
    });
  }
  if (include.transactions) entry.transactions = order.transactions;
  if (include.answers) entry.answers = order.answers;
  return entry;
}
