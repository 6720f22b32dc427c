import type { Event, Team, TicketType, WaveTime } from '../domain/event.ts';
import * as z from '../schema.ts';
import { parseItem, storedSchema } from './client.ts';

/**
 * The event's partition's entities as stored (the event record, its ticket types, teams and start waves): each one's
 * schema and `fromItem`, the one way its items become values (client.ts `parseItem`). Their keys are keys.ts's; they
 * are written by the events routes (event-creation.ts, event-admin-writes.ts, event-part-writes.ts).
 */
const AttendeeQuestionItem = z.object({
  id: z.number(),
  text: z.string(),
  required: z.boolean(),
  options: z.array(z.object({ id: z.number(), text: z.string(), sku: z.optional(z.string()) })),
});

const EventItem = storedSchema<Event>()(
  z.object({
    id: z.number(),
    title: z.string(),
    timezone: z.string(),
    startsAt: z.string(),
    // Events stored before questions existed have none, and the portal's projections leave them out (customer-events.ts).
    questions: z._default(z.array(AttendeeQuestionItem), []),
    capacity: z.number(),
    created: z.string(),
    currency: z.optional(z.string()),
    reservationMinutes: z.optional(z.number()),
    maxHeldPerCustomer: z.optional(z.number()),
    maxHeldPerNetwork: z.optional(z.number()),
    version: z.optional(z.number()),
    updated: z.optional(z.string()),
    updatedBy: z.optional(z.number()),
    venue: z.string(),
    venueAddress: z.string(),
    description: z.string(),
    shortDescription: z.string(),
    category: z.string(),
    ordering: z.number(),
    location: z.string(),
    sefUrl: z.string(),
    smallPic: z.nullable(z.string()),
    largePic: z.nullable(z.string()),
    cutOff: z.nullable(z.string()),
    onSaleDate: z.nullable(z.string()),
    publishedDate: z.nullable(z.string()),
    published: z.boolean(),
    hideDate: z.boolean(),
    hideTime: z.boolean(),
  }),
);

const TicketTypeItem = storedSchema<TicketType>()(
  z.object({
    id: z.number(),
    eventId: z.number(),
    name: z.string(),
    price: z.number(),
    description: z.string(),
    ordering: z.number(),
    total: z.number(),
    grants: z.array(z.number()),
    stockShards: z.number(),
  }),
);

const TeamItem = storedSchema<Team>()(z.object({ id: z.number(), eventId: z.number(), name: z.string() }));

const WaveTimeItem = storedSchema<WaveTime>()(
  z.object({ id: z.number(), eventId: z.number(), name: z.string(), startTime: z.string(), capacity: z.number() }),
);

/** The event record an item holds (a projection of it too, when it keeps the fields it leaves out optional). */
export const eventFromItem = (item: Record<string, unknown>): Event => parseItem(EventItem, item, 'event');
export const ticketTypeFromItem = (item: Record<string, unknown>): TicketType =>
  parseItem(TicketTypeItem, item, 'ticket type');
/** A ticket type read with a projection of its `id` and `stockShards` (stock.ts). */
export const typeShardsFromItem = (item: Record<string, unknown>): Pick<TicketType, 'id' | 'stockShards'> =>
  parseItem(z.pick(TicketTypeItem, { id: true, stockShards: true }), item, 'ticket type');
export const teamFromItem = (item: Record<string, unknown>): Team => parseItem(TeamItem, item, 'team');
export const waveTimeFromItem = (item: Record<string, unknown>): WaveTime => parseItem(WaveTimeItem, item, 'wave time');
