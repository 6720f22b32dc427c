/** The contract of the events routes (`functions/events/`): what they accept and answer. */
import * as z from '../../schema.ts';
import { pagingQuery, ticketPagingQuery, wholeNumber } from '../paging.ts';

export { EventResource, EventSummaryResource, EventHistoryResource } from '../../domain/event-resource.ts';
export { TicketTypeResource } from '../../domain/event-resource.ts';
export {
  EventPatchBody,
  MAX_CREATION_ITEMS,
  NewEventBody,
  NewTicketTypeBody,
  TeamBody,
  TicketTypePatchBody,
} from '../../domain/event-input.ts';

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

/** `{id}` and `{teamId}` of the team routes. */
export const PathEventTeam = z.strictObject({
  id: wholeNumber('id', { positive: true }),
  teamId: wholeNumber('teamId', { positive: true }),
});

/** A team as the team routes answer it. */
export const TeamResource = z.strictObject({ id: z.int(), eventId: z.int(), name: z.string() });
