import { vi } from 'vitest';
import { createEvent } from '#shared/events/data/event-creation';
import { eventListing } from '#shared/lists/event-listing';
import { createWaiver } from '#shared/events/data/waivers';
import { createPromoCodeFor } from '#shared/selling/use-cases/promo-codes';
import { routes } from '#shared/routes';
import { seedTickets } from '../support/factories/tickets.ts';
import { fuzzAdministrator, fuzzFile } from '../support/fuzz-world.ts';

// Before any import reads it (shared/data/client.ts): this file's own table, so the before/after comparison sees only its own requests.
const table = vi.hoisted(() => {
  const previous = process.env.TABLE_NAME;
  process.env.TABLE_NAME = `ticketing-fuzz-events-${process.pid}-${Date.now().toString(36)}`;
  return { name: process.env.TABLE_NAME, previous };
});

fuzzFile({
  title: 'events',
  tableName: table.name,
  previousTableName: table.previous,
  rows: routes.filter((row) => row.path.startsWith('/events')),
  async seed() {
    const admin = await fuzzAdministrator('events');
    const events = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        createEvent(
          {
            title: `Fuzz event ${i}`,
            timezone: 'Europe/London',
            startsAt: `2400-0${i + 1}-01T09:00:00Z`,
            currency: 'EUR',
            ticketTypes: [
              { name: 'A', price: 10, total: 100 },
              { name: 'B', price: 20, total: 50 },
            ],
            waveTimes: [{ name: 'W', startTime: `2400-0${i + 1}-01T09:00:00Z`, capacity: 10 }],
            teams: [{ name: 'T' }],
            questions: [{ text: 'Q?', options: [{ text: 'O' }] }],
          },
          eventListing,
        ),
      ),
    );
    // Two of them with a ticket: a DELETE of those is refused, so the other routes still find events to change.
    await Promise.all(events.slice(0, 2).map((event) => seedTickets(event, event.ticketTypes[0]!.id, 1)));
    const ids = events.map((event) => event.id);
    const typeIds = events.flatMap((event) => event.ticketTypes.map((type) => type.id));
    const waivers = await Promise.all(
      events.map((event) => createWaiver({ eventId: event.id, title: 'W', text: 'w' })),
    );
    // Two codes an event, one of them used by no hold (a DELETE of it goes through), the other limited.
    const codes = await Promise.all(
      events.flatMap((event, i) => [
        createPromoCodeFor(admin, event.id, { code: `FUZZ-${i}-A`, percentOff: 10 }),
        createPromoCodeFor(admin, event.id, { code: `FUZZ-${i}-B`, amountOff: 5, maxUses: 3 }),
      ]),
    );
    const parts: Record<string, number[]> = {
      typeId: typeIds,
      waveId: events.flatMap((event) => event.waveTimes.map((wave) => wave.id)),
      teamId: events.flatMap((event) => event.teams.map((team) => team.id)),
      questionId: events.flatMap((event) => event.questions.map((question) => question.id)),
      waiverId: waivers.map((waiver) => waiver.id),
      codeId: codes.map((code) => code.id),
    };
    return {
      admin,
      known: {
        id: ids,
        ...parts,
        ticketTypeId: typeIds,
        grants: [[ids[0]], []],
        timezone: ['Europe/London', 'UTC'],
        currency: ['EUR'],
      },
      pathKnown: (_row, parameter) => parts[parameter] ?? ids,
    };
  },
  meantWrites: [
    // A type's id is drawn before its transaction: a refusal there (a lost race, an edit too large) leaves a gap, as a sequence does.
    {
      route: 'POST /events/{id}/ticket-types',
      key: /^SEQUENCE#TICKET_TYPE\|/,
      reason: 'an id drawn before a refused transaction',
    },
    ...['wave-times', 'questions', 'waivers', 'teams', 'promo-codes'].map((part) => ({
      route: `POST /events/{id}/${part}`,
      key: /^SEQUENCE#(WAVE|QUESTION|ANSWER_OPTION|WAIVER|TEAM|PROMO_CODE)\|/,
      reason: 'an id drawn before a refused transaction',
    })),
    {
      route: 'PATCH /events/{id}/questions/{questionId}',
      key: /^SEQUENCE#ANSWER_OPTION\|/,
      reason: 'an id drawn before a refused transaction',
    },
  ],
});
