import * as z from '../../schema.ts';
import { TeamResource, type CreatedEvent, type Event, type TypeWithSold } from './event.ts';
import { DEFAULT_RESERVATION_MINUTES, MAX_TICKETS_PER_RESERVATION } from '../../selling/domain/reservation.ts';
import {
  DEFAULT_MAX_HELD_PER_CUSTOMER,
  DEFAULT_MAX_HELD_PER_NETWORK,
  holdCaps,
  MAX_HELD_PER_NETWORK,
} from '../../selling/domain/hold-limits.ts';
import { WAIVER_KINDS } from './waivers.ts';
import { BookingFee, SellerFields, TaxRule } from '../../selling/domain/pricing-schemas.ts';

/**
 * An event as the administrators' routes answer it (`/events`): the listing fields in ISO
 * form (not the portal's strings), and, for one event, its ticket types with `sold` and
 * `total`, waves, questions and teams; and its history's entries. Each is a schema the handlers
 * declare (the OpenAPI document's and the tests'), its type inferred from it.
 */

export const TicketTypeResource = z.lazy(() =>
  z.strictObject({
    id: z.int(),
    eventId: z.int(),
    name: z.string(),
    description: z.string(),
    ordering: z.int(),
    price: z
      .number()
      .check(z.describe("In the event's `currency`, with no more decimals than it is charged in (EUR 2, JPY 0).")),
    sold: z.int().check(z.describe('Tickets of this type holding a place.')),
    total: z.int().check(z.describe('Its capacity: never below `sold`.')),
    grants: z.array(z.int()).check(z.describe('Other events this type also admits to (an access package).')),
    tax: z
      .nullable(TaxRule)
      .check(
        z.describe(
          'The tax on its tickets: `rate` in percent (at most 3 decimals), `inclusive` when `price` includes it (EU consumer prices), else added to it (US sales tax); null: untaxed.',
        ),
      ),
  }),
);
export type TicketTypeView = z.output<typeof TicketTypeResource>;

/** An attendee question as the question routes and the event answer it. */
export const QuestionResource = z.lazy(() =>
  z.strictObject({
    id: z.int(),
    text: z.string(),
    required: z.boolean(),
    options: z.array(z.strictObject({ id: z.int(), text: z.string(), sku: z.optional(z.string()) })),
  }),
);

/** A team as the team routes answer it. */
export { TeamResource };

/** The caps as the event answers them, its defaults where the organiser set none. */
const holdCapAnswers = () => ({
  maxHeldPerCustomer: z
    .int()
    .check(
      z.describe(
        `Tickets one customer may hold of it at once (1 to ${MAX_TICKETS_PER_RESERVATION}; default ${DEFAULT_MAX_HELD_PER_CUSTOMER}).`,
      ),
    ),
  maxHeldPerNetwork: z
    .int()
    .check(
      z.describe(
        `Tickets the customers of one network (an IPv4 address, an IPv6 /64) may hold of it at once (1 to ${MAX_HELD_PER_NETWORK}; default ${DEFAULT_MAX_HELD_PER_NETWORK}).`,
      ),
    ),
});

const iso = z.iso.datetime();
const nullableIso = z.lazy(() => z.nullable(iso));

/** The event's own fields, as every answer shows them (`GET /events` lists these alone). */
export const eventSummaryFields = () => ({
  id: z.int(),
  title: z.string(),
  start: iso.check(z.describe('ISO-8601 UTC.')),
  timezone: z.string(),
  currency: z.nullable(z.string()),
  venue: z.string(),
  venueAddress: z.string(),
  description: z.string(),
  shortDescription: z.string(),
  category: z.string(),
  location: z.string(),
  sefUrl: z.string(),
  smallPic: z.nullable(z.string()),
  largePic: z.nullable(z.string()),
  ordering: z.int(),
  onSaleDate: nullableIso,
  cutOff: nullableIso,
  publishedDate: nullableIso,
  published: z.boolean(),
  hideDate: z.boolean(),
  hideTime: z.boolean(),
  capacity: z.int().check(z.describe("The sum of its ticket types' totals.")),
  reservationMinutes: z.int().check(z.describe('How long a reservation holds its tickets before it lapses (1 to 60).')),
  ...holdCapAnswers(),
  bookingFee: z
    .nullable(BookingFee)
    .check(
      z.describe(
        "What the buyer pays beside the tickets' prices: `perTicket` (in the currency) and/or `percent` of the tickets' discounted price, on every ticket that is not free; null: none.",
      ),
    ),
  feeTax: z
    .nullable(TaxRule)
    .check(z.describe('The tax on the booking fee (an event setting, as each type carries its own); null: untaxed.')),
  shippingTax: z.nullable(TaxRule).check(z.describe("The tax on the shipping method's charge; null: untaxed.")),
  seller: z
    .nullable(SellerFields)
    .check(z.describe("Who sells, as the event's invoices name it (its own numbers); null: the stage's seller.")),
  version: z.int().check(z.describe('Moved by every change; a `PATCH` naming an older one is 409 `stale_version`.')),
  created: iso,
  updated: nullableIso,
  updatedBy: z.nullable(z.int()).check(z.describe('The administrator who changed it last.')),
});

