import { beforeAll, describe, expect, it } from 'vitest';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';
import { checkIn, readStats } from '../support/tickets.ts';
import { adminToken } from '../support/tokens.ts';

/** POST /tickets/{id}/check-in under a gate's burst (the route's other tests: test/integration/ticket-check-in.test.ts). */
let token: string;
const SCANNER_ID = 424_242;

beforeAll(async () => {
  token = await adminToken(['checkin:scan', 'tickets:read'], SCANNER_ID);
});

describe('POST /tickets/{id}/check-in in a burst', () => {
  it('admits all of a burst of 200 concurrent check-ins on distinct tickets of one event, counting exactly 200', async () => {
    const event = await seedEvent({ ticketTypes: [{ name: 'Runner', price: 20, total: 500 }] });
    const tickets = await seedTickets(event, event.ticketTypes[0]!.id, 200);
    expect(await readStats(token, event.id)).toEqual({ eventIds: [event.id], soldTickets: 200, checkedInTickets: 0 });
    const answers = await Promise.all(tickets.map((ticket) => checkIn(token, ticket.id)));
    expect(answers.filter((answer) => answer.status !== 200).map((answer) => answer.body)).toEqual([]);
    expect(await readStats(token, event.id)).toEqual({ eventIds: [event.id], soldTickets: 200, checkedInTickets: 200 });
  }, 120_000);
});
