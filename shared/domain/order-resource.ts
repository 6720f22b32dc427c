import * as z from '../schema.ts';
import { ORDER_STATUSES, ORDER_TICKET_STATUSES, type OrderEntry } from './order.ts';

/** `GET /my-account/orders`: an order entry, with the expansions asked for. */
const AttendeeAnswer = z.strictObject({
  questionId: z.int(),
  answerId: z.optional(z.int()),
  answerText: z.optional(z.string()),
  dynamicQuantity: z.optional(z.int()),
  displayText: z.optional(z.string()),
  sku: z.optional(z.string()),
});

const OrderTicketResource = z.strictObject({
  id: z.string(),
  status: z.enum(ORDER_TICKET_STATUSES),
  name: z.string().check(z.describe("The attendee's full name.")),
  price: z.number(),
  attendee: z.int().check(z.describe('0-based position of the attendee in the order.')),
  attendeeQuestions: z.optional(z.array(AttendeeAnswer)),
});

const OrderTransactionResource = z.strictObject({
  amount: z.number(),
  processor: z.string(),
  reference: z.string(),
  time: z.iso.datetime(),
});

export const OrderEntryResource = z.strictObject({
  id: z.string(),
  eventId: z.int().check(z.describe('An order is for one event.')),
  created: z.iso.datetime(),
  purchasedDate: z.iso.datetime(),
  status: z
    .enum(ORDER_STATUSES)
    .check(z.describe('pending: tickets being issued; active: paid and issued; cancelled; refunded.')),
  emailAddress: z.string(),
  purchaser: z.string(),
  affiliate: z.nullable(z.string()),
  grandTotal: z.number(),
  waveTimeId: z.nullable(z.int()),
  teamId: z.nullable(z.int()),
  tickets: z.optional(z.array(OrderTicketResource)).check(z.describe('With includeTickets=true.')),
  transactions: z.optional(z.array(OrderTransactionResource)).check(z.describe('With includeTrans=true.')),
  answers: z
    .optional(z.array(AttendeeAnswer))
    .check(z.describe("With includeAnswers=true (also each ticket's attendeeQuestions).")),
});

true satisfies z.Same<z.output<typeof OrderEntryResource>, OrderEntry>;
true satisfies z.Same<keyof z.output<typeof OrderEntryResource>, keyof OrderEntry>;
