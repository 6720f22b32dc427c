import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from '../../schema.ts';
import { STATE_FIELDS, TICKET_ACTIONS } from '../domain/ticket-codes.ts';
import type { TicketHistoryEntry } from '../domain/ticket-history.ts';
import { db, tableName } from '../../data/client.ts';
import { parseItem, storedSchema } from '../../data/stored-items.ts';
import { keys } from '../../data/keys.ts';
import { keyCondition } from '../../data/key-conditions.ts';

/**
 * A ticket's history entries live in its own partition, keyed by the version they
 * produced (`HISTORY#<version>`). Each is put, conditional on its absence, in the
 * ticket's change transaction: append-only, and never out of step with the ticket.
 */
const stateValue = z.union([z.string(), z.number()]);
/**
 * The answer's entry as stored, beside its keys and `ticketId` (which parsing leaves out). Not derived from the
 * answer's schema (ticket-resource.ts): this module is in every ticket write's bundle (historyPut), which builds no
 * ticket answer. storedSchema holds it to the answer's type.
 */
const TicketHistoryItem = storedSchema<TicketHistoryEntry>()(
  z.object({
    version: z.number(),
    at: z.string(),
    actor: z.string(),
    eventScope: z.optional(z.array(z.number())),
    action: z.enum(TICKET_ACTIONS),
    states: z.partialRecord(z.enum(STATE_FIELDS), z.object({ from: stateValue, to: stateValue })),
    fields: z.array(z.string()),
    relatedTicketId: z.optional(z.number()),
  }),
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

/**
 * A page of a ticket whose latest version is `latest`, newest first: the entries
 * `latest - offset` down to `latest - offset - limit + 1`, read by key range with a
 * `Limit`, so a deep page costs what the first one does.
 */
export async function readTicketHistory(
  ticketId: number,
  latest: number,
  page: { limit: number; offset: number },
): Promise<TicketHistoryEntry[]> {
  const newest = latest - page.offset;
  if (newest < 1) return [];
  const oldest = Math.max(1, newest - page.limit + 1);
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.ticketItems(ticketId), {
        between: [keys.ticketHistory(ticketId, oldest).SK, keys.ticketHistory(ticketId, newest).SK],
      }),
      ScanIndexForward: false,
      Limit: page.limit,
    }),
  );
  return (Items ?? []).map(historyFromItem);
}

/** The entry of one version (strongly consistent: a change's stream record may arrive right after its commit). */
export async function readHistoryEntry(ticketId: number, version: number): Promise<TicketHistoryEntry | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.ticketHistory(ticketId, version), ConsistentRead: true }),
  );
  return Item ? historyFromItem(Item) : undefined;
}
