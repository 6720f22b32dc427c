import type { TicketRecord } from '../domain/ticket.ts';
import { tableName } from './client.ts';
import { keys } from './keys.ts';

/**
 * A live ticket's list entries: small items in its own partition that put it under the
 * keys of the list filters GSI1/GSI2 of the ticket item do not serve (those serve the
 * event and the ticket type):
 * - `LIST`: GSI1 `TEAM_TICKETS#<eventId>#<teamKey>` (0 = unassigned), GSI2
 *   `STATE_TICKETS#<eventId>#<processState>` and GSI3 `ALL_TICKETS` (the list across events);
 * - `LIST#ACCESS#<g>`: GSI1 `ACCESS_TICKETS#<g>` for each other event `g` its type (an
 *   access package) grants entry to.
 * Each carries the filter tuple (event, type, team, state), so a filter that is not the
 * Query is applied to these ~200-byte items, never to whole tickets; the page's tickets are
 * then one BatchGetItem. Sort key `TICKET#<id:10>` everywhere: every list is in id order
 * and a cursor resumes with `> TICKET#<id>`. A deleted ticket has none (sparse, like GSI1).
 * They are written in the ticket's own transaction, only when the tuple changes (a Put
 * replaces the item, so moving a key is one action).
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
export const grantedEvents = (record: TicketRecord): number[] => [...new Set(record.accessEvents ?? [])].filter((eventId) => eventId !== record.eventId);

/** The entries a ticket has in this state: none when deleted. */
export function listEntryItems(record: TicketRecord): ListEntry[] {
  if (record.deleted) return [];
  const entries: ListEntry[] = [
    {
      ...keys.ticketListEntry(record.id),
      entity: 'TicketListEntry',
      ...keys.listEntryIndexes(record.eventId, record.teamId ?? 0, record.processState, record.id),
      ...tuple(record),
    },
  ];
  for (const eventId of grantedEvents(record)) {
    entries.push({ ...keys.ticketAccessEntry(record.id, eventId), entity: 'TicketAccessEntry', ...keys.accessEntryIndexes(eventId, record.id), ...tuple(record) });
  }
  return entries;
}

/** The transaction actions that move a ticket's entries from `before` to `after`: a Put per new or changed entry, a Delete per gone one. */
export function listEntryActions(before: TicketRecord | null, after: TicketRecord) {
  const old = new Map((before ? listEntryItems(before) : []).map((item) => [item.SK, JSON.stringify(item)]));
  const actions: ({ Put: { TableName: string; Item: ListEntry } } | { Delete: { TableName: string; Key: { PK: string; SK: string } } })[] = [];
  const kept = new Set<string>();
  for (const item of listEntryItems(after)) {
    kept.add(item.SK);
    if (old.get(item.SK) !== JSON.stringify(item)) actions.push({ Put: { TableName: tableName(), Item: item } });
  }
  for (const sk of old.keys()) if (!kept.has(sk)) actions.push({ Delete: { TableName: tableName(), Key: { PK: keys.ticket(after.id).PK, SK: sk } } });
  return actions;
}
