/** The contract of the staff's order routes (`functions/orders/`): what they accept and answer. */
import * as z from '../../schema.ts';
import { ORDER_STATUSES } from '../domain/order.ts';
import { DISPUTE_FILTERS } from '../domain/order-dispute.ts';
import { EMAIL_MAX_LENGTH } from '../../identity/domain/customer.ts';
import { MAX_DIGITS, wholeNumber } from '../../request-fields.ts';
import { ordered, portalPaging, purchaseBound } from '../../portal/contract/my-account.ts';

/** The disputed lists are kept per event and across events: `dispute` combines with `eventId` and a purchase range only. */
const disputeAlone = z.refine(
  (query: unknown) => {
    const { dispute, status, customerId, email, promoCode } = query as Record<string, unknown>;
    const others = [status, customerId, email, promoCode];
    return dispute === undefined || others.every((value) => value === undefined);
  },
  {
    message: 'dispute combines with eventId and a purchase range only, not status, customerId, email or promoCode',
    path: ['dispute'],
  },
);

export const StaffOrderListQuery = z.lazy(() =>
  z
    .strictObject({
      eventId: z.optional(wholeNumber('eventId', { positive: true })),
      status: z.optional(z.enum(ORDER_STATUSES, `status must be one of ${ORDER_STATUSES.join(', ')}`)),
      customerId: z.optional(wholeNumber('customerId', { positive: true })),
      email: z.optional(z.email('email must be an email address').check(z.maxLength(EMAIL_MAX_LENGTH))),
      fromPurchaseDate: purchaseBound('fromPurchaseDate', 'start'),
      toPurchaseDate: purchaseBound('toPurchaseDate', 'end'),
      dispute: z.optional(z.enum(DISPUTE_FILTERS, `dispute must be one of ${DISPUTE_FILTERS.join(', ')}`)),
      promoCode: z.optional(
        z
          .string()
          .check(
            z.trim(),
            z.minLength(1, 'promoCode must not be empty'),
            z.maxLength(32, 'promoCode must be at most 32 characters'),
          )
          .check(
            z.describe(
              "Orders priced with this promo code, whatever its case (any event's code of that text within the caller's events). Judged on the lists' entries: too sparse among the items one request reads is a 400 naming a narrower query; `totalCount` is then the matches read (an estimate unless read whole).",
            ),
          ),
      ),
      ...portalPaging,
    })
    .check(ordered('fromPurchaseDate', 'toPurchaseDate'), disputeAlone),
);

/** More ticket ids than any order holds (a box-office sale or a reservation: 10; a seeded order up to 50) is a 400. */
export const MAX_PART_TICKETS = 50;

/** A ticket's id as the answers give it (a string), or as a number. */
const TicketIdField = z.lazy(() =>
  z.pipe(
    z.union([
      z
        .string()
        .check(
          z.maxLength(MAX_DIGITS, { message: 'must be a ticket id', abort: true }),
          z.regex(/^[1-9]\d*$/, 'must be a ticket id'),
        ),
      z.int('must be a ticket id').check(z.positive('must be a ticket id')),
    ]),
    z.transform((value: string | number) => Number(value)),
  ),
);

/**
 * `POST /orders/{id}/cancel`: `force` cancels checked-in tickets too (recorded in their history); `ticketIds` cancels
 * only those tickets of the order (each once), refunding their share.
 */
export const CancelOrderBody = z.lazy(() =>
  z.strictObject({
    force: z.optional(z.boolean('force must be true or false')),
    ticketIds: z.optional(
      z
        .array(TicketIdField)
        .check(
          z.minLength(1, 'ticketIds must name at least one ticket'),
          z.maxLength(MAX_PART_TICKETS, `ticketIds must name at most ${MAX_PART_TICKETS} tickets`),
          z.refine((ids: number[]) => new Set(ids).size === ids.length, 'ticketIds must name each ticket once'),
        )
        .check(
          z.describe(
            'Part of the order: these of its tickets (its `ticketIds`) are cancelled and their prices refunded (not the shipping); the order stays `active` with the rest, and ends as a whole cancel once none is left. A ticket not of the order is a 400.',
          ),
        ),
    ),
  }),
);

/** An order as the staff's routes answer it: its schema lives with `toStaffOrder`. */
export { StaffOrderResource } from '../domain/staff-order.ts';
