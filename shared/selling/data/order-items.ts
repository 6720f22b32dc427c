import { GetCommand } from '@aws-sdk/lib-dynamodb';
import {
  BOX_OFFICE_METHODS,
  type CheckoutAttendee,
  ORDER_STATUSES,
  type Order,
  OrderCancellationResource,
  OrderTransactionResource,
} from '../domain/order.ts';
import type { OrderDispute } from '../domain/order-dispute.ts';
import type { PaymentProblem } from '../domain/order-payment.ts';
import { attendeeAnswerFields } from '../../tickets/domain/ticket-codes.ts';
import type { ReservationAmounts } from '../domain/sale-prices.ts';
import * as z from '../../schema.ts';
import { db, tableName } from '../../data/client.ts';
import { parseItem, storedSchema } from '../../data/stored-items.ts';
import { keys } from '../../data/keys.ts';
import { StockTakeItem } from './stock.ts';

/**
 * An order's items as stored: the record (`ORDER#<id>` / `ORDER`) and a checkout's attendees. Each has its schema
 * and its `fromItem`, the one way its items become values (client.ts `parseItem`); the record's nested values
 * derive from their answers' schemas where the order's module has them, and the payment problems' and the
 * dispute's are written out, held to their types, so a hold's bundle builds neither answer.
 */

/**
 * A sale's sums as a reservation and its order store them (selling/domain/sale-prices.ts), every figure written. Written out
 * rather than derived from the answer's schema, which would bring the pricing into every bundle that reads an order.
 */
export const SaleAmountsItem = storedSchema<ReservationAmounts>()(
  z.lazy(() =>
    z.object({
      tickets: z.number(),
      discount: z.number(),
      fees: z.number(),
      shipping: z.number(),
      tax: z.number(),
      total: z.number(),
      currency: z.string(),
    }),
  ),
);

const CheckoutAttendeeItem = storedSchema<CheckoutAttendee>()(
  z.lazy(() =>
    z.object({
      typeId: z.number(),
      waveTimeId: z.nullable(z.number()),
      price: z.number(),
      taxAmount: z.optional(z.number()),
      bookingFee: z.optional(z.number()),
      discount: z.optional(z.number()),
      feeTax: z.optional(z.number()),
      partyMember: z.string(),
      partyMemberLastName: z.string(),
      emailAddress: z.string(),
      partyMemberBirthYear: z.nullable(z.number()),
      partyMemberBirthMonth: z.nullable(z.number()),
      partyMemberBirthDay: z.nullable(z.number()),
      partyMemberTitle: z.nullable(z.string()),
      partyMemberCompany: z.nullable(z.string()),
      attendeeQuestions: z.array(z.object(attendeeAnswerFields())),
    }),
  ),
);

const PaymentProblemItem = storedSchema<PaymentProblem>()(
  z.lazy(() =>
    z.object({
      intentId: z.string(),
      reason: z.enum(['no_order', 'other_intent', 'amount', 'currency']),
      amount: z.number(),
      currency: z.string(),
      at: z.string(),
      refundId: z.nullable(z.string()),
      refundRefused: z.optional(z.string()),
    }),
  ),
);

const OrderDisputeItem = storedSchema<OrderDispute>()(
  z.lazy(() =>
    z.object({
      id: z.string(),
      status: z.string(),
      reason: z.string(),
      amount: z.number(),
      currency: z.string(),
      updatedAt: z.string(),
    }),
  ),
);

