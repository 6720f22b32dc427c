import * as z from '../../schema.ts';
import { COUNTRY_CODE_MESSAGE, isCountryCode } from '../../domain/countries.ts';
import { AttendeeAnswer } from '../../tickets/domain/attendee-update.ts';
import { ValidationError, type FieldProblem } from '../../errors.ts';
import { answerProblems, type Event } from '../../events/domain/event.ts';
import { ticketPrices } from './sale-prices.ts';
import { MAX_TICKETS_PER_RESERVATION, type Reservation } from './reservation.ts';

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

/**
 * A business buyer's billing details (shared/README.md "Invoices"): the company, its VAT or tax id and the address the
 * invoice is made out to, given at the portal's checkout or the box office, kept on the order and printed on its
 * invoice and credit notes. Ours where the issue leaves the shape open; pretix and Hi.Events ask the same three.
 *
 * The bounds keep the whole at most about 300 bytes on the order item, whose writes are billed by the kilobyte: a
 * company name of 100 characters, a tax id of 20 (an EU VAT number is at most 14 with its country prefix; others
 * shorter), an address of 200. Each trimmed; an empty value is a 400, not a blank printed line. Not checked against
 * any register (a VIES check for a reverse charge is not done: shared/selling/README.md).
 */
export const BILLING_BOUNDS = { company: 100, taxId: 20, address: 200 } as const;

const field = (max: number) =>
  z.optional(
    z
      .string()
      .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(max, `must be at most ${max} characters`)),
  );

export const BillingBody = z.lazy(() =>
  z
    .strictObject({
      company: field(BILLING_BOUNDS.company),
      taxId: z.optional(
        z
          .string()
          .check(
            z.trim(),
            z.minLength(1, 'must not be empty'),
            z.maxLength(BILLING_BOUNDS.taxId, `must be at most ${BILLING_BOUNDS.taxId} characters`),
            z.regex(
              /^[A-Za-z0-9][A-Za-z0-9 .\-/]*$/,
              'must be letters and digits (spaces, dots, dashes and slashes between)',
            ),
          ),
      ),
      address: z.optional(
        z.string().check(
          z.trim(),
          z.minLength(1, 'must not be empty'),
          z.maxLength(BILLING_BOUNDS.address, `must be at most ${BILLING_BOUNDS.address} characters`),
          // The invoice prints a line per line: a page has room for four.
          z.refine((address) => address.split('\n').length <= 4, 'must be at most 4 lines'),
        ),
      ),
    })
    .check(
      z.refine((billing) => Object.values(billing).some((value) => value !== undefined), {
        message: 'must name a company, a tax id or an address (or be left out)',
      }),
      z.describe(
        "A business buyer's billing details, printed on the order's invoice and credit notes: the company, its VAT or tax id (not checked against a register), the address the invoice is made out to.",
      ),
    ),
);
export type Billing = z.output<typeof BillingBody>;

/** The billing details as an order answers them: what the buyer gave, trimmed; absent when none. */
export const BillingResource = z.lazy(() =>
  z
    .strictObject({
      company: z.optional(z.string()),
      taxId: z.optional(z.string()),
      address: z.optional(z.string()),
    })
    .check(z.describe("The buyer's company, tax id and address for the invoice, as given; absent when none was.")),
);

export const CheckoutAttendeeBody = z.lazy(() =>
  z.strictObject({
    firstName: text(200),
    lastName: text(200),
    email: z.email('must be an email address').check(z.maxLength(254, 'must be at most 254 characters')),
    birthDate: z.optional(z.iso.date('must be a date, yyyy-mm-dd').check(z.maxLength(10))),
    title: optionalText(100),
    company: optionalText(200),
    answers: z.optional(z.array(AttendeeAnswer).check(z.maxLength(100, 'must hold at most 100 answers'))),
  }),
);

export const CheckoutBody = z.lazy(() =>
  z.strictObject({
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
    billing: z.optional(BillingBody),
  }),
);
export type CheckoutBody = z.output<typeof CheckoutBody>;

/**
 * One attendee per held ticket, in line order, with the event's questions answered (the required ones too);
 * the box office's sale takes its attendees by the same rule. Beside the body, not in the checkout's use case, so
 * the box office's bundle reaches no Stripe SDK (shared/README.md "The heavy packages"). Its type is inferred, not
 * order.ts `CheckoutAttendee` (order.ts reads this module's `Billing`: no cycle); `newOrder` checks it against that.
 */
export function attendeesOf(
  reservation: Pick<Reservation, 'lines' | 'amounts'>,
  event: Pick<Event, 'questions'>,
  body: Pick<CheckoutBody, 'attendees'>,
) {
  const problems = attendeeProblems(reservation, event, body);
  if (problems.length) throw new ValidationError('The attendees do not fit the reservation.', problems);
  return slotsOf(reservation).map((slot, n) => {
    const attendee = body.attendees[n]!;
    const [year, month, day] = attendee.birthDate?.split('-').map(Number) ?? [];
    return {
      ...slot,
      partyMember: attendee.firstName,
      partyMemberLastName: attendee.lastName,
      emailAddress: attendee.email,
      partyMemberBirthYear: year ?? null,
      partyMemberBirthMonth: month ?? null,
      partyMemberBirthDay: day ?? null,
      partyMemberTitle: attendee.title ?? null,
      partyMemberCompany: attendee.company ?? null,
      attendeeQuestions: attendee.answers ?? [],
    };
  });
}

/** The held tickets, one per attendee, in line order, each with its share of its line. */
function slotsOf(reservation: Pick<Reservation, 'lines' | 'amounts'>) {
  return reservation.lines.flatMap((line) =>
    ticketPrices(line, reservation.amounts.currency).map(({ price, taxAmount, bookingFee, discount, feeTax }) => ({
      typeId: line.typeId,
      waveTimeId: line.waveTimeId,
      price,
      taxAmount,
      ...(bookingFee ? { bookingFee } : {}),
      ...(discount ? { discount } : {}),
      ...(feeTax ? { feeTax } : {}),
    })),
  );
}

/** What is wrong with the attendees: their number, and each one's answers to the event's questions (empty: nothing). */
export function attendeeProblems(
  reservation: Pick<Reservation, 'lines'>,
  event: Pick<Event, 'questions'>,
  body: Pick<CheckoutBody, 'attendees'>,
): FieldProblem[] {
  const held = reservation.lines.reduce((sum, line) => sum + line.quantity, 0);
  const problems: FieldProblem[] = [];
  if (body.attendees.length !== held)
    problems.push({ path: 'body.attendees', message: `must hold ${held} attendees, one per held ticket` });
  body.attendees.forEach((attendee, n) => {
    const answers = attendee.answers ?? [];
    problems.push(...answerProblems(event.questions, answers, `body.attendees.${n}.answers`));
    for (const question of event.questions)
      if (question.required && !answers.some((answer) => answer.questionId === question.id))
        problems.push({ path: `body.attendees.${n}.answers`, message: `Question ${question.id} is required.` });
  });
  return problems;
}
