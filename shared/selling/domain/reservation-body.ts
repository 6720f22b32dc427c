import * as z from '../../schema.ts';
import { bodyId } from '../../request-fields.ts';
import { MAX_RESERVATION_LINES } from './reservation.ts';

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
