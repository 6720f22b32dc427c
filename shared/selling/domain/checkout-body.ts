import * as z from '../../schema.ts';
import { COUNTRY_CODE_MESSAGE, isCountryCode } from '../../domain/countries.ts';
import { AttendeeAnswer } from '../../tickets/domain/attendee-update.ts';
import { MAX_TICKETS_PER_RESERVATION } from './reservation.ts';

/**
 * `POST /my-account/reservations/{id}/checkout` and its answer. The body names who the held tickets are for
 * (one attendee per ticket, in the reservation's line order) and, where the shipping method asks, the
 * address and its country; nothing it costs: the amounts are the reservation's, so a client-sent `amount` or `total` is an
 * unknown field, a 400 (strict objects).
 */
const text = (max: number) =>
  z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(max, `must be at most ${max} characters`));
const optionalText = (max: number) =>
  z.optional(z.string().check(z.maxLength(max, `must be at most ${max} characters`)));

export const CheckoutAttendeeBody = z.strictObject({
  firstName: text(200),
  lastName: text(200),
  email: z.email('must be an email address').check(z.maxLength(254, 'must be at most 254 characters')),
  birthDate: z.optional(z.iso.date('must be a date, yyyy-mm-dd').check(z.maxLength(10))),
  title: optionalText(100),
  company: optionalText(200),
  answers: z.optional(z.array(AttendeeAnswer).check(z.maxLength(100, 'must hold at most 100 answers'))),
});

export const CheckoutBody = z.strictObject({
  attendees: z
    .array(CheckoutAttendeeBody)
    .check(
      z.minLength(1, 'must hold one attendee per held ticket'),
      z.maxLength(MAX_TICKETS_PER_RESERVATION, `must hold at most ${MAX_TICKETS_PER_RESERVATION} attendees`),
    ),
  shippingAddress: optionalText(1000),
  shippingCountry: z.optional(
    z.string().check(
      // One problem for a long value, not two.
      z.maxLength(2, { message: COUNTRY_CODE_MESSAGE, abort: true }),
      z.refine(isCountryCode, COUNTRY_CODE_MESSAGE),
      z.describe(
        "The address's country (ISO 3166-1 alpha-2, upper case), with `shippingAddress`: a method whose `allowInternational` is false posts within the stage's home country only.",
      ),
    ),
  ),
});
export type CheckoutBody = z.output<typeof CheckoutBody>;