const OrderItem = storedSchema<Order>()(
  z.lazy(() =>
    z.object({
      id: z.number(),
      customerId: z.number(),
      eventId: z.number(),
      created: z.string(),
      purchasedDate: z.string(),
      status: z.enum(ORDER_STATUSES),
      statusMoves: z.optional(z.number()),
      emailAddress: z.string(),
      purchaser: z.string(),
      billing: z.optional(
        z.object({ company: z.optional(z.string()), taxId: z.optional(z.string()), address: z.optional(z.string()) }),
      ),
      affiliate: z.nullable(z.string()),
      grandTotal: z.number(),
      amounts: z.optional(SaleAmountsItem),
      ticketIds: z.array(z.number()),
      typeIds: z.array(z.number()),
      waveTimeId: z.nullable(z.number()),
      teamId: z.nullable(z.number()),
      transactions: z.array(z.object(OrderTransactionResource.shape)),
      answers: z.array(z.object(attendeeAnswerFields())),
      history: z.optional(
        z.array(
          z.object({
            at: z.string(),
            by: z.string(),
            action: z.enum(['cancel_started', 'cancelled', 'refunded', 'expired', 'tickets_cancelled']),
            force: z.optional(z.boolean()),
            ticketIds: z.optional(z.array(z.number())),
          }),
        ),
      ),
      cancellation: z.optional(z.object(OrderCancellationResource.shape)),
      partCancellations: z.optional(
        z.array(z.object({ ticketIds: z.array(z.number()), at: z.string(), by: z.string(), force: z.boolean() })),
      ),
      checkout: z.optional(
        z.object({
          reservationId: z.number(),
          currency: z.string(),
          shippingMethodId: z.nullable(z.number()),
          shippingAddress: z.nullable(z.string()),
          shippingCountry: z.nullable(z.string()),
          attendees: z.optional(z.array(CheckoutAttendeeItem)),
          paymentIntentId: z.optional(z.string()),
          takes: z.optional(z.array(StockTakeItem)),
        }),
      ),
      issuedTickets: z.optional(z.record(z.string(), z.number())),
      boxOffice: z.optional(
        z.object({
          soldBy: z.string(),
          method: z.enum(BOX_OFFICE_METHODS),
          takes: z.array(StockTakeItem),
          undo: z.optional(z.object({ at: z.string(), by: z.string() })),
        }),
      ),
      promo: z.optional(z.object({ codeId: z.number(), code: z.string(), shard: z.number() })),
      paymentProblems: z.optional(z.array(PaymentProblemItem)),
      dispute: z.optional(OrderDisputeItem),
      disputeSequence: z.optional(z.number()),
    }),
  ),
);

// An order list's walk judges an item, then answers the ones it kept (shared/lists/orders.ts): each item is parsed once.
const parsedOrders = new WeakMap<Record<string, unknown>, Order>();
export function fromItem(item: Record<string, unknown>): Order {
  const known = parsedOrders.get(item);
  if (known) return known;
  const order = parseItem(OrderItem, item, 'order');
  parsedOrders.set(item, order);
  return order;
}
const AttendeesItem = z.lazy(() => z.object({ attendees: z.array(CheckoutAttendeeItem) }));

/**
 * A checkout's attendees are an item of their own (`ORDER#<id>` / `ATTENDEES`, no index), put once with the order:
 * the order sits whole in six indexes, so each of its writes costs its size seven times over (doubled in a
 * transaction), and two attendees' fields take it past 1 KB, doubling every write of it. Read when its tickets are
 * issued or its unissued places given back (`readCheckoutAttendees`).
 */
export function withoutAttendees(order: Order): Order {
  if (!order.checkout?.attendees) return order;
  const { attendees: _attendees, ...checkout } = order.checkout;
  return { ...order, checkout };
}

export const attendeesPut = (orderId: number, attendees: readonly CheckoutAttendee[]) => ({
  Put: {
    TableName: tableName(),
    Item: { ...keys.orderAttendees(orderId), entity: 'OrderAttendees', attendees },
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});

/** A checkout order's attendees: on the order when it was written with them, else their own item (none: empty). */
export async function readCheckoutAttendees(order: Order): Promise<CheckoutAttendee[]> {
  if (order.checkout?.attendees) return order.checkout.attendees;
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.orderAttendees(order.id), ConsistentRead: true }),
  );
  return Item ? parseItem(AttendeesItem, Item, 'order attendees').attendees : [];
}

export const orderItem = (order: Order) => ({
  ...keys.order(order.id),
  entity: 'Order',
  ...withoutAttendees(order),
});
