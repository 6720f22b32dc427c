import { createWaiver, publishWaiverVersion } from '#shared/events/data/waivers';
import type { CreatedEvent } from '#shared/events/domain/event';
import type { Waiver } from '#shared/events/domain/waivers';

/**
 * Demo waivers for each event: an event-wide release (republished once, so it has an
 * older version), a waiver for the event's first ticket type, and a day-of waiver
 * signed at the gate. `GET /tickets/{id}/waivers` lists all three for a ticket of the
 * first type and two for the others.
 */
export async function seedWaivers(events: readonly CreatedEvent[]): Promise<Waiver[]> {
  const created: Waiver[] = [];
  for (const event of events) {
    const release = await createWaiver({
      eventId: event.id,
      title: 'Release of liability',
      text: `I take part in ${event.title} at my own risk and release the organiser from claims for injury or loss.`,
    });
    created.push(
      await publishWaiverVersion(
        release,
        `I take part in ${event.title} at my own risk and release the organiser, its staff and volunteers from claims for injury or loss, except where caused by their negligence.`,
      ),
    );
    const firstType = event.ticketTypes[0];
    if (firstType) {
      created.push(
        await createWaiver({
          eventId: event.id,
          ticketTypeId: firstType.id,
          title: `${firstType.name}: rules of the course`,
          text: `As a holder of a ${firstType.name} ticket I have read the course rules and will follow the marshals' instructions.`,
        }),
      );
    }
    created.push(
      await createWaiver({
        eventId: event.id,
        title: 'Fit to take part today',
        kind: 'day-of',
        text: 'I confirm on the day of the event that I am in good health and fit to take part.',
      }),
    );
  }
  return created;
}
