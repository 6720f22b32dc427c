import { encodeCursor } from '#shared/lists/rules';
import { ownPartCursor } from '#shared/gate/use-cases/gate-list';
import type { seedScale } from '../seed/scale.ts';

/**
 * The scale bench's ticket rows (scale.ts): each a name and the request it sends, per seeded
 * event. Loaded by scale.ts once the environment is set (shared/ reads it when it loads).
 */

export interface ScaleRequest {
  method: string;
  url: string;
  body?: unknown;
  token: string;
}

/** One seeded event of the scale bench, and what its rows need of it. */
export interface ScaleEvent {
  size: number;
  seeded: Awaited<ReturnType<typeof seedScale>>;
  open: number[];
  customer: { id: number; orders: number };
  customerToken: string;
  /** An administrator scoped to this event only: the lists across events read just it. */
  scopedToken: string;
  /** One attendee's email address up to its `@`: a search by an address's start that one ticket matches at any size. */
  emailPrefix: string;
  /** The instants around 50 changes made to this event's tickets alone (the sync row's window). */
  changes: { from: string; to: string };
}

/** The gate list's delta of an event 20 events grant: its granting events are seeded just before it. */
export const GRANTED_GATE_ROW = 'gate list changedSince, 20 granting events';
/** The events besides the seeded one that grant its access event for that row, and the tickets of each. */
export const GRANTING_EVENTS = { count: 19, tickets: 200 };

