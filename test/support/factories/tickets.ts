import { createEvent } from '#shared/events/data/event-creation';
import { eventListing } from '#shared/lists/event-listing';
import { createTicket, type NewTicket } from '#shared/tickets/use-cases/create-ticket';
import { catchUpTickets } from '#shared/webhooks/use-cases/jobs';
import type { CreatedEvent, NewEvent } from '#shared/events/domain/event';
import type { Ticket } from '#shared/tickets/domain/ticket';
import { attendeeName, type NameCycle } from './names.ts';

/**
 * Factories of events and tickets: integration tests build their own uniquely-keyed fixtures with them (ids come from
 * the sequences, so fixtures of parallel tests never collide), and the demo seed (bin/seed/) builds its data with them.
 */

/** The tests' fixtures cycle through the first 16 first and 10 last names (names.ts). */
const TEST_NAMES: NameCycle = { first: 16, last: 10 };

/** An event with a free-text and a multiple-choice question, two types and two teams unless told otherwise. */
export function sampleEvent(overrides: Partial<NewEvent> = {}): NewEvent {
  return {
    title: `Event ${Math.random().toString(36).slice(2, 8)}`,
    timezone: 'Europe/London',
    startsAt: '2027-06-01T08:00:00Z',
    questions: [
      { text: 'Emergency contact', required: true },
      {
        text: 'T-shirt size',
        options: [
          { text: 'S', sku: 'TS-S' },
          { text: 'M', sku: 'TS-M' },
          { text: 'L', sku: 'TS-L' },
        ],
      },
    ],
    ticketTypes: [
      { name: 'General admission', price: 35, total: 1000 },
      { name: 'VIP', price: 90, total: 50 },
    ],
    teams: [{ name: 'Red' }, { name: 'Blue' }],
    ...overrides,
  };
}

export const seedEvent = (overrides: Partial<NewEvent> = {}): Promise<CreatedEvent> =>
  createEvent(sampleEvent(overrides), eventListing);

/** An attendee with answers to the event's questions (the n-th of a stable sequence). */
export function sampleAttendee(event: CreatedEvent, n: number): Omit<NewTicket, 'typeId'> {
  const { first, last } = attendeeName(n, TEST_NAMES);
  const answers: NewTicket['attendeeQuestions'] = event.questions.map((question) =>
    question.options.length
      ? {
          questionId: question.id,
          answerId: question.options[n % question.options.length]!.id,
          displayText: question.options[n % question.options.length]!.text,
        }
      : {
          questionId: question.id,
          answerText: `Contact of ${first}: +44 7700 900${String(n % 1000).padStart(3, '0')}`,
        },
  );
  return {
    partyMember: first,
    partyMemberLastName: last,
    emailAddress: `${first}.${last}.${n}@example.test`.toLowerCase(),
    partyMemberBirthYear: 1970 + (n % 35),
    partyMemberBirthMonth: 1 + (n % 12),
    partyMemberBirthDay: 1 + (n % 28),
    teamId: event.teams.length && n % 3 ? event.teams[n % event.teams.length]!.id : null,
    attendeeQuestions: answers,
    purchaser: { firstName: first, lastName: last, email: `buyer.${n}@example.test` },
  };
}

/** Sales of one type all move its `sold` item, so they run a few at a time. */
const SEED_CONCURRENCY = 8;

/**
 * `count` tickets of a type (each sale its own transaction), in id order, handed to the stream consumer's lists step
 * (as test/support/lists-caught-up.ts does) as the deployed table's stream would: listed once this answers.
 * `{ consumer: false }` leaves them to a stream table's own consumer (search-entries-stream.test.ts).
 */
export async function seedTickets(
  event: CreatedEvent,
  typeId: number,
  count: number,
  extra: Partial<NewTicket> = {},
  { consumer = true }: { consumer?: boolean } = {},
): Promise<Ticket[]> {
  const tickets: Ticket[] = [];
  for (let start = 0; start < count; start += SEED_CONCURRENCY) {
    const batch = Array.from({ length: Math.min(SEED_CONCURRENCY, count - start) }, (_, k) => start + k);
    tickets.push(
      ...(await Promise.all(batch.map((n) => createTicket({ ...sampleAttendee(event, n), typeId, ...extra })))),
    );
  }
  if (consumer) await catchUpTickets(tickets.map((ticket) => ticket.id));
  return tickets.sort((a, b) => a.id - b.id);
}
