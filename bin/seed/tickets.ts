import { checkIn } from '#shared/gate/use-cases/check-in';
import { changeTicketStates, updateTicket } from '#shared/tickets/use-cases/edit-ticket';
import { advanceClock, resetClock } from '#shared/clock';
import type { CreatedEvent, NewEvent } from '#shared/events/domain/event';
import { PROCESS_STATE, type Ticket } from '#shared/tickets/domain/ticket';
import { createEventFor } from '#shared/events/use-cases/create-event';
import { updateEventFor } from '#shared/events/use-cases/edit-events';
import { eventFor, wholeEvent } from '#shared/events/use-cases/event-reads';
import { seedTickets } from '../../test/support/factories/tickets.ts';
import { creationBody } from './organised-events.ts';

/** The demo's events and tickets (`npm start`), built with the tests' factories (test/support/factories/). */
export interface DemoEvents {
  events: CreatedEvent[];
  /** The event reachable through the first event's access package. */
  accessPackageEvent: number;
  /** Tickets of events[0] that are neither checked in nor cancelled. */
  openTickets: number[];
}

/**
 * Bibs on the first ten marathon tickets, then three edits 10, 20 and 30 seconds apart
 * on the one clock, so `GET /ticket?updatedFrom=` and its update order have something to show.
 */
async function seedBibsAndEdits(tickets: readonly Ticket[]): Promise<void> {
  for (const [n, ticket] of tickets.slice(0, 10).entries())
    await updateTicket(ticket.id, { bibNumber: String(1001 + n) }, { kind: 'system' });
  try {
    for (const [n, ticket] of tickets.slice(10, 13).entries()) {
      advanceClock(10_000);
      await updateTicket(ticket.id, { chipNumber: `CHIP-${2001 + n}` }, { kind: 'system' });
    }
  } finally {
    resetClock();
  }
}

/**
 * The demo's events: a London marathon whose "Weekend pass" is an access package that
 * also admits to a New York night run; teams, questions and 46 tickets with attendees and
 * answers. A few tickets of the second event are checked in (one through the pass) and
 * one is cancelled, so the statistics are not all zero; ten marathon tickets carry bibs and
 * three were edited at different times.
 */
/**
 * An event as an organiser makes it through the API: `POST /events`'s use case with the body the
 * route would parse (a draft, its history's first entry), then `PATCH {published: true}`'s when it is to be listed.
 */
async function organisedEvent(by: number, input: NewEvent): Promise<CreatedEvent> {
  const caller = { id: by, eventScope: undefined };
  const made = await createEventFor(caller, creationBody(input));
  if (input.published) await updateEventFor(caller, made.id, { published: true });
  return wholeEvent(await eventFor(caller, made.id));
}

export async function seedDemoEvents(scannerId: number, organiserId = scannerId): Promise<DemoEvents> {
  const seedEvent = (input: NewEvent) => organisedEvent(organiserId, input);
  const nightRun = await seedEvent({
    title: 'Harbour Night Run',
    timezone: 'America/New_York',
    currency: 'USD',
    startsAt: '2027-09-18T23:30:00Z',
    // Not published: customers see it in the portal only through an order for it.
    venue: 'Harbour Front',
    venueAddress: '1 Pier Road, New York, NY',
    shortDescription: 'A 10K and 5K along the harbour after dark.',
    category: 'Running',
    ticketTypes: [
      { name: '10K', price: 45, total: 400 },
      { name: '5K', price: 30, total: 300 },
    ],
    teams: [{ name: 'Harbour Harriers' }, { name: 'Night Owls' }],
  });
  const marathon = await seedEvent({
    title: 'City Marathon 2027',
    timezone: 'Europe/London',
    currency: 'GBP',
    startsAt: '2027-04-25T08:00:00Z',
    published: true,
    onSaleDate: '2026-10-01T09:00:00Z',
    cutOff: '2027-04-20T23:00:00Z',
    venue: 'The Mall',
    venueAddress: 'The Mall, London SW1A',
    description: 'A marathon and half marathon through the city, with a weekend pass for the night run.',
    shortDescription: 'Marathon and half marathon through the city.',
    category: 'Running',
    location: 'London',
    sefUrl: 'city-marathon-2027',
    waveTimes: [
      { name: 'Elite', startTime: '2027-04-25T08:00:00Z', capacity: 100 },
      { name: 'Wave A', startTime: '2027-04-25T08:30:00Z', capacity: 400 },
      { name: 'Wave B', startTime: '2027-04-25T09:00:00Z', capacity: 400 },
    ],
    ticketTypes: [
      { name: 'Marathon', price: 65, total: 500 },
      { name: 'Half marathon', price: 40, total: 300 },
      { name: 'Weekend pass (marathon + night run)', price: 95, total: 100, grants: [nightRun.id] },
    ],
    teams: [{ name: 'Thames Striders' }, { name: 'Club Fit' }, { name: 'Charity runners' }],
  });
  const [full, half, pass] = marathon.ticketTypes;
  const open = await seedTickets(marathon, full!.id, 24);
  const halves = await seedTickets(marathon, half!.id, 6);
  const passes = await seedTickets(marathon, pass!.id, 4);
  const tenK = await seedTickets(nightRun, nightRun.ticketTypes[0]!.id, 8);
  await seedTickets(nightRun, nightRun.ticketTypes[1]!.id, 4);

  await changeTicketStates(halves[0]!.id, { processState: PROCESS_STATE.cancelled }, { kind: 'system' });
  for (const ticket of tenK.slice(0, 3)) await checkIn(ticket.id, { adminId: scannerId });
  await checkIn(passes[0]!.id, { adminId: scannerId, event: nightRun.id });
  await seedBibsAndEdits(open);
  return {
    events: [marathon, nightRun],
    accessPackageEvent: nightRun.id,
    openTickets: open.map((ticket) => ticket.id),
  };
}
