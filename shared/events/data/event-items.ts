import type { Event, Team, TicketType, WaveTime } from '../domain/event.ts';
import type { BookingFee, TaxRule } from '../../selling/domain/pricing-schemas.ts';
import * as z from '../../schema.ts';
import { parseItem, storedSchema } from '../../data/stored-items.ts';
import { keys } from '../../data/keys.ts';

/**
 * The event's partition's entities as stored (the event record, its ticket types, teams and start waves): each one's
 * item with its keys and index placements (`…Item`), its schema and its `fromItem`, the one way its items become
 * values (client.ts `parseItem`). The events routes write them (event-creation.ts, event-admin-writes.ts,
 * use-cases/events/).
 */
const AttendeeQuestionItem = z.lazy(() =>
  z.object({
    id: z.number(),
    text: z.string(),
    required: z.boolean(),
    options: z.array(z.object({ id: z.number(), text: z.string(), sku: z.optional(z.string()) })),
  }),
);

// A type's and an event's tax and fee settings, as stored (checked against pricing-schemas.ts when written): written
// out, so reading an event does not build the pricing's schemas.
const TaxRuleItem = storedSchema<TaxRule>()(
  z.lazy(() => z.object({ name: z.string(), rate: z.number(), inclusive: z.boolean() })),
);
const BookingFeeItem = storedSchema<BookingFee>()(
  z.lazy(() => z.object({ perTicket: z.optional(z.number()), percent: z.optional(z.number()) })),
);

const EventItem = storedSchema<Event>()(
  z.lazy(() =>
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
      bookingFee: z.optional(z.nullable(BookingFeeItem)),
      feeTax: z.optional(z.nullable(TaxRuleItem)),
      shippingTax: z.optional(z.nullable(TaxRuleItem)),
      seller: z.optional(z.nullable(z.object({ name: z.string(), address: z.string(), taxId: z.string() }))),
    }),
  ),
);

const TicketTypeItem = storedSchema<TicketType>()(
  z.lazy(() =>
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
      tax: z.optional(z.nullable(TaxRuleItem)),
    }),
  ),
);

/** A ticket type as stock.ts reads it, projected to its `id` and `stockShards`. */
const TypeShardsItem = z.lazy(() => z.object({ id: z.number(), stockShards: z.number() }));

const TeamItem = storedSchema<Team>()(
  z.lazy(() => z.object({ id: z.number(), eventId: z.number(), name: z.string() })),
);

const WaveTimeItem = storedSchema<WaveTime>()(
  z.lazy(() =>
    z.object({ id: z.number(), eventId: z.number(), name: z.string(), startTime: z.string(), capacity: z.number() }),
  ),
);

/** The event record an item holds (a projection of it too, when it keeps the fields it leaves out optional). */
export const eventFromItem = (item: Record<string, unknown>): Event => parseItem(EventItem, item, 'event');
export const ticketTypeFromItem = (item: Record<string, unknown>): TicketType =>
  parseItem(TicketTypeItem, item, 'ticket type');
/** A ticket type read with a projection of its `id` and `stockShards` (stock.ts). */
export const typeShardsFromItem = (item: Record<string, unknown>): Pick<TicketType, 'id' | 'stockShards'> =>
  parseItem(TypeShardsItem, item, 'ticket type');
export const teamFromItem = (item: Record<string, unknown>): Team => parseItem(TeamItem, item, 'team');
export const waveTimeFromItem = (item: Record<string, unknown>): WaveTime => parseItem(WaveTimeItem, item, 'wave time');

/** The event item as stored, with its list placements. */
export const eventItem = (event: Event): Record<string, unknown> => ({
  ...keys.event(event.id),
  ...(event.published ? keys.publishedEventIndexes(event.startsAt, event.id) : {}),
  ...keys.adminEventIndexes(event.startsAt, event.id, event.published),
  entity: 'Event',
  ...event,
});
export const ticketTypeItem = (type: TicketType) => ({
  ...keys.ticketType(type.eventId, type.id),
  ...keys.ticketTypeIndexes(type.id),
  entity: 'TicketType',
  ...type,
});
export const teamItem = (team: Team) => ({ ...keys.team(team.eventId, team.id), entity: 'Team', ...team });
export const waveTimeItem = (wave: WaveTime) => ({
  ...keys.waveTime(wave.eventId, wave.id),
  entity: 'WaveTime',
  ...wave,
});
