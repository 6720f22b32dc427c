import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from '../../schema.ts';
import { STATE_FIELDS, TICKET_ACTIONS } from '../domain/ticket-codes.ts';
import { creationEntry, type TicketCreation, type TicketHistoryEntry } from '../domain/ticket-history.ts';
import type { TicketRecord } from '../domain/ticket.ts';
import { db, tableName } from '../../data/client.ts';
import { parseItem, storedSchema } from '../../data/stored-items.ts';
import { keys } from '../../data/keys.ts';
import { keyCondition } from '../../data/key-conditions.ts';

/**
 * A ticket's history entries live in its own partition, keyed by the version they
 * produced (`HISTORY#<version>`). Each is put, conditional on its absence, in the
 * ticket's change transaction: append-only, and never out of step with the ticket. A
 * creation's entry is the record's own `creation` (domain/ticket-history.ts), which the
 * readers here answer as entry 1; a record without it (created before records kept it)
 * has its entry 1 stored like the others.
 */
const stateValue = z.lazy(() => z.union([z.string(), z.number()]));
const at = z.string();
const actor = z.string();
const eventScope = z.lazy(() => z.optional(z.array(z.number())));
const action = z.enum(TICKET_ACTIONS);
const relatedTicketId = z.lazy(() => z.optional(z.number()));
/** The creation's part of a ticket record as stored (ticket-records.ts). */
export const TicketCreationItem = storedSchema<TicketCreation>()(
  z.lazy(() => z.object({ at, actor, eventScope, action, relatedTicketId })),
);
/**
 * The answer's entry as stored, beside its keys and `ticketId` (which parsing leaves out). Not derived from the
 * answer's schema (ticket-resource.ts): this module is in every ticket write's bundle (historyPut), which builds no
 * ticket answer. storedSchema holds it to the answer's type.
 */
const TicketHistoryItem = storedSchema<TicketHistoryEntry>()(
  z.lazy(() =>
    z.object({
      version: z.number(),
      at,
      actor,
      eventScope,
      action,
      states: z.partialRecord(z.enum(STATE_FIELDS), z.object({ from: stateValue, to: stateValue })),
      fields: z.array(z.string()),
      relatedTicketId,
    }),
  ),
);
const historyFromItem = (item: Record<string, unknown>): TicketHistoryEntry =>
  parseItem(TicketHistoryItem, item, 'ticket history entry');

export const historyPut = (ticketId: number, entry: TicketHistoryEntry) => ({
  Put: {
    TableName: tableName(),
    Item: { ...keys.ticketHistory(ticketId, entry.version), entity: 'TicketHistory', ticketId, ...entry },
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});

/** The first version whose entry is an item of its own: 2 when the record keeps its creation, else 1. */
const firstStored = (ticket: TicketRecord) => (ticket.creation ? 2 : 1);

/**
 * A page of the ticket's history, newest first: the entries `version - offset` down to
 * `version - offset - limit + 1`, read by key range with a `Limit`, so a deep page costs
 * what the first one does; entry 1 from the record when it keeps it (a page of it alone reads nothing more).
 */
export async function readTicketHistory(
  ticket: TicketRecord,
  page: { limit: number; offset: number },
): Promise<TicketHistoryEntry[]> {
  const newest = ticket.version - page.offset;
  if (newest < 1) return [];
  const oldest = Math.max(1, newest - page.limit + 1);
  const created = ticket.creation && oldest === 1 ? [creationEntry(ticket.creation)] : [];
  const from = Math.max(oldest, firstStored(ticket));
  if (from > newest) return created;
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.ticketItems(ticket.id), {
        between: [keys.ticketHistory(ticket.id, from).SK, keys.ticketHistory(ticket.id, newest).SK],
      }),
      ScanIndexForward: false,
      Limit: newest - from + 1,
    }),
  );
  return [...(Items ?? []).map(historyFromItem), ...created];
}

/**
 * The entry of the change that made the record what it is: a creation's from the record when it keeps it, else read
 * strongly consistent (a change's stream record may arrive right after its commit).
 */
export async function readHistoryEntry(ticket: TicketRecord): Promise<TicketHistoryEntry | undefined> {
  if (ticket.version < firstStored(ticket)) return creationEntry(ticket.creation!);
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.ticketHistory(ticket.id, ticket.version),
      ConsistentRead: true,
    }),
  );
  return Item ? historyFromItem(Item) : undefined;
}
