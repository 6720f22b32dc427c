import * as z from '../../schema.ts';
import { bodyId } from '../../request-fields.ts';
import { ReservationAmountsResource } from '../domain/sale-prices.ts';
import { MAX_RESERVATION_LINES, MAX_TICKETS_PER_RESERVATION, RESERVATION_STATES } from '../domain/reservation.ts';

/**
 * `POST /my-account/reservations` and its answer. The body names what to hold and nothing
 * it costs: every price and amount comes from the server, so a client-sent one (`price`,
 * `unitPrice`, `amount`, `amounts`, `total`…) is an unknown field, a 400 (strict objects). Its ids are numbers or
 * their digits (`bodyId`): the portal's lists answer event and type ids as strings.
 */
export const NewReservationBody = z.strictObject({
  eventId: bodyId('eventId'),
  lines: z
    .array(
      z.strictObject({
        typeId: bodyId('typeId'),
        // Above the per-reservation maximum is the 409 `max_per_order`; far above it is bad input.
        quantity: z.int().check(z.minimum(1, 'must be at least 1'), z.maximum(100, 'must be at most 100')),
        waveTimeId: z.optional(bodyId('waveTimeId')),
      }),
    )
    .check(
      z.minLength(1, 'must hold at least one line'),
      z.maxLength(MAX_RESERVATION_LINES, `must hold at most ${MAX_RESERVATION_LINES} lines`),
    ),
  shippingMethodId: z.optional(bodyId('shippingMethodId')),
  promoCode: z.optional(
    z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(32, 'must be at most 32 characters')),
  ),
});
export type NewReservationBody = z.output<typeof NewReservationBody>;

const amount = () => z.number().check(z.describe("In the event's currency, major units (as every amount of the API)."));

export const ReservationResource = z
  .strictObject({
    id: z.int(),
    eventId: z.int(),
    status: z.enum(RESERVATION_STATES),
    expiresAt: z.iso
      .datetime()
      .check(z.describe('When it lapses unless paid; its tickets are on sale again within a minute after.')),
    lines: z.array(
      z.strictObject({
        typeId: z.int(),
        name: z.string(),
        quantity: z.int().check(z.maximum(MAX_TICKETS_PER_RESERVATION)),
        waveTimeId: z.nullable(z.int()),
        unitPrice: amount(),
        discount: amount(),
        fee: amount().check(z.describe("The line's booking fee, as priced (before a tax added to it).")),
        tax: amount().check(z.describe("Every tax on the line: its tickets' and its fee's, included or added.")),
        amount: amount().check(
          z.describe('All the buyer pays for the line: its tickets, discounted, and its fee, each with any tax added.'),
        ),
      }),
    ),
    shippingMethodId: z.nullable(z.int()),
    amounts: ReservationAmountsResource,
    promoCode: z.nullable(z.string().check(z.describe('The promo code the hold uses, as its event spells it.'))),
  })
  .check(z.describe('Tickets of one event held for the customer until `expiresAt`.'));
