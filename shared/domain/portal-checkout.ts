import type { AttendeeQuestion } from './event.ts';
import type { CHARGE_TYPES, ShippingMethod } from './shipping-method.ts';

/**
 * What a buyer's checkout form needs to know (the portal's `GET /my-account/shipping-method` and
 * `GET /my-account/question/{eventId}`): the shipping methods they may choose, with what each charges, and an
 * event's attendee questions, with what the checkout validates an answer against (event.ts `answerProblems`).
 */

/** A shipping method as a buyer chooses it: the staff's record without its bookkeeping (badges, times). */
export interface ShippingOption {
  id: number;
  name: string;
  description: string;
  charge: number;
  twoPlusCharge: number;
  chargeType: (typeof CHARGE_TYPES)[number];
  hasETickets: boolean;
  requiresShippingInfo: boolean;
  allowInternational: boolean;
}

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

export interface QuestionEntry {
  id: number;
  text: string;
  type: (typeof QUESTION_TYPES)[number];
  required: boolean;
  /** Empty for a `text` question. */
  options: { id: number; text: string }[];
}

/** The event's questions in the order the organiser made them (the event item's order). */
export const questionEntries = (questions: readonly AttendeeQuestion[]): QuestionEntry[] =>
  questions.map((question) => ({
    id: question.id,
    text: question.text,
    type: question.options.length ? 'choice' : 'text',
    required: question.required,
    options: question.options.map((option) => ({ id: option.id, text: option.text })),
  }));
