import { getEvent, listTicketTypes } from '#shared/events/data/events';
import { withSold } from '#shared/selling/data/stock';
import { listTeams } from '#shared/events/data/event-admin-reads';
import { listWaveTimes } from '#shared/events/data/wave-times';
import type { Event, NewEvent, Team, TicketType } from '#shared/events/domain/event';
import { createEventFor } from '#shared/events/use-cases/create-event';
import { attendeeName } from '../../test/support/factories/names.ts';
import { creationBody, SEED_ORGANISER } from './organised-events.ts';

/**
 * The event the scale seed (scale.ts) fills, and its attendees: a new city race (four types,
 * one granting an after-party, six teams, two waves, two questions) or an existing event
 * with room, and each ticket's attendee, made up from its number.
 */

export interface ScaleSeedOptions {
  tickets: number;
  /** Seed into this event (its types need room); default a new event. */
  eventId?: number;
  onProgress?: (written: number) => void;
}

/** A new race and its after-party, drafts made as `POST /events` makes them (its use case); answers the race's id. */
async function newEvents(tickets: number): Promise<number> {
  const create = async (input: NewEvent) =>
    (await createEventFor({ id: SEED_ORGANISER, eventScope: undefined }, creationBody(input))).id;
  const access = await create({
    title: `Seeded after-party ${Date.now().toString(36)}`,
    timezone: 'Europe/London',
    startsAt: '2027-05-02T19:00:00Z',
    currency: 'GBP',
    ticketTypes: [{ name: 'Party', price: 15, total: Math.max(10, tickets) }],
  });
  const room = Math.max(100, tickets);
  return create({
    title: `Seeded city race ${Date.now().toString(36)}`,
    timezone: 'Europe/London',
    startsAt: '2027-05-02T08:00:00Z',
    currency: 'GBP',
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
      { name: 'Marathon', price: 65, total: room },
      { name: 'Half marathon', price: 40, total: room },
      { name: '10K', price: 30, total: room },
      { name: 'Race + after-party', price: 80, total: room, grants: [access] },
    ],
    teams: ['Thames Striders', 'Club Fit', 'Charity runners', 'Harriers', 'Night Owls', 'Corporate'].map((name) => ({
      name,
    })),
    waveTimes: [
      { name: 'Elite', startTime: '2027-05-02T08:00:00Z', capacity: room },
      { name: 'Wave A', startTime: '2027-05-02T08:30:00Z', capacity: room },
    ],
  });
}

export async function targetEvent(
  options: ScaleSeedOptions,
): Promise<{ event: Event; types: TicketType[]; teams: Team[]; waves: number[] }> {
  const eventId = options.eventId ?? (await newEvents(options.tickets));
  const [event, types, teams, waves] = await Promise.all([
    getEvent(eventId),
    listTicketTypes(eventId).then(withSold),
    listTeams(eventId),
    listWaveTimes(eventId),
  ]);
  const room = types.reduce((sum, type) => sum + type.total - type.sold, 0);
  // Conditions are dropped while seeding, so capacity is checked here (the types share the tickets evenly).
  const perType = Math.ceil(options.tickets / Math.max(1, types.length));
  if (!types.length || types.some((type) => type.total - type.sold < perType)) {
    throw new Error(
      `Event ${eventId}: its ${types.length} ticket types have room for ${room} tickets, ${perType} needed in each.`,
    );
  }
  return { event, types, teams, waves: waves.map((wave) => wave.id) };
}

export function attendee(n: number, event: Event) {
  const { first, last } = attendeeName(n);
  return {
    partyMember: first,
    partyMemberLastName: last,
    emailAddress: `${first}.${last}.${n}@example.test`.toLowerCase(),
    partyMemberBirthYear: 1960 + (n % 45),
    partyMemberBirthMonth: 1 + (n % 12),
    partyMemberBirthDay: 1 + (n % 28),
    attendeeQuestions: event.questions.map((question) =>
      question.options.length
        ? {
            questionId: question.id,
            answerId: question.options[n % question.options.length]!.id,
            displayText: question.options[n % question.options.length]!.text,
          }
        : { questionId: question.id, answerText: `+44 7700 ${String(900000 + (n % 100000))}` },
    ),
    purchaserContact: { firstName: first, lastName: last, email: `buyer.${n}@example.test` },
  };
}
