import type { TicketRecord } from '../tickets/domain/ticket.ts';
import { keys } from '../data/keys.ts';

/**
 * A live ticket's list entries: small items in its own partition that put it in every
 * list (the keys are declared in keys.ts, next to `ticketListEntry`):
 * - `LIST`: its event's team and process-state lists and the list across events;
 * - `LIST#EVENT`: its event's and its type's lists;
 * - `LIST#PURCHASE`: its order's and customer's lists (each when set) and its event's and
 *   its type's by purchase time (`GET /ticket`'s purchase range), with no process state, so
 *   a state change (a check-in) leaves it alone;
 * - `LIST#ACCESS#<g>`: the granted list of each other event `g` its type (an access
 *   package) grants entry to.
 * The list entries carry the filter tuple (event, type, team, state), so a filter that is
 * not the Query is applied to these ~200-byte items, never to whole tickets; the page's
 * tickets are then one BatchGetItem. Sort key `TICKET#<id:10>` (purchase time first in the
 * purchase list): a cursor resumes after it. A deleted ticket has none (sparse). They are
 * written after the ticket's change by the table stream's consumer (list-catch-up.ts), only
 * when they change (a Put replaces the item, so moving a key is one write).
 */
export type ListEntry = Record<string, unknown> & { PK: string; SK: string };

const tuple = (record: TicketRecord) => ({
  ticketId: record.id,
  eventId: record.eventId,
  typeId: record.typeId,
  teamKey: record.teamId ?? 0,
  processState: record.processState,
});

/** The other events the ticket's type grants entry to (its own event lists it anyway). */
export const grantedEvents = (record: Pick<TicketRecord, 'eventId' | 'accessEvents'>): number[] =>
  [...new Set(record.accessEvents ?? [])].filter((eventId) => eventId !== record.eventId);

/** The entries a ticket has in this state: none when deleted. */
export function listEntryItems(record: TicketRecord): ListEntry[] {
  if (record.deleted) return [];
  const { id, eventId } = record;
  const entries: ListEntry[] = [
    {
      ...keys.ticketListEntry(id),
      entity: 'TicketListEntry',
      ...keys.listEntryIndexes(eventId, record.teamId ?? 0, record.processState, id),
      ...tuple(record),
    },
    {
      ...keys.ticketEventEntry(id),
      entity: 'TicketEventEntry',
      ...keys.eventEntryIndexes(eventId, record.typeId, id),
      ...tuple(record),
    },
    {
      ...keys.ticketPurchaseEntry(id),
      entity: 'TicketPurchaseEntry',
      ...keys.eventPurchaseIndexes(eventId, record.purchasedDate ?? record.created, id),
      ...keys.typePurchaseIndexes(record.typeId, record.purchasedDate ?? record.created, id),
      ...(record.orderId == null ? {} : keys.orderTicketIndexes(record.orderId, id)),
      ...(record.customerId == null ? {} : keys.customerTicketIndexes(record.customerId, id)),
      ticketId: id,
      eventId,
    },
  ];
  for (const granted of grantedEvents(record)) {
    entries.push({
      ...keys.ticketAccessEntry(id, granted),
      entity: 'TicketAccessEntry',
      ...keys.accessEntryIndexes(granted, id),
      ...tuple(record),
    });
  }
  return entries;
}
