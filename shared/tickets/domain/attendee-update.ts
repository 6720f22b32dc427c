/**
 * What a staff member may set of a ticket's attendee, on an update or on a transfer's new ticket: one schema the
 * routes validate with and the domain takes its type from.
 */
import * as z from '../../schema.ts';
import { positiveId } from '../../domain/ids.ts';

export const text = (max: number) => z.string().check(z.maxLength(max, `must be at most ${max} characters`));
export const nullable = <T extends z.ZodMiniType>(schema: T) => z.nullable(schema);
export const between = (min: number, max: number) =>
  z.int().check(z.minimum(min, `must be at least ${min}`), z.maximum(max, `must be at most ${max}`));

export const AttendeeAnswer = z.lazy(() =>
  z.strictObject({
    questionId: positiveId,
    answerId: z.optional(positiveId),
    answerText: z.optional(text(1000)),
    dynamicQuantity: z.optional(z.int().check(z.minimum(0), z.maximum(1_000_000))),
    displayText: z.optional(text(200)),
    sku: z.optional(text(100)),
  }),
);

export const attendeeFields = {
  partyMember: z.optional(text(200)),
  partyMemberLastName: z.optional(text(200)),
  emailAddress: z.optional(
    nullable(z.email('must be an email address').check(z.maxLength(254, 'must be at most 254 characters'))),
  ),
  partyMemberBirthMonth: z.optional(nullable(between(1, 12))),
  partyMemberBirthDay: z.optional(nullable(between(1, 31))),
  partyMemberBirthYear: z.optional(nullable(between(1900, 2100))),
  partyMemberTitle: z.optional(nullable(text(50))),
  partyMemberCompany: z.optional(nullable(text(200))),
  // Bounded so a ticket stays far below DynamoDB's 400 KB item size.
  attendeeQuestions: z.optional(z.array(AttendeeAnswer).check(z.maxLength(100, 'must hold at most 100 answers'))),
};

/** The attendee fields a transfer may set on the new ticket (or update in place). */
export const AttendeeUpdate = z.lazy(() => z.strictObject(attendeeFields));
export type AttendeeUpdate = z.output<typeof AttendeeUpdate>;

/** `POST /tickets/{id}/transfer`: to another type, event, or attendee. */
export const TransferBody = z.lazy(() =>
  z.strictObject({
    eventId: z.optional(positiveId),
    typeId: z.optional(positiveId),
    attendee: z.optional(AttendeeUpdate),
  }),
);
export type TransferRequest = z.output<typeof TransferBody>;
