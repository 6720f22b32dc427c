import * as z from '../../schema.ts';
import type { PaymentProblem } from './order-payment.ts';
import type { OrderDispute } from './order-dispute.ts';
import type { PromoUse, StockTake } from './reservation.ts';
import type { ReservationAmounts } from './sale-prices.ts';
import type { Billing } from './checkout-body.ts';
import { PROCESS_STATE, type AttendeeAnswer, type TicketRecord } from '../../tickets/domain/ticket.ts';

/**
 * Orders: what a customer bought, for ONE event (a basket spanning events is several
 * orders). Pure: the record and its statuses (the entry `GET /my-account/orders` answers: order-entry.ts).
 */

/**
 * - `awaiting_payment`: written by the checkout (`POST /my-account/reservations/{id}/checkout`), its
 *   PaymentIntent created, no ticket yet; the paid webhook moves it on (README "Checkout");
 * - `pending`: created, its tickets being issued (a failure while issuing leaves it here,
 *   with the tickets issued so far pointing at it; never tickets without an order); a checkout's
 *   is resumed by the next delivery of its payment (checkout-payment.ts) or by the sweep, a box-office sale's
 *   undone by its request or by the sweep (shared/selling/use-cases/sweep-stuck-orders.ts);
 * - `active`: paid, every ticket issued;
 * - `expired`: a checkout's order whose reservation lapsed or was released before any payment came, closed in
 *   the same transaction (shared/selling/data/reservations.ts `releaseHold`); a payment arriving after it still takes
 *   the tickets if they are there, or is refunded; and a box-office sale that failed half-way, undone
 *   (shared/selling/use-cases/undo-sale.ts);
 * - `cancelled`, `refunded`: staff's `POST /orders/{id}/cancel` (`refunded` when a payment was taken, and refunded:
 *   shared/README.md "Refunds"), or a paid checkout whose tickets were gone (`refunded`).
 */
