import * as z from '../schema.ts';
import { addAmounts } from '../money.ts';
import type { Customer } from './customer.ts';
import { OrderDisputeResource, RefundFailureResource, refundFailures } from './order-dispute.ts';
import { OrderShippingResource, orderShipping } from './order-entry.ts';
import { PaymentProblemResource } from './order-payment.ts';
import {
  ORDER_STATUSES,
  ORDER_TICKET_STATUSES,
  OrderCancellationResource,
  OrderTransactionResource,
  orderTicketStatus,
  type Order,
} from './order.ts';
import type { TicketRecord } from './ticket.ts';

/**
 * An order as the staff's routes answer it (`GET /orders`, `GET /orders/{id}`, a sale, a cancel): the schema the
 * routes declare, the type inferred from it, and `toStaffOrder`, which builds it. Pure.
 */

const StaffOrderTicketResource = z.strictObject({
  id: z.string(),
  status: z.enum(ORDER_TICKET_STATUSES),
  typeId: z.int(),
  name: z.string(),
  price: z.number(),
  barcode: z.string(),
});
export type StaffOrderTicket = z.output<typeof StaffOrderTicketResource>;

/** `GET /orders/{id}` and the list's entries: the order with its amounts, customer, payment and history. */
export const StaffOrderResource = z.strictObject({
  id: z.string(),
  eventId: z.int(),
  status: z.enum(ORDER_STATUSES),
  created: z.iso.datetime(),
  purchasedDate: z.iso.datetime(),
  customer: z.strictObject({
    id: z.int(),
    emailAddress: z.string(),
    purchaser: z.string(),
    name: z.optional(z.string()),
  }),
  grandTotal: z.number(),
  payment: z.strictObject({
    paid: z.number(),
    transactions: z.array(OrderTransactionResource),
    problems: z.optional(z.array(PaymentProblemResource)),
  }),
  affiliate: z.nullable(z.string()),
  waveTimeId: z.nullable(z.int()),
  teamId: z.nullable(z.int()),
  shipping: z.optional(OrderShippingResource),
  ticketIds: z.array(z.string()),
  tickets: z
    .optional(z.array(StaffOrderTicketResource))
    .check(z.describe('On `GET /orders/{id}` and the cancel answer.')),
  dispute: z
    .optional(OrderDisputeResource)
    .check(
      z.describe(
        "The card payment's dispute (a chargeback, or an inquiry: `warning_*`) as Stripe last reported it; absent when none.",
      ),
    ),
  refundFailures: z
    .optional(z.array(RefundFailureResource))
    .check(
      z.describe(
        'Refunds Stripe reported failed after they were recorded (a closed card): the buyer did not get `amount` back. Each is also a positive transaction `<refund id>-failed`.',
      ),
    ),
  cancellation: z
    .optional(OrderCancellationResource)
    .check(z.describe('Set when a cancellation starts; `outcome` is the status it ends in.')),
  history: z.array(
    z.strictObject({
      at: z.iso.datetime(),
      by: z.string(),
      action: z.enum(['created', 'cancel_started', 'cancelled', 'refunded', 'expired', 'tickets_cancelled']),
      force: z.optional(z.boolean()),
      ticketIds: z.optional(z.array(z.string())).check(z.describe('`tickets_cancelled`: the part cancelled.')),
    }),
  ),
});
export type StaffOrder = z.output<typeof StaffOrderResource>;

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