export function ticketRows(e: ScaleEvent, adminToken: string, since: string): [string, (i: number) => ScaleRequest][] {
  const { eventId, accessEventId, teamIds, typeIds, ticketIds } = e.seeded;
  const admin = (url: string, method = 'GET', body?: unknown) => ({
    method,
    url,
    token: adminToken,
    ...(body ? { body } : {}),
  });
  const ticket = (i: number) => ticketIds.first + ((i * 37) % (ticketIds.last - ticketIds.first + 1));
  return [
    ['first page', () => admin(`/tickets?event=${eventId}`)],
    ['teams', () => admin(`/tickets?event=${eventId}&teams=${teamIds[0]}`)],
    ['ticket_types', () => admin(`/tickets?event=${eventId}&ticket_types=${typeIds[0]}`)],
    ['accessEvents', () => admin(`/tickets?accessEvents=${accessEventId}`)],
    ['exclude_process_states', () => admin(`/tickets?event=${eventId}&exclude_process_states=4`)],
    ['page 50 (_limit=20)', () => admin(`/tickets?event=${eventId}&_limit=20&_offset=980`)],
    // Any page by _offset: the kept list positions (shared/data/list-positions.ts).
    ['_offset 90 % in', () => admin(`/tickets?event=${eventId}&_limit=20&_offset=${Math.floor(e.size * 0.9)}`)],
    [
      '_offset 90 % in, a team without cancelled',
      () =>
        admin(
          `/tickets?event=${eventId}&teams=${teamIds[0]}&exclude_process_states=4&_limit=20&_offset=${Math.floor((e.size * 0.9) / teamIds.length / 2)}`,
        ),
    ],
    // The `next` a page answers 90 % into the event (the same encoding): how a client reaches a deep page.
    [
      'deep page by _cursor (90 % in)',
      () =>
        admin(
          `/tickets?event=${eventId}&_cursor=${encodeCursor(ticketIds.first + Math.floor((ticketIds.last - ticketIds.first) * 0.9))}`,
        ),
    ],
    ['GET /tickets/{id}', (i) => admin(`/tickets/${ticket(i)}`)],
    [
      'PATCH /tickets/{id}',
      (i) => admin(`/tickets/${ticket(i + 500)}`, 'PATCH', { data: { chipNumber: `CHIP-${i}` } }),
    ],
    ['check-in', (i) => admin(`/tickets/${e.open[i]}/check-in`, 'POST')],
    ['check-in stats', () => admin(`/tickets/check-in-stats?events=${eventId}`)],
    // The gate's admission list (README "The gate offline"): an answer of 1,000 from the start and 90 % in (a full
    // walk is size / 1,000 such answers), and the delta since seeding ended (the PATCH and check-in rows' changes).
    ['gate list, first 1,000', () => admin(`/gate-lists/${eventId}`)],
    [
      'gate list, 1,000 at 90 % in',
      () =>
        admin(
          `/gate-lists/${eventId}?_cursor=${ownPartCursor(eventId, ticketIds.first + Math.floor((ticketIds.last - ticketIds.first) * 0.9), since)}`,
        ),
    ],
    ['gate list changedSince', () => admin(`/gate-lists/${eventId}?changedSince=${encodeURIComponent(since)}`)],
    // The widest delta: the access event, which this event's access package and 19 more events'
    // grant (scale.ts seeds them before the row), since before the sale: every ticket of the 20 events has changed
    // since, so each answer reads its whole budget (CHANGES_BUDGET, 4,000 update-index items), at any size.
    [
      GRANTED_GATE_ROW,
      () => admin(`/gate-lists/${accessEventId}?changedSince=${encodeURIComponent('2000-01-01T00:00:00Z')}`),
    ],
    [
      '/my-account/orders',
      () => ({ method: 'GET', url: '/my-account/orders?includeTickets=true', token: e.customerToken }),
    ],
    ['/my-account/event', () => ({ method: 'GET', url: '/my-account/event', token: e.customerToken })],
    ['/ticket?eventId', () => admin(`/ticket?eventId=${eventId}`)],
    ['/ticket?eventId&typeId', () => admin(`/ticket?eventId=${eventId}&typeId=${typeIds[0]}`)],
    ['/ticket?customerId', () => admin(`/ticket?customerId=${e.customer.id}`)],
    [
      '/ticket?eventId _offset 90 % in',
      () => admin(`/ticket?eventId=${eventId}&_limit=20&_offset=${Math.floor(e.size * 0.9)}`),
    ],
    // A purchase range from before the sale: the event's purchase counts (shared/data/purchase-counts.ts).
    ['/ticket?eventId&purchasedFrom', () => admin(`/ticket?eventId=${eventId}&purchasedFrom=2000-01-01`)],
    [
      '/ticket?eventId&purchasedFrom _offset 90 % in',
      () => admin(`/ticket?eventId=${eventId}&purchasedFrom=2000-01-01&_limit=20&_offset=${Math.floor(e.size * 0.9)}`),
    ],
    // A type's purchase range (its own purchase list and counts): 90 % into Marathon, about a third of the event.
    [
      '/ticket?typeId&purchasedFrom _offset 90 % in',
      () =>
        admin(`/ticket?typeId=${typeIds[0]}&purchasedFrom=2000-01-01&_limit=20&_offset=${Math.floor(e.size * 0.28)}`),
    ],
    // The sync: what changed since seeding ended (the PATCH and check-in rows above), one page.
    ['/ticket?updatedFrom (the sync)', () => admin(`/ticket?updatedFrom=${encodeURIComponent(since)}&_limit=100`)],
    [
      '/ticket?updatedFrom&updatedTo, 50 changes',
      () =>
        admin(
          `/ticket?updatedFrom=${encodeURIComponent(e.changes.from)}&updatedTo=${encodeURIComponent(e.changes.to)}&_limit=100`,
        ),
    ],
    // The same 50 as one event's sync: its own update shards.
    [
      '/ticket?eventId&updatedFrom&updatedTo, 50 changes',
      () =>
        admin(
          `/ticket?eventId=${eventId}&updatedFrom=${encodeURIComponent(e.changes.from)}&updatedTo=${encodeURIComponent(e.changes.to)}&_limit=100`,
        ),
    ],
    // The same 50 as the sync of an administrator scoped to this event, without eventId: its events' own shards.
    [
      '/ticket?updatedFrom&updatedTo (event-scoped caller), 50 changes',
      () => ({
        method: 'GET',
        url: `/ticket?updatedFrom=${encodeURIComponent(e.changes.from)}&updatedTo=${encodeURIComponent(e.changes.to)}&_limit=100`,
        token: e.scopedToken,
      }),
    ],
    // The search index (shared/data/ticket-search-entries.ts): a last name one attendee in 12 holds, an address's start.
    ['/ticket search by last name', () => admin(`/ticket?eventId=${eventId}&search=lindqvist`)],
    [
      '/ticket search by email prefix',
      () => admin(`/ticket?eventId=${eventId}&search=${encodeURIComponent(e.emailPrefix)}`),
    ],
    // Without an event filter: every event the caller may see, newest first (an administrator scoped to this event).
    [
      'search alone (event-scoped caller)',
      () => ({ method: 'GET', url: '/ticket?search=lindqvist', token: e.scopedToken }),
    ],
    ['no event filter (event-scoped caller)', () => ({ method: 'GET', url: '/tickets', token: e.scopedToken })],
    [
      'no event filter, _offset 90 % in',
      () => ({ method: 'GET', url: `/tickets?_limit=20&_offset=${Math.floor(e.size * 0.9)}`, token: e.scopedToken }),
    ],
  ];
}
