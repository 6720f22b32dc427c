import { describe, expect, it } from 'vitest';
import { getEvent, listTicketTypes } from '#shared/events/data/events';
import { typeWithSold } from '#shared/selling/data/stock';
import { eventInput, seedPublishedEvents } from '../../bin/seed/events.ts';

/**
 * `npm run seed -- --events N` (bin/seed/events.ts): N published events, past and future, with realistic texts, made
 * as an organiser makes them: `POST /events`'s use case, then `PATCH {published: true}`'s (bin/seed/organised-events.ts).
 */
describe('the published events seed', () => {
  it('seeds N published events spread over past and future, each with a city title, a venue and an address', async () => {
    const seeded = await seedPublishedEvents(40);
    expect(seeded.events).toBe(40);
    const events = await Promise.all(seeded.ids.map((id) => getEvent(id)));
    expect(events.every((event) => event.published)).toBe(true);
    const now = new Date().toISOString();
    expect(events.some((event) => event.startsAt < now)).toBe(true);
    expect(events.some((event) => event.startsAt > now)).toBe(true);
    expect(new Set(events.map((event) => event.title)).size).toBe(40);
    for (const event of events)
      expect(event).toMatchObject({ venue: expect.any(String), venueAddress: expect.any(String) });
    expect(eventInput(0, 1).title).toMatch(/^Berlin /);
  }, 60_000);

  it("writes what the routes write: each event created then published (version 2, by the organiser), its type's stock", async () => {
    const seeded = await seedPublishedEvents(3);
    for (const id of seeded.ids) {
      expect(await getEvent(id)).toMatchObject({ version: 2, updatedBy: 1, currency: 'EUR' });
      const [type] = await listTicketTypes(id);
      expect(await typeWithSold(type!)).toMatchObject({ total: 2000, sold: 0, stockShards: 20 });
    }
  });
});
