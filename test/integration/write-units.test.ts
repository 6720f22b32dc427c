import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { listOrderTickets } from '#shared/data/ticket-records';
import { placeOrder } from '../../bin/seed/orders.ts';
import { seedEvent } from '../../bin/seed/tickets.ts';
import { call } from '../support/api.ts';
import { newCustomer } from '../support/customers.ts';
import { countWrites, describeWrites } from '../support/dynamo-writes.ts';
import { checkIn, TICKETS } from '../support/tickets.ts';
import { adminToken } from '../support/tokens.ts';

/**
 * Issue 23's targets by AWS's published rules (test/support/dynamo-writes.ts prices the
 * items each request changed), on a ticket that belongs to an order.
 */
let token: string;

beforeAll(async () => {
  token = await adminToken(['checkin:scan', 'tickets:read', 'tickets:write'], 77_001);
});

async function orderedTicket() {
  const event = await seedEvent();
  const customer = await newCustomer();
  const order = await placeOrder(event, customer.id, [event.ticketTypes[0]!.id]);
  const [ticket] = await listOrderTickets(order.id);
  return { event, ticket: ticket! };
}

describe('write units by AWS rules', () => {
  it('check-in', async () => {
    const { ticket } = await orderedTicket();
    const { result, writes } = await countWrites(() => checkIn(token, ticket.id));
    expect(result.status).toBe(200);
    console.log(`check-in ${writes.units}\n${describeWrites(writes)}`);
    const keyed = await orderedTicket();
    const second = await countWrites(() => checkIn(token, keyed.ticket.id, { key: randomUUID() }));
    console.log(`check-in keyed ${second.writes.units}\n${describeWrites(second.writes)}`);
  });
  it('patch', async () => {
    const { ticket } = await orderedTicket();
    const { result, writes } = await countWrites(() => call('PATCH', `${TICKETS}/${ticket.id}`, { token, body: { data: { partyMemberCompany: 'Acme' } } }));
    expect(result.status).toBe(200);
    console.log(`patch ${writes.units}\n${describeWrites(writes)}`);
  });
  it('transfer', async () => {
    const { event, ticket } = await orderedTicket();
    const { result, writes } = await countWrites(() => call('POST', `${TICKETS}/${ticket.id}/transfer`, { token, body: { typeId: event.ticketTypes[0]!.id, attendee: { partyMember: 'Nadia' } } }));
    expect(result.status).toBe(200);
    console.log(`transfer ${writes.units}\n${describeWrites(writes)}`);
  });
});
