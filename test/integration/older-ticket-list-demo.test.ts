import { describe, expect, it } from 'vitest';
import { seedDemoEvents } from '../../bin/seed/tickets.ts';
import { call } from '../support/api.ts';
import { listsCaughtUp } from '../support/lists-caught-up.ts';
import { adminToken } from '../support/tokens.ts';

describe('the demo tickets for GET /ticket', () => {
  it('carry bibs on ten marathon tickets and three edits at different times, which the sync lists in update order', async () => {
    const before = new Date().toISOString();
    const demo = await seedDemoEvents(717_201);
    const [marathon] = demo.events;
    const token = await adminToken(['tickets:read'], 717_202);
    // What the table stream's consumer writes after the edits (the bibs' search entries): none reads this table's.
    await listsCaughtUp(demo.openTickets);
    const listed = await call('GET', `/api/v2/ticket?eventId=${marathon!.id}&search=10`, { token });
    expect(listed.status).toBe(200);
    expect(
      listed.body.data.filter((ticket: { bibNumber: string | null }) => ticket.bibNumber?.startsWith('10')).length,
    ).toBe(10);
    const edited = demo.openTickets.slice(10, 13);
    const sync = await call('GET', `/api/v2/ticket?eventId=${marathon!.id}&updatedFrom=${before}&_limit=100`, {
      token,
    });
    expect(sync.status).toBe(200);
    const last = sync.body.data.slice(-3);
    expect(last.map((ticket: { id: number }) => ticket.id)).toEqual(edited);
    expect(last.map((ticket: { chipNumber: string }) => ticket.chipNumber)).toEqual([
      'CHIP-2001',
      'CHIP-2002',
      'CHIP-2003',
    ]);
    const times = last.map((ticket: { updated: string }) => Date.parse(ticket.updated));
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(10_000);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(10_000);
  });
});
