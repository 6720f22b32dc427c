import type { AttendeeQuestion } from '../../events/domain/event.ts';
import * as z from '../../schema.ts';
import { CHARGE_TYPES, type ShippingMethod } from './shipping-method.ts';

/**
 * What a buyer's checkout form needs to know (the portal's `GET /my-account/shipping-method` and
 * `GET /my-account/question/{eventId}`): the shipping methods they may choose, with what each charges, and an
 * event's attendee questions, with what the checkout validates an answer against (event.ts `answerProblems`).
 */

/** A shipping method as a buyer chooses it: the staff's record without its bookkeeping (badges, times). */
export const ShippingOptionResource = z.lazy(() =>
  z
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
      requiresShippingInfo: z
        .boolean()
        .check(z.describe("The checkout's `shippingAddress` is required (else refused).")),
      allowInternational: z.boolean(),
    })
    .check(z.describe('A shipping method a buyer may choose; the reservation answers what it charges.')),
);

export type ShippingOption = z.output<typeof ShippingOptionResource>;

export const shippingOptionOf = (method: ShippingMethod): ShippingOption => ({
  id: method.id,
  name: method.name,
  description: method.description,
  charge: method.charge,
  twoPlusCharge: method.twoPlusCharge,
  chargeType: method.chargeType,
  hasETickets: method.hasETickets,
  requiresShippingInfo: method.requiresShippingInfo,
  allowInternational: method.allowInternational,
});

/** How a question is answered: `text` with an `answerText`, `choice` with an `answerId` among its options. */
export const QUESTION_TYPES = ['text', 'choice'] as const;

export const QuestionResource = z.lazy(() =>
  z
    .strictObject({
      id: z.int().check(z.describe("An answer's `questionId`.")),
      text: z.string(),
      type: z
        .enum(QUESTION_TYPES)
        .check(
          z.describe('`text`: answered with `answerText`; `choice`: with `answerId`, the id of one of `options`.'),
        ),
      required: z.boolean().check(z.describe('Every attendee of the checkout must answer it.')),
      /** Empty for a `text` question. */
      options: z.array(z.strictObject({ id: z.int(), text: z.string() })),
    })
    .check(z.describe("An attendee question of the event, as the checkout validates each attendee's `answers`.")),
);
export type QuestionEntry = z.output<typeof QuestionResource>;

/** The event's questions in the order the organiser made them (the event item's order). */
export const questionEntries = (questions: readonly AttendeeQuestion[]): QuestionEntry[] =>
  questions.map((question) => ({
    id: question.id,
    text: question.text,
    type: question.options.length ? 'choice' : 'text',
    required: question.required,
    options: question.options.map((option) => ({ id: option.id, text: option.text })),
  }));
