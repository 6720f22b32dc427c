/** The contract of the events routes (`functions/events/`): what they accept and answer. */
import * as z from '../../schema.ts';
import { MAX_GRANTS_PER_TYPE, MAX_TICKET_TYPES, MAX_WAVE_TIMES } from '../../data/event-limits.ts';
import { eventPatchBody, newEventBody, ticketTypeBodies } from '../../domain/event-input.ts';
import { pagingQuery, ticketPagingQuery, wholeNumber } from '../paging.ts';

export { EventResource, EventSummaryResource, EventHistoryResource } from '../../domain/event-resource.ts';
export { TicketTypeResource } from '../../domain/event-resource.ts';

/** Questions, options and teams a creation may carry (its one transaction holds at most 100 writes). */
const EACH = 50;
/**
 * The items one creation writes besides its types, grants, teams and waves: the event, its
 * counts, 10 statistics shards and 5 marks (event-creation.ts). A transaction holds 100.
 */
const FIXED_WRITES = 17;
export const MAX_CREATION_ITEMS = 100 - FIXED_WRITES;

const body = newEventBody({
  ticketTypes: MAX_TICKET_TYPES,
  waveTimes: MAX_WAVE_TIMES,
  grants: MAX_GRANTS_PER_TYPE,
  each: EACH,
});
type Body = z.output<typeof body>;

const items = (event: Body) =>
  (event.ticketTypes ?? []).reduce((sum, type) => sum + 1 + new Set(type.grants ?? []).size, 0) +
  (event.teams?.length ?? 0) +
  (event.waveTimes?.length ?? 0);

export const NewEventBody = body.check(
  z.refine((event) => !(event.cutOff && event.onSaleDate && event.cutOff <= event.onSaleDate), {
    message: 'must be after onSaleDate',
    path: ['cutOff'],
  }),
  z.refine((event) => items(event) <= MAX_CREATION_ITEMS, {
    message: `one creation holds at most ${MAX_CREATION_ITEMS} ticket types, grants, teams and wave times together: add more types afterwards`,
    path: ['ticketTypes'],
  }),
);
export type NewEventBody = z.output<typeof NewEventBody>;

export const EventPatchBody = eventPatchBody().check(
  z.refine((patch) => Object.keys(patch).some((key) => key !== 'version'), 'name at least one field to change'),
);
export type EventPatchBody = z.output<typeof EventPatchBody>;

const types = ticketTypeBodies(MAX_GRANTS_PER_TYPE);
export const NewTicketTypeBody = types.create;
export type NewTicketTypeBody = z.output<typeof NewTicketTypeBody>;
export const TicketTypePatchBody = types.patch.check(
  z.refine((patch) => Object.keys(patch).some((key) => key !== 'version'), 'name at least one field to change'),
);
export type TicketTypePatchBody = z.output<typeof TicketTypePatchBody>;

const flag = (name: string) =>
  z.optional(
    z.pipe(
      z.enum(['true', 'false'], `${name} must be true or false`),
      z.transform((value) => value === 'true'),
    ),
  );
const startBound = (name: string) =>
  z.optional(
    z.pipe(
      z.iso
        .datetime({ offset: true, message: `${name} must be an ISO-8601 date-time with an offset` })
        .check(z.maxLength(40)),
      z.transform((value: string) => new Date(value).toISOString()),
    ),
  );

export const EventListQuery = z
  .strictObject({
    published: flag('published'),
    fromStart: startBound('fromStart'),
    toStart: startBound('toStart'),
    title: z.optional(z.string().check(z.minLength(1), z.maxLength(200, 'title must be at most 200 characters'))),
    ...pagingQuery,
    _cursor: ticketPagingQuery._cursor,
  })
  .check(
    z.refine((query) => !(query.fromStart && query.toStart && query.fromStart > query.toStart), {
      message: 'fromStart must not be after toStart',
      path: ['fromStart'],
    }),
  );
export type EventListQuery = z.output<typeof EventListQuery>;

/** `{id}` and `{typeId}` of the ticket-type routes. */
export const PathEventType = z.strictObject({
  id: wholeNumber('id', { positive: true }),
  typeId: wholeNumber('typeId', { positive: true }),
});
