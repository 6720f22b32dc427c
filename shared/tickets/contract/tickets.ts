import * as z from '../../schema.ts';
import { money } from '../../domain/money.ts';
import { positiveId } from '../../domain/ids.ts';
import { attendeeFields, nullable, text } from '../domain/attendee-update.ts';
import { MAX_BULK_ITEMS } from '../../http/bulk.ts';
import {
  boundedIdList,
  commaSeparated,
  MAX_DIGITS,
  pagingQuery,
  ticketPagingQuery,
  wholeNumber,
} from '../../request-fields.ts';
import { MAX_COUNTED_PAIRS } from '../../lists/rules.ts';
import {
  MAX_STATS_EVENTS,
  PROCESS_STATES,
  SINGLE_TICKET_INCLUDES,
  TICKET_INCLUDES,
  WITHDRAWN_STATES,
  type ProcessState,
} from '../domain/ticket.ts';

/** The request and answer schemas of the `/tickets` routes (the ticket itself: ticket-resource.ts). */

export { AttendeeAnswer, TransferBody } from '../domain/attendee-update.ts';

const MAX_LIST_EVENTS = 20;

/** `_include=change_status,purchaser`: at most as long as every value listed once. */
const includeOf = <const T extends readonly string[]>(values: T) =>
  z._default(
    z.pipe(
      commaSeparated('_include', values.join(', ').length),
      z.array(z.enum(values, `must list values among ${values.join(', ')}`)),
    ),
    [],
  );
export const Include = includeOf(TICKET_INCLUDES);

/** A filter becomes a DynamoDB `IN (...)`, which takes at most 100 values. */
const MAX_FILTER_VALUES = 50;

export const TicketListQuery = z.lazy(() =>
  z
    .strictObject({
      event: z.optional(wholeNumber('event', { positive: true })),
      events: z.optional(boundedIdList('events', MAX_LIST_EVENTS)),
      accessEvents: z.optional(boundedIdList('accessEvents', MAX_LIST_EVENTS)),
      teams: z.optional(boundedIdList('teams', MAX_FILTER_VALUES)),
      ticket_types: z.optional(boundedIdList('ticket_types', MAX_FILTER_VALUES)),
      exclude_process_states: z.optional(boundedIdList('exclude_process_states', MAX_FILTER_VALUES)),
      _include: Include,
      ...ticketPagingQuery,
    })
    .check(
      z.refine(
        (query) => new Set(query.teams ?? []).size * new Set(query.ticket_types ?? []).size <= MAX_COUNTED_PAIRS,
        {
          message: `teams × ticket_types may name at most ${MAX_COUNTED_PAIRS} pairs (each pair's count is read for an exact totalCount): split the query.`,
          path: ['teams'],
        },
      ),
      // A team is of one event and teams have no index of their own: across events, name the events too.
      z.refine(
        (query) =>
          !query.teams?.length || query.event !== undefined || !!query.events?.length || !!query.accessEvents?.length,
        {
          message: "teams are an event's: name the events too (event, events or accessEvents).",
          path: ['teams'],
        },
      ),
    ),
);

export const StatsQuery = z.lazy(() => z.strictObject({ events: boundedIdList('events', MAX_STATS_EVENTS) }));

/** One ticket: the list's expansions plus `history`, paged by `history_limit`/`history_offset` (newest first). */
export const GetQuery = z.lazy(() =>
  z.strictObject({
    _include: includeOf(SINGLE_TICKET_INCLUDES),
    history_limit: pagingQuery._limit,
    history_offset: pagingQuery._offset,
  }),
);

/** The check-in's query: in the gate's domain, as its use case takes it. */
export { CheckInQuery } from '../../gate/domain/check-in-request.ts';

/** processState arrives as a string in the update body (spec), e.g. "4"; numbers are accepted too. */
const ProcessStateField = z.lazy(() =>
  z.pipe(
    z.union([
      z
        .string()
        .check(
          z.maxLength(MAX_DIGITS, { message: 'must be a process state code', abort: true }),
          z.regex(/^\d+$/, 'must be a process state code'),
        ),
      z.int(),
    ]),
    z.pipe(
      z.transform((value: string | number) => Number(value)),
      z.pipe(
        z
          .number()
          .check(
            z.refine(
              (code) => PROCESS_STATES.includes(code as ProcessState),
              `must be one of ${PROCESS_STATES.join(', ')}`,
            ),
          ),
        z.transform((code) => code as ProcessState),
      ),
    ),
  ),
);

export const TicketPatch = z.lazy(() =>
  z
    .strictObject({
      eventId: z.optional(positiveId),
      typeId: z.optional(positiveId),
      /** 0 or null: unassigned. */
      teamId: z.optional(nullable(z.int().check(z.minimum(0)))),
      barcode: z.optional(text(100).check(z.minLength(1, 'must not be empty'))),
      bibNumber: z.optional(nullable(text(20).check(z.regex(/^[\w-]+$/, 'must be letters, digits, - or _')))),
      chipNumber: z.optional(nullable(text(50))),
      externalMembershipId: z.optional(nullable(text(100))),
      processState: z.optional(ProcessStateField),
      withdrawnState: z.optional(z.enum(WITHDRAWN_STATES)),
      price: z.optional(money()),
      taxAmount: z.optional(money()),
      gratuityAmount: z.optional(money()),
      paidUponCheckout: z.optional(money()),
      ...attendeeFields,
    })
    .check(
      z.refine((patch) => Object.values(patch).some((value) => value !== undefined), 'must change at least one field'),
    ),
);

export const TicketUpdateBody = z.lazy(() => z.strictObject({ data: TicketPatch }));

/** `{ ids: [1, 2] }` or the spec's sample form `{ ids: [[1, 2]] }`; flattened. */
export const BulkDeleteBody = z.lazy(() =>
  z.strictObject({
    ids: z.pipe(
      z
        .array(z.union([positiveId, z.array(positiveId).check(z.maxLength(MAX_BULK_ITEMS))]))
        .check(z.maxLength(MAX_BULK_ITEMS, `must hold at most ${MAX_BULK_ITEMS} ids`)),
      z.pipe(
        z.transform((ids: (number | number[])[]) => ids.flat()),
        z
          .array(positiveId)
          .check(
            z.minLength(1, 'must hold at least one id'),
            z.maxLength(MAX_BULK_ITEMS, `must hold at most ${MAX_BULK_ITEMS} ids`),
          ),
      ),
    ),
  }),
);

/** `GET /tickets/check-in-stats`: its schema lives with the domain type it defines. */
export { CheckInStatsResource } from '../../gate/domain/check-in.ts';

// The ticket as the other routes answer it too, and the waivers' body, which the use case parses.
export { TicketResource } from '../domain/ticket-resource.ts';
export { SignWaiversBody } from '../../events/domain/waivers.ts';

/** One entry of `GET /tickets/{id}/waivers`: its schema lives with the domain type it defines. */
export { TicketWaiverResource } from '../../events/domain/waivers.ts';
