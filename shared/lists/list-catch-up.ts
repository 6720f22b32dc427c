import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from '../schema.ts';
import { PROCESS_STATES, type TicketRecord } from '../tickets/domain/ticket.ts';
import { readTicketRecords } from '../tickets/data/ticket-records.ts';
import { batchWrite, db, tableName } from '../data/client.ts';
import { keys } from '../data/keys.ts';
import { keyAttributes, keyCondition } from '../data/key-conditions.ts';
import { parseItem } from '../data/stored-items.ts';
import { positionMoves, writePositionMoves } from './list-position-marks.ts';
import type { PositionedTicket } from './list-positions.ts';
import { listEntryItems } from './ticket-list-entries.ts';
import { searchEntryWrites } from './ticket-search-entries.ts';

/**
 * The lists' part written off a ticket change's transaction, by the table stream's consumer of ticket changes
 * (webhooks/use-cases/jobs.ts): each ticket's list entries (`LIST`, `LIST#EVENT`, `LIST#PURCHASE`, `LIST#ACCESS#<g>`),
 * their positions (the blocks and spans, list-position-marks.ts) and its search entries, brought to what its record
 * holds now. It reads the records (one consistent BatchGetItem), each ticket's stored list entries (a bounded Query of
 * its own partition) and search tokens (one BatchGetItem of their lists), moves the positions from what the stored entries say to what the record says (marked, so a
 * position is moved once), then puts the entries that differ and deletes those gone (BatchWriteItem: plain writes,
 * half a transactional write's units), and last the search token lists that changed. Positions first: a run stopped between them finds its entries still old and its
 * marks already moved, and writes only the entries. It depends on no stream image and no order: a record read twice,
 * late or replayed writes nothing a second time, and the last run for a ticket leaves its lists as its record is then.
 * Every count a user sees (`totalCount`s, statistics, purchase counts) is the change's own transaction's, exact at once.
 */
export async function catchUpTicketLists(ticketIds: readonly number[]): Promise<void> {
  const ids = [...new Set(ticketIds)];
  if (!ids.length) return;
  const records = await readTicketRecords(ids);
  const [stored, search] = await Promise.all([
    Promise.all(ids.map(storedListEntries)),
    searchEntryWrites(ids, records),
  ]);
  const changes = ids.map((id, n) => ({ id, before: listedAs(id, stored[n]!), after: live(records.get(id)) }));
  await writePositionMoves(positionMoves(changes));
  await batchWrite([...ids.flatMap((id, n) => entryWrites(id, live(records.get(id)), stored[n]!)), ...search.entries]);
  await batchWrite(search.lists);
}

const live = (record: TicketRecord | undefined): TicketRecord | null => (record && !record.deleted ? record : null);

/** A ticket's stored list entries read per page: its three and a granted event's each (a type grants a few). */
const STORED_ENTRIES_PAGE = 16;

async function storedListEntries(ticketId: number): Promise<Record<string, unknown>[]> {
  const entries: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName(),
        ...keyCondition(keys.ticketItems(ticketId), { beginsWith: keys.ticketListEntry(ticketId).SK }),
        ConsistentRead: true,
        Limit: STORED_ENTRIES_PAGE,
        ExclusiveStartKey: startKey,
      }),
    );
    entries.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return entries;
}

/** What an event entry carries of its ticket (ticket-list-entries.ts `tuple`). */
const eventEntrySchema = z.lazy(() =>
  z.object({
    eventId: z.number(),
    typeId: z.number(),
    teamKey: z.number(),
    processState: z.literal(PROCESS_STATES),
  }),
);

/** The customer list a purchase entry places its ticket in (GSI4), by the attribute its key builder names. */
const customerPartition = keyAttributes(keys.customerTickets(0)).partition;

/** What the stored entries say the ticket is listed as (and so counted in the positions as): null when it has none. */
function listedAs(id: number, stored: readonly Record<string, unknown>[]): PositionedTicket | null {
  const eventEntry = stored.find((item) => item.SK === keys.ticketEventEntry(id).SK);
  if (!eventEntry) return null;
  const { eventId, typeId, teamKey, processState } = parseItem(eventEntrySchema, eventEntry, 'TicketEventEntry');
  const purchase = stored.find((item) => item.SK === keys.ticketPurchaseEntry(id).SK);
  const customer = purchase?.[customerPartition];
  const granted = stored.filter((item) => String(item.SK).startsWith(keys.ticketAccessEntryPrefix));
  return {
    id,
    eventId,
    typeId,
    teamId: teamKey,
    processState,
    customerId: typeof customer === 'string' ? Number(customer.slice(customer.lastIndexOf('#') + 1)) : null,
    accessEvents: granted.map((item) => Number(String(item.SK).slice(keys.ticketAccessEntryPrefix.length))),
  };
}

/** An item's attributes in one order, so an entry read back compares equal to the one built. */
const canonical = (item: Record<string, unknown>) =>
  JSON.stringify(Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : 1))));

/** The puts and deletes that take a ticket's stored entries to its record's (none left for a deleted or missing one). */
function entryWrites(ticketId: number, record: TicketRecord | null, stored: readonly Record<string, unknown>[]) {
  const old = new Map(stored.map((item) => [String(item.SK), canonical(item)]));
  const next = record ? listEntryItems(record) : [];
  const kept = new Set(next.map((item) => item.SK));
  return [
    ...next.filter((item) => old.get(item.SK) !== canonical(item)).map((item) => ({ put: item })),
    ...[...old.keys()]
      .filter((sk) => !kept.has(sk))
      .map((sk) => ({ delete: { PK: keys.ticket(ticketId).PK, SK: sk } })),
  ];
}
