import { beforeAll, describe, expect, it } from 'vitest';
import { TicketResource } from '#shared/tickets/domain/ticket-resource';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';
import { call } from '../support/api.ts';
import { checkIn, oneTicket, TICKETS } from '../support/tickets.ts';
import { adminToken } from '../support/tokens.ts';

/**
 * The OpenAPI document's Ticket component is generated from `TicketResource`; real answers
 * must parse with it (a strict object: a field added or renamed on either side fails here).
 */
let token: string;

beforeAll(async () => {
  token = await adminToken();
});

describe('TicketResource, the documented ticket', () => {
  it('parses a real GET /tickets/{id} answer with every expansion, after a check-in', async () => {
    const { event, ticket } = await oneTicket();
    expect((await checkIn(token, ticket.id)).status).toBe(200);
    const response = await call(
      'GET',
      `${TICKETS}/${ticket.id}?_include=change_status,ticket_status,purchaser,checkInInfo`,
      { token },
    );
    expect(response.status).toBe(200);
    const parsed = TicketResource.safeParse(response.body.data);
    expect(parsed.error?.issues).toBeUndefined();
    expect(parsed.data).toMatchObject({
      processState: 2,
      checkInInfo: { scans: [{ kind: 'simple', eventId: event.id }] },
    });
  });

  it('parses the plain answer, without the expansions', async () => {
    const { ticket } = await oneTicket();
    const response = await call('GET', `${TICKETS}/${ticket.id}`, { token });
    expect(TicketResource.safeParse(response.body.data).error?.issues).toBeUndefined();
  });

  it('parses each ticket of a GET /tickets page', async () => {
    const event = await seedEvent();
    await seedTickets(event, event.ticketTypes[0]!.id, 2);
    const page = await call('GET', `${TICKETS}?event=${event.id}&_include=purchaser,checkInInfo`, { token });
    expect(page.body.data).toHaveLength(2);
    for (const ticket of page.body.data) expect(TicketResource.safeParse(ticket).error?.issues).toBeUndefined();
  });
});
