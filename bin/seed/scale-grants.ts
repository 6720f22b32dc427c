import { createEvent } from '#shared/events/data/event-creation';
import { eventListing } from '#shared/lists/event-listing';
import { seedScale } from './scale.ts';

/**
 * Events whose access packages grant entry to `into`, each with its tickets seeded as the
 * scale seed seeds any event (scale.ts: one in 20 of them holds the access package). The
 * scale bench's widest changedSince (bin/bench/scale-rows.ts) reads every granting event's
 * update shards, so this is how many events a gate list's delta has to cover.
 */
export async function seedGrantingEvents(into: number, count: number, tickets: number): Promise<number[]> {
  const ids: number[] = [];
  // One after the other: each seed already writes with parallel batches.
  for (let k = 0; k < count; k++) {
    const event = await createEvent(
      {
        title: `Seeded granting event ${k + 1} ${Date.now().toString(36)}`,
        timezone: 'Europe/London',
        startsAt: '2027-05-02T08:00:00Z',
        ticketTypes: [
          { name: 'Day', price: 30, total: tickets },
          { name: 'Day + after-party', price: 45, total: tickets, grants: [into] },
        ],
      },
      eventListing,
    );
    await seedScale({ tickets, eventId: event.id });
    ids.push(event.id);
  }
  return ids;
}
