import { beforeAll, describe, expect, it } from 'vitest';
import { readTicketRecord } from '#shared/data/tickets';
import type { Event } from '#shared/domain/event';
import { PROCESS_STATE, type Ticket } from '#shared/domain/ticket';
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

/** Event A with an access package type granting event B. */
async function accessFixture() {
  const b = await seedEvent({ title: 'Festival day 2', timezone: 'America/New_York' });
  const a = await seedEvent({
    title: 'Festival day 1',
    ticketTypes: [
      { name: 'Day 1', price: 40, total: 100 },
      { name: 'Weekend pass', price: 70, total: 100, grants: [b.id] },
    ],
  });
  return { a, b, dayType: a.ticketTypes[0]!.id, passType: a.ticketTypes[1]!.id };
}

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

describe('POST /tickets/{id}/check-in', () => {
  it('admits an active ticket once, records the scan and counts it', async () => {
    const event = await seedEvent();
    const [ticket] = await seedTickets(event, event.ticketTypes[0]!.id, 1);
    const admitted = await checkIn(ticket!.id);
    expect(admitted.status).toBe(200);
    expect(admitted.body.data).toMatchObject({ id: ticket!.id, processState: PROCESS_STATE.checkedIn });

    const again = await checkIn(ticket!.id);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ reason: 'already_checked_in', firstScannedTimestamp: expect.any(String) });

    const read = await call('GET', `${BASE}/${ticket!.id}?_include=checkInInfo`, as());
    expect(read.body.data.checkInInfo).toMatchObject({
      scannedTimestamp: again.body.firstScannedTimestamp,
      scans: [{ kind: 'simple', eventId: event.id, eventName: event.title }],
    });
    expect(await stats(event.id)).toEqual({ eventIds: [event.id], soldTickets: 1, checkedInTickets: 1 });
  });

  it('refuses any body with 400', async () => {
    const event = await seedEvent();
    const [ticket] = await seedTickets(event, event.ticketTypes[0]!.id, 1);
    const response = await call('POST', `${BASE}/${ticket!.id}/check-in`, as({ body: { force: true } }));
    expect(response.status).toBe(400);
    expect((await readTicketRecord(ticket!.id))!.processState).toBe(PROCESS_STATE.active);
  });
});

export type { Event, Ticket };
