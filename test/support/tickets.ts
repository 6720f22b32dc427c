import { expect } from 'vitest';
import { listTicketTypes } from '#shared/events/data/events';
import { withSold } from '#shared/selling/data/stock';
import { seedEvent, seedTickets } from './factories/tickets.ts';
import { call } from './api.ts';

/** Helpers shared by the ticket tests: the events, types and tickets a test makes, and the ticket routes it calls. */

/** The actor of changes a test makes directly through the use cases (fixtures). */
export const SYSTEM = { kind: 'system' } as const;
export const TICKETS = '/api/v2/tickets';

/**
 * A fresh event of the sample shape (test/support/factories/tickets.ts: two types, two teams, two questions)
 * holding one active ticket of its first type, "General admission" (`ga`); `vip` is the other type.
 */
export async function oneTicket() {
  const event = await seedEvent();
  const [ga, vip] = event.ticketTypes;
  const [ticket] = await seedTickets(event, ga!.id, 1);
  return { event, ga: ga!, vip: vip!, ticket: ticket! };
}

/** Each ticket type of an event by id, with its `sold` count (the sum of its stock shards'). */
export const soldOf = async (eventId: number) =>
  new Map((await withSold(await listTicketTypes(eventId))).map((type) => [type.id, type.sold]));

export async function readStats(token: string, ...events: number[]) {
  const response = await call('GET', `${TICKETS}/check-in-stats?events=${events.join(',')}`, { token });
  expect(response.status).toBe(200);
  return response.body.data as { eventIds: number[]; soldTickets: number; checkedInTickets: number };
}

export const checkIn = (token: string, id: number, options: { event?: number; key?: string } = {}) =>
  call('POST', `${TICKETS}/${id}/check-in${options.event ? `?event=${options.event}` : ''}`, {
    token,
    headers: options.key ? { 'idempotency-key': options.key } : {},
  });

/** Event A (Europe/London) whose "Weekend pass" type is an access package granting event B (America/New_York). */
export async function accessFixture() {
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
