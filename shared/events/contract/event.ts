/**
 * The contract of the event itself (`functions/events/`: `POST /events`, `GET /events`,
 * `GET`/`PATCH /events/{id}`): what the routes accept (the spec's event entry fields, strict:
 * unknown fields are a 400, each bound named, the counts' limits those of
 * events/domain/event.ts) and the event as they answer it. Its parts' routes: event-parts.ts.
 */
import * as z from '../../schema.ts';
import { pagingQuery, ticketPagingQuery } from '../../request-fields.ts';

/** What the routes accept, as schemas with the types the use cases take: in the domain, beside its bounds. */
export { EventPatchBody, MAX_CREATION_ITEMS, NewEventBody } from '../domain/event-bodies.ts';
/** The event as the routes answer it: its schemas live with the domain types that build it. */
export { EventResource, EventSummaryResource, eventSummaryFields } from '../domain/event-resource.ts';

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

export const EventListQuery = z.lazy(() =>
  z
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
    ),
);
export type EventListQuery = z.output<typeof EventListQuery>;