export const EventSummaryResource = z.lazy(() => z.strictObject(eventSummaryFields()));
export type EventSummary = z.output<typeof EventSummaryResource>;

export const EventResource = z.lazy(() =>
  z.strictObject({
    ...eventSummaryFields(),
    ticketTypes: z.array(TicketTypeResource),
    waveTimes: z.array(
      z.strictObject({ id: z.int(), eventId: z.int(), name: z.string(), startTime: iso, capacity: z.int() }),
    ),
    questions: z.array(QuestionResource),
    teams: z.array(TeamResource),
    waivers: z.array(
      z.strictObject({
        id: z.int(),
        ticketTypeId: z.nullable(z.int()).check(z.describe("Null: every ticket signs it; else that type's tickets.")),
        title: z.string(),
        kind: z.enum(WAIVER_KINDS),
        versionHash: z.string(),
      }),
    ),
  }),
);
export type EventView = z.output<typeof EventResource>;

export const EVENT_HISTORY_ACTIONS = [
  'created',
  'updated',
  'published',
  'unpublished',
  'deleted',
  'type_created',
  'type_updated',
  'type_deleted',
  'team_created',
  'team_renamed',
  'team_deleted',
  'wave_created',
  'wave_updated',
  'wave_deleted',
  'question_created',
  'question_updated',
  'question_deleted',
  'waiver_created',
  'waiver_updated',
  'waiver_deleted',
] as const;

/** An entry of `GET /events/{id}/history`. */
export const EventHistoryResource = z.strictObject({
  version: z.int(),
  at: z.iso.datetime(),
  by: z.int().check(z.describe('The administrator who made the change.')),
  action: z.enum(EVENT_HISTORY_ACTIONS),
  changes: z.record(z.string(), z.strictObject({ from: z.unknown(), to: z.unknown() })),
});
export type EventHistoryEntry = z.output<typeof EventHistoryResource>;

/** The stored event as a summary. */
export function toEventSummary(event: Event): EventSummary {
  return {
    id: event.id,
    title: event.title,
    start: event.startsAt,
    timezone: event.timezone,
    currency: event.currency ?? null,
    venue: event.venue ?? '',
    venueAddress: event.venueAddress ?? '',
    description: event.description ?? '',
    shortDescription: event.shortDescription ?? '',
    category: event.category ?? '',
    location: event.location ?? '',
    sefUrl: event.sefUrl ?? '',
    smallPic: event.smallPic ?? null,
    largePic: event.largePic ?? null,
    ordering: event.ordering ?? 0,
    onSaleDate: event.onSaleDate ?? null,
    cutOff: event.cutOff ?? null,
    publishedDate: event.publishedDate ?? null,
    published: event.published ?? false,
    hideDate: event.hideDate ?? false,
    hideTime: event.hideTime ?? false,
    capacity: event.capacity ?? 0,
    reservationMinutes: event.reservationMinutes ?? DEFAULT_RESERVATION_MINUTES,
    maxHeldPerCustomer: holdCaps(event).perCustomer,
    maxHeldPerNetwork: holdCaps(event).perNetwork,
    bookingFee: event.bookingFee ?? null,
    feeTax: event.feeTax ?? null,
    shippingTax: event.shippingTax ?? null,
    seller: event.seller ?? null,
    version: event.version ?? 1,
    created: event.created,
    updated: event.updated ?? null,
    updatedBy: event.updatedBy ?? null,
  };
}

const typeView = (type: TypeWithSold): TicketTypeView => ({
  id: type.id,
  eventId: type.eventId,
  name: type.name,
  description: type.description ?? '',
  ordering: type.ordering ?? 0,
  price: type.price,
  sold: type.sold,
  total: type.total,
  grants: type.grants ?? [],
  tax: type.tax ?? null,
});
export const toTicketTypeView = typeView;

/** The whole event: its types in the portal's order (`ordering`, then id). */
export function toEventView(event: CreatedEvent & { ticketTypes: TypeWithSold[] }): EventView {
  return {
    ...toEventSummary(event),
    ticketTypes: [...event.ticketTypes].sort((a, b) => a.ordering - b.ordering || a.id - b.id).map(typeView),
    waveTimes: event.waveTimes.map(({ id, eventId, name, startTime, capacity }) => ({
      id,
      eventId,
      name,
      startTime,
      capacity,
    })),
    questions: (event.questions ?? []).map((question) => ({
      id: question.id,
      text: question.text,
      required: question.required,
      options: question.options.map((option) => ({
        id: option.id,
        text: option.text,
        ...(option.sku === undefined ? {} : { sku: option.sku }),
      })),
    })),
    teams: event.teams.map(({ id, eventId, name }) => ({ id, eventId, name })),
    waivers: (event.waivers ?? []).map(({ id, ticketTypeId, title, kind, versionHash }) => ({
      id,
      ticketTypeId,
      title,
      kind,
      versionHash,
    })),
  };
}
