import * as z from '../../schema.ts';
import { CHARGE_TYPES } from '../../domain/shipping-method.ts';
import { QUESTION_TYPES, type QuestionEntry, type ShippingOption } from '../../domain/portal-checkout.ts';

/** The answers of the portal's checkout catalogue (`GET /my-account/shipping-method`, `GET /my-account/question/{eventId}`). */

export const ShippingOptionResource = z
  .strictObject({
    id: z.int().check(z.describe("The reservation's `shippingMethodId`.")),
    name: z.string(),
    description: z.string(),
    charge: z.number(),
    twoPlusCharge: z.number(),
    chargeType: z
      .enum(CHARGE_TYPES)
      .check(
        z.describe('`per_order`: `charge` once; `per_ticket`: `charge`, then `twoPlusCharge` each further ticket.'),
      ),
    hasETickets: z.boolean(),
    requiresShippingInfo: z.boolean().check(z.describe("The checkout's `shippingAddress` is required (else refused).")),
    allowInternational: z.boolean(),
  })
  .check(z.describe('A shipping method a buyer may choose; the reservation answers what it charges.'));

export const QuestionResource = z
  .strictObject({
    id: z.int().check(z.describe("An answer's `questionId`.")),
    text: z.string(),
    type: z
      .enum(QUESTION_TYPES)
      .check(z.describe('`text`: answered with `answerText`; `choice`: with `answerId`, the id of one of `options`.')),
    required: z.boolean().check(z.describe('Every attendee of the checkout must answer it.')),
    options: z.array(z.strictObject({ id: z.int(), text: z.string() })),
  })
  .check(z.describe("An attendee question of the event, as the checkout validates each attendee's `answers`."));

true satisfies z.Same<z.output<typeof ShippingOptionResource>, ShippingOption>;
true satisfies z.Same<z.output<typeof QuestionResource>, QuestionEntry>;
