import { describe, expect, it } from 'vitest';
import { getEvent } from '#shared/data/events';
import { eventInput, seedPublishedEvents } from '../../bin/seed/events.ts';

/** `npm run seed -- --events N` (bin/seed/events.ts): N published events, past and future, with realistic texts. */
describe('the published events seed', () => {
  it('seeds N published events spread over past and future, each with a city title, a venue and an address', async () => {
    const seeded = await seedPublishedEvents(40);
    expect(seeded.events).toBe(40);
    const events = await Promise.all(
      Array.from({ length: seeded.last - seeded.first + 1 }, (_, i) => getEvent(seeded.first + i)),
    );
    expect(events.every((event) => event.published)).toBe(true);
    const now = new Date().toISOString();
    expect(events.some((event) => event.startsAt < now)).toBe(true);
    expect(events.some((event) => event.startsAt > now)).toBe(true);
    expect(new Set(events.map((event) => event.title)).size).toBe(40);
    for (const event of events)
      expect(event).toMatchObject({ venue: expect.any(String), venueAddress: expect.any(String) });
    expect(eventInput(0, 1).title).toMatch(/^Berlin /);
  });
});
