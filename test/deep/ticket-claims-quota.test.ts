import { beforeAll, describe, expect, it } from 'vitest';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';
import { call } from '../support/api.ts';
import { newAddress } from '../support/mail.ts';
import { adminToken } from '../support/tokens.ts';

/** The staff claim mails' quota, 101 claims in a row (the claim routes' other tests: test/integration/ticket-claims.test.ts). */
const TICKET = '/api/v2/ticket';
let writer: string;

beforeAll(async () => {
  writer = await adminToken(['tickets:read', 'tickets:write'], 646_001);
});

const get = (path: string) => call('GET', `${TICKET}/${path}`, { token: writer });

describe("a staff member's claim mails", () => {
  it('mails at most 100 claim links per staff member in 24 hours, across tickets', async () => {
    const staff = await adminToken(['tickets:read', 'tickets:write'], 646_003 + Math.floor(Math.random() * 1000));
    const event = await seedEvent({ ticketTypes: [{ name: 'Spare', price: 0, total: 200 }], teams: [] });
    const tickets = await seedTickets(event, event.ticketTypes[0]!.id, 101);
    const send = (id: number) =>
      call('POST', `${TICKET}/${id}/claim`, {
        token: staff,
        body: { claimantEmail: newAddress(), claimantuserId: '' },
      });
    for (const spare of tickets.slice(0, 100)) expect((await send(spare.id)).status).toBe(200);
    const refused = await send(tickets[100]!.id);
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/100 claim mails per staff member/);
    expect((await get(`${tickets[100]!.id}/is-a-claim`)).body.data).toBe(false);
  }, 60_000);
});
