import type { Event, TicketType, WaveTime } from '../domain/event.ts';
import { batchGet, storedAs } from './client.ts';
import { keys } from './keys.ts';

/** What a printed ticket or an order mail shows of a ticket's event: the event, the type and the wave. */
export interface TicketSetting {
  event: Event | undefined;
  type: TicketType | undefined;
  wave: WaveTime | undefined;
}

/** The event, type and wave of a ticket, all in the event's partition: one BatchGetItem. */
export async function readTicketSetting(ticket: {
  eventId: number;
  typeId: number;
  waveTimeId: number | null;
}): Promise<TicketSetting> {
  const [event, type, wave] = await batchGet([
    keys.event(ticket.eventId),
    keys.ticketType(ticket.eventId, ticket.typeId),
    ...(ticket.waveTimeId === null ? [] : [keys.waveTime(ticket.eventId, ticket.waveTimeId)]),
  ]);
  return {
    event: event ? storedAs<Event>(event) : undefined,
    type: type ? storedAs<TicketType>(type) : undefined,
    wave: wave ? storedAs<WaveTime>(wave) : undefined,
  };
}
