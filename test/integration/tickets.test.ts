import { beforeAll, describe, expect, it } from 'vitest';
import { readTicketRecord } from '#shared/data/tickets';
import { PROCESS_STATE } from '#shared/domain/ticket';
import { seedEvent, seedTickets } from '../../bin/seed/tickets.ts';
import { call } from '../support/api.ts';
import { adminToken } from '../support/tokens.ts';

const BASE = '/api/v2/tickets';
let token: string;

beforeAll(async () => {
  token = await adminToken();
});

const as = (options: Parameters<typeof call>[2] = {}) => ({ token, ...options });
const stats = async (...events: number[]) => {
  const response = await call('GET', `${BASE}/check-in-stats?events=${events.join(',')}`, as());
  expect(response.status).toBe(200);
  return response.body.data as { eventIds: number[]; soldTickets: number; checkedInTickets: number };
};
const checkIn = (id: number, options: { event?: number; key?: string; token?: string } = {}) =>
  call('POST', `${BASE}/${id}/check-in${options.event ? `?event=${options.event}` : ''}`, {
    token: options.token ?? token,
    headers: options.key ? { 'idempotency-key': options.key } : {},
  });


describe('GET /tickets/{id}', () => {
  it('answers the ticket with every field of the update body, and the expansions asked for', async () => {
    const event = await seedEvent();
    const [ticket] = await seedTickets(event, event.ticketTypes[0]!.id, 1);
    const plain = await call('GET', `${BASE}/${ticket!.id}`, as());
    expect(plain.status).toBe(200);
    expect(plain.body.data).toMatchObject({
      id: ticket!.id,
      eventId: event.id,
      typeId: event.ticketTypes[0]!.id,
      processState: PROCESS_STATE.active,
      transferState: 'none',
      withdrawnState: 'none',
      upgradeState: 'none',
      deleted: 0,
      profilePhoto: null,
      partyMember: expect.any(String),
      attendeeQuestions: expect.any(Array),
    });
    expect(plain.body.data).not.toHaveProperty('purchaser');
    const full = await call('GET', `${BASE}/${ticket!.id}?_include=change_status,ticket_status,purchaser,checkInInfo`, as());
    expect(full.body.data).toMatchObject({
      ticketClaim: null,
      ticketRefund: { status: 'none' },
      purchaser: { email: expect.any(String) },
      checkInInfo: { scannedTimestamp: null, scans: [] },
    });
  });

  it('answers 404 for an unknown id and 400 for an unknown include', async () => {
    expect((await call('GET', `${BASE}/987654321`, as())).status).toBe(404);
    const event = await seedEvent();
    const [ticket] = await seedTickets(event, event.ticketTypes[0]!.id, 1);
    const bad = await call('GET', `${BASE}/${ticket!.id}?_include=everything`, as());
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toMatch(/^query\._include/);
  });
});


