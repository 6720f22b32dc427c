/** `POST /orders` (staff sell at the box office, functions/orders/sell.ts): what it accepts. */
import * as z from '../../schema.ts';
import { EMAIL_MAX_LENGTH } from '../../identity/domain/customer.ts';
import { BOX_OFFICE_METHODS } from './order.ts';
import { BillingBody, CheckoutAttendeeBody } from './checkout-body.ts';
import { reservationFields } from './reservation.ts';

/**
 * The lines as a reservation names them, the attendees as the portal's checkout takes them (one per ticket, in
 * line order), how the desk was paid, who bought, and a promo code the buyer names. Nothing it costs: prices come from the types (0 for
 * `comp`), so a client-sent amount is an unknown field, a 400 (strict objects).
 */
const name = z.lazy(() => z.optional(z.string().check(z.maxLength(200, 'must be at most 200 characters'))));

export const BoxOfficeSaleBody = z.lazy(() => {
  const { eventId, lines, promoCode } = reservationFields();
  return z.strictObject({
    eventId,
    lines,
    payment: z.strictObject({
      method: z.enum(BOX_OFFICE_METHODS, `method must be one of ${BOX_OFFICE_METHODS.join(', ')}`),
      reference: z.optional(
        z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(200, 'must be at most 200 characters')),
      ),
    }),
    buyer: z.strictObject({
      emailAddress: z
        .email('must be an email address')
        .check(z.maxLength(EMAIL_MAX_LENGTH, `must be at most ${EMAIL_MAX_LENGTH} characters`)),
      firstName: name,
      lastName: name,
    }),
    // Past MAX_TICKETS_PER_RESERVATION tickets is the 409 `max_per_order`; far past it is bad input.
    attendees: z
      .array(CheckoutAttendeeBody)
      .check(z.minLength(1, 'must hold one attendee per ticket'), z.maxLength(100, 'must hold at most 100 attendees')),
    customerId: z.optional(z.int().check(z.positive('must be an id'), z.maximum(2 ** 53 - 1))),
    // Priced and refused as a hold's: the discount is the server's, never an amount sent.
    promoCode,
    billing: z.optional(BillingBody),
  });
});
export type BoxOfficeSaleBody = z.output<typeof BoxOfficeSaleBody>;
