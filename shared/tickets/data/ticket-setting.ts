import type { Event, TicketType, WaveTime } from '../../events/domain/event.ts';
import { batchGet } from '../../data/client.ts';
import { eventFromItem, ticketTypeFromItem, waveTimeFromItem } from '../../events/data/event-items.ts';
import { keys } from '../../data/keys.ts';

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
    event: event ? eventFromItem(event) : undefined,
    type: type ? ticketTypeFromItem(type) : undefined,
    wave: wave ? waveTimeFromItem(wave) : undefined,
  };
}

/** The ticket types and waves of an event by id (an order's lines and tickets): one BatchGetItem. */
export async function readTypesAndWaves(
  eventId: number,
  typeIds: readonly number[],
  waveIds: readonly number[],
): Promise<{ types: Map<number, TicketType>; waves: Map<number, WaveTime> }> {
  const items = await batchGet([
    ...[...new Set(typeIds)].map((id) => keys.ticketType(eventId, id)),
    ...[...new Set(waveIds)].map((id) => keys.waveTime(eventId, id)),
  ]);
  const types = new Map<number, TicketType>();
  const waves = new Map<number, WaveTime>();
  for (const item of items) {
    if (!item) continue;
    if (String(item.SK).startsWith(keys.waveTimePrefix)) {
      const wave = waveTimeFromItem(item);
      waves.set(wave.id, wave);
    } else {
      const type = ticketTypeFromItem(item);
      types.set(type.id, type);
    }
  }
  return { types, waves };
}