export const ORDER_STATUSES = ['awaiting_payment', 'pending', 'active', 'expired', 'cancelled', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** A payment or refund on the order, as the processor reported it. Never card data. */
export const OrderTransactionResource = z.strictObject({
  /** Positive for a payment, negative for a refund. */
  amount: z.number(),
  processor: z.string(),
  /** The processor's own reference: Stripe's PaymentIntent for a payment, its refund's id for a refund. */
  reference: z.string(),
  time: z.iso.datetime(),
});
export type OrderTransaction = z.output<typeof OrderTransactionResource>;

export interface Order {
  id: number;
  customerId: number;
  eventId: number;
  /** ISO-8601 UTC: when the record was written / when the purchase was made (the list's sort key). */
  created: string;
  purchasedDate: string;
  status: OrderStatus;
  /**
   * How many times the status moved (absent: never): what orders its status entry's writes, so a late or replayed write
   * of an older status never moves the entry back (order-list-entries.ts `orderEntriesCaughtUp`).
   */
  statusMoves?: number;
  emailAddress: string;
  /** The purchaser's name. */
  purchaser: string;
  /** A business buyer's company, tax id and address for the invoice (checkout-body.ts `BillingBody`); absent when none was given. */
  billing?: Billing;
  affiliate: string | null;
  /** What the buyer pays: `amounts.total` (the sum of the tickets' prices on an order written whole). */
  grandTotal: number;
  /** The sale's sums as priced (the reservation's, a box-office sale's); absent on an order written whole. */
  amounts?: ReservationAmounts;
  /** In attendee order: position i is attendee i. */
  ticketIds: number[];
  /** The distinct ticket types of the order (the `ticketType` filter and the counts). */
  typeIds: number[];
  waveTimeId: number | null;
  teamId: number | null;
  transactions: OrderTransaction[];
  /** Attendee answers asked once per order. */
  answers: AttendeeAnswer[];
  /** The order's changes after its creation (order-cancel.ts, a lapse, a late refund), oldest first; absent before the first. */
  history?: OrderHistoryEntry[];
  /** Set when a cancellation starts (before any ticket is cancelled), so a retry resumes it: order-cancel.ts. */
  cancellation?: OrderCancellation;
  /** The parts of the order staff cancelled, oldest first (the rest stays `active`). */
  partCancellations?: PartCancellation[];
  /** A checkout's order: what its payment issues (absent on orders written whole). */
  checkout?: OrderCheckout;
  /**
   * A checkout's order while `pending`, and a box-office sale's from its first step: each attendee's ticket
   * (position → ticket id) set in the ticket's own transaction, conditional on the order `pending` and the position
   * unset, so issuing resumed after a failure issues each once, and a failed sale's undo knows its tickets.
   */
  issuedTickets?: Record<string, number>;
  /** A box-office sale's order (`POST /orders`): who sold it, how it was paid, and the stock it holds until issued. */
  boxOffice?: BoxOfficeSale;
  /**
   * The promo code the order was priced with (its reservation's, or the box office's) and the shard its use is on: a
   * failed sale's undo gives it back there; a late payment's hold again may take it from another shard (recorded).
   */
  promo?: PromoUse;
  /** Payments that named this order but did not pay it (order-payment.ts), each once, refunded; append-only. */
  paymentProblems?: PaymentProblem[];
  /** The card payment's dispute, as Stripe last reported it (order-dispute.ts); absent when none. */
  dispute?: OrderDispute;
  /** The `disputeSequence` of the event `dispute` is from: an event with a lower or equal one changes nothing. */
  disputeSequence?: number;
}

/** How staff take a box-office payment: cash, a card terminal at the desk, or complimentary (amount 0). */
export const BOX_OFFICE_METHODS = ['cash', 'card_present', 'comp'] as const;
export type BoxOfficeMethod = (typeof BOX_OFFICE_METHODS)[number];

/** The order's customer when staff sell to someone without an account (`POST /orders` without `customerId`). */
export const WALK_UP_CUSTOMER = 0;

export interface BoxOfficeSale {
  /** `admin 3` (ticket-history.ts `actorLabel`). */
  soldBy: string;
  method: BoxOfficeMethod;
  /** The shards its tickets are held on between the order's write and their issue. */
  takes: StockTake[];
  /**
   * Set when a failed sale's undo starts (shared/selling/use-cases/undo-sale.ts), conditional on the order `pending`:
   * from then no ticket of it is issued and it is never activated, so the undo's read of its tickets is final.
   */
  undo?: { at: string; by: string };
}

/** A cancellation in progress or done: who started it, when, with `force`, and the status it ends in. */
export const OrderCancellationResource = z.strictObject({
  at: z.iso.datetime(),
  /** `admin 3` (ticket-history.ts `actorLabel`). */
  by: z.string(),
  force: z.boolean(),
  outcome: z.enum(['cancelled', 'refunded']),
});
export type OrderCancellation = z.output<typeof OrderCancellationResource>;

/** One change of an order: by staff, by its buyer (`expired`, a release) or by the service (`system`: a lapse, a late refund). */
export interface OrderHistoryEntry {
  at: string;
  by: string;
  action: 'cancel_started' | 'cancelled' | 'refunded' | 'expired' | 'tickets_cancelled';
  force?: boolean;
  /** `tickets_cancelled`: the part of the order staff cancelled (the ids as given, in order). */
  ticketIds?: number[];
}

/**
 * Part of an active order cancelled by staff (`POST /orders/{id}/cancel` with `ticketIds`), recorded before any of its
 * tickets changes, so a retry of the same part resumes it (cancel-part.ts).
 */
export interface PartCancellation {
  /** The order's tickets as given, ascending. */
  ticketIds: number[];
  at: string;
  by: string;
  force: boolean;
}

/** What a checkout keeps on its order until the payment issues the tickets. */
export interface OrderCheckout {
  reservationId: number;
  currency: string;
  shippingMethodId: number | null;
  shippingAddress: string | null;
  /** The address's country (ISO 3166-1 alpha-2), given with it; null without one. */
  shippingCountry: string | null;
  /** One per held ticket, in order: its type and the attendee's fields. An item of their own (selling/data/order-items.ts). */
  attendees?: CheckoutAttendee[];
  /** The checkout's PaymentIntent, stored once on its creation: the one payment that pays the order (order-payment.ts). */
  paymentIntentId?: string;
  /**
   * Where a late payment's tickets were held again (its reservation lapsed or was released first), written with
   * that hold; empty when they could not be (the payment is refunded); absent while the reservation's own takes are
   * the ones issued.
   */
  takes?: StockTake[];
}

export interface CheckoutAttendee {
  typeId: number;
  waveTimeId: number | null;
  /** The ticket's share of its line (sale-prices.ts `ticketPrices`): net of tax, its tax, its part of the fee. */
  price: number;
  taxAmount?: number;
  bookingFee?: number;
  /** Its part of the line's discount and of the fee's tax (absent: none), for the sales figures. */
  discount?: number;
  feeTax?: number;
  partyMember: string;
  partyMemberLastName: string;
  emailAddress: string;
  partyMemberBirthYear: number | null;
  partyMemberBirthMonth: number | null;
  partyMemberBirthDay: number | null;
  partyMemberTitle: string | null;
  partyMemberCompany: string | null;
  attendeeQuestions: AttendeeAnswer[];
}

/** What a ticket shows in an order, from its states (`pending` for a reserved, unpaid ticket). */
export const ORDER_TICKET_STATUSES = [
  'active',
  'pending',
  'cancelled',
  'checked_in',
  'transferred',
  'withdrawn',
  'deleted',
] as const;
export type OrderTicketStatus = (typeof ORDER_TICKET_STATUSES)[number];

/** The state that says most about the ticket wins: deleted, transferred, withdrawn, cancelled, checked in, pending, active. */
export function orderTicketStatus(
  ticket: Pick<TicketRecord, 'deleted' | 'transferState' | 'withdrawnState' | 'processState'>,
): OrderTicketStatus {
  if (ticket.deleted) return 'deleted';
  if (ticket.transferState === 'transferred') return 'transferred';
  if (ticket.withdrawnState === 'withdrawn') return 'withdrawn';
  if (ticket.processState === PROCESS_STATE.cancelled) return 'cancelled';
  if (ticket.processState === PROCESS_STATE.checkedIn) return 'checked_in';
  if (ticket.processState === PROCESS_STATE.pending) return 'pending';
  return 'active';
}

/** A checkout's shipping, on the buyer's order (`GET /my-account/orders`) and the staff's (`GET /orders/{id}`). */
export const OrderShippingResource = z.lazy(() =>
  z
    .strictObject({ shippingMethodId: z.int(), address: z.nullable(z.string()), country: z.nullable(z.string()) })
    .check(
      z.describe(
        "A checkout's shipping method and, where the method `requiresShippingInfo`, the address and its country (ISO 3166-1 alpha-2) given (else null); absent on an order without one.",
      ),
    ),
);
export type OrderShipping = z.output<typeof OrderShippingResource>;

/** The order's shipping, as the buyer's and the staff's answers show it (none: a box-office sale, or no method named). */
export function orderShipping(order: Pick<Order, 'checkout'>): OrderShipping | undefined {
  const checkout = order.checkout;
  if (!checkout?.shippingMethodId) return undefined;
  return {
    shippingMethodId: checkout.shippingMethodId,
    address: checkout.shippingAddress,
    country: checkout.shippingCountry,
  };
}

/** Newest first, then the higher id (the indexes' order, read backwards). */
export const newestFirst = (a: Order, b: Order): number =>
  b.purchasedDate.localeCompare(a.purchasedDate) || b.id - a.id;

/** What a sale knows of its new order; the rest is the same for every order when it is made. */
export interface NewOrderFields {
  id: number;
  customerId: number;
  eventId: number;
  /** ISO-8601 UTC: the sale's instant, its creation and purchase both. */
  at: string;
  status: OrderStatus;
  emailAddress: string;
  purchaser: string;
  billing?: Billing;
  /** The sale's lines in attendee order: its types, and the wave of the first line that names one. */
  lines: readonly { typeId: number; waveTimeId?: number | null }[];
  grandTotal: number;
  amounts?: ReservationAmounts;
  transactions: OrderTransaction[];
}

/**
 * A new order as every sale makes it (the checkout's, the box office's and the scale seed's bulk writer): created and
 * purchased at the sale's instant, its distinct types and first wave from its lines, no ticket yet, no team, affiliate
 * or order-level answer (no sale asks them). Each sale adds its own part (`checkout`, `boxOffice`, `promo`).
 */
export function newOrder(fields: NewOrderFields): Order {
  const { at, lines, amounts, billing, ...order } = fields;
  return {
    ...order,
    ...(billing ? { billing } : {}),
    created: at,
    purchasedDate: at,
    affiliate: null,
    ...(amounts ? { amounts } : {}),
    ticketIds: [],
    typeIds: [...new Set(lines.map((line) => line.typeId))],
    waveTimeId: lines.find((line) => line.waveTimeId != null)?.waveTimeId ?? null,
    teamId: null,
    answers: [],
  };
}
