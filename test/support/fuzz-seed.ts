import { createWaiver } from '#shared/events/data/waivers';
import { OLDER_TICKET_INCLUDES } from '#shared/tickets/domain/older-ticket-view';
import { PROCESS_STATES, SINGLE_TICKET_INCLUDES } from '#shared/tickets/domain/ticket';
import { updateTicket } from '#shared/tickets/use-cases/edit-ticket';
import { seedTickets } from './factories/tickets.ts';
import type { Known } from './fuzz-inputs.ts';
import { accessFixture } from './tickets.ts';

/**
 * The fuzz tables' ticket fixtures: two events (one granting the other through an access
 * package), tickets of each type with bibs, and waivers, so generated ids and filters
 * reach real records.
 */
export async function seedTicketFixture() {
  const { a, b, dayType, passType } = await accessFixture();
  const tickets = [
    ...(await seedTickets(a, dayType, 8)),
    ...(await seedTickets(a, passType, 3)),
    ...(await seedTickets(b, b.ticketTypes[0]!.id, 3)),
  ];
  for (const [n, ticket] of tickets.slice(0, 4).entries())
    await updateTicket(ticket.id, { bibNumber: String(101 + n), barcode: `FUZZ-${ticket.id}` }, { kind: 'system' });
  const waivers = [
    await createWaiver({ eventId: a.id, title: 'Liability release', text: 'I take part at my own risk.' }),
    await createWaiver({
      eventId: a.id,
      ticketTypeId: dayType,
      title: 'Course rules',
      text: 'I know the course rules.',
    }),
  ];
  const ticketIds = tickets.map((ticket) => ticket.id);
  const events = [a, b];
  const types = events.flatMap((event) => event.ticketTypes.map((type) => type.id));
  const teams = events.flatMap((event) => event.teams.map((team) => team.id));
  const questions = events.flatMap((event) => event.questions);
  const known: Known = {
    eventId: events.map((event) => event.id),
    event: events.map((event) => String(event.id)),
    events: [`${a.id}`, `${a.id},${b.id}`, `${b.id}`],
    accessEvents: [`${b.id}`],
    typeId: types,
    ticket_types: types.map(String),
    teamId: teams,
    teams: [teams.join(','), '0'],
    exclude_process_states: ['0', '3,4'],
    history_limit: ['1', '5'],
    questionId: questions.map((question) => question.id),
    answerId: questions.flatMap((question) => question.options.map((option) => option.id)),
    waiverIds: [waivers.map((waiver) => waiver.id), [waivers[0]!.id]],
    ids: [ticketIds.slice(-3), [ticketIds.at(-1)!]],
    barcode: tickets.slice(0, 4).map((ticket) => `FUZZ-${ticket.id}`),
    bibNumber: ['101', '102', '999', null],
    processState: [...PROCESS_STATES, ...PROCESS_STATES.map(String)],
    _include: [
      SINGLE_TICKET_INCLUDES.join(','),
      'checkInInfo',
      'history',
      OLDER_TICKET_INCLUDES.join(','),
      'costs,waivers',
    ],
  };
  return { events, tickets: ticketIds, bibs: ['101', '102', '103', '999'], known };
}
