import type { TicketHistoryEntry } from '../tickets/domain/ticket-history.ts';
import { countedEvents, isEligible, signatureOf, type TicketRecord } from '../tickets/domain/ticket.ts';
import {
  type Action,
  commitTicketWrites,
  type ExtraAction,
  newRecordItems,
  newTypeSoldUpdates,
  type TicketChange,
  ticketWriteActions,
} from '../tickets/data/ticket-changes.ts';
import { keys } from '../data/keys.ts';
import type { ListAction, ListName } from './list-names.ts';
import { listEntryActions, listEntryItems } from './ticket-list-entries.ts';
import { searchEntryItems } from './ticket-search-entries.ts';
import { StatsDelta } from './ticket-stats.ts';

export type { ListAction, ListName } from './list-names.ts';

/**
 * The list engine's write hook (README.md here): what the lists need of a ticket change,
 * each action labelled with the lists it keeps. Pure. The search entries are not among them: the table stream's
 * consumer writes them after the change (`catchUpSearchEntries`). A transaction of several changes (a
 * transfer's two tickets, an order's) passes them together: a transaction may touch an item
 * once, so their moves of one count item are summed into one Update.
 */
export function listWrites(
  changes: readonly { before: TicketRecord | null; after: TicketRecord }[],
): ListAction<Action>[] {
  const stats = new StatsDelta();
  const written: ListAction<Action>[] = [];
  for (const { before, after } of changes) {
    if (before && isEligible(before)) stats.sold(before.eventId, before.id, -1);
    if (isEligible(after)) stats.sold(after.eventId, after.id, 1);
    stats.signature(after.id, before ? signatureOf(countedEvents(before)) : '', signatureOf(countedEvents(after)));
    if (before && !before.deleted) stats.listedTicket(before, -1);
    if (!after.deleted) stats.listedTicket(after, 1);
    for (const action of listEntryActions(before, after)) written.push({ action, for: entryLists(skOf(action)) });
  }
  return [...written, ...stats.labelled()];
}

const skOf = (action: Action): string => String(action.Put?.Item?.SK ?? action.Delete?.Key?.SK);

/** Which lists a ticket's list entry puts it in (ticket-list-entries.ts). */
function entryLists(sk: string): readonly ListName[] {
  // Its event's and type's lists: both ticket lists, and the gate's own part.
  if (sk === keys.ticketEventEntry(0).SK) return ['tickets', 'older-tickets', 'gate'];
  // Its order's, customer's and the purchase-time lists.
  if (sk === keys.ticketPurchaseEntry(0).SK) return ['older-tickets'];
  // An event its type grants entry to: `accessEvents`, and that event's gate list.
  if (sk.startsWith(keys.ticketAccessEntryPrefix)) return ['tickets', 'gate'];
  // `LIST`: the team and process-state lists and the list across events.
  return ['tickets', 'older-tickets'];
}

const actionsOf = (changes: TicketChange[]) => listWrites(changes).map(({ action }) => action);

/** Writes the changes in one transaction with what their lists need (tickets/data/ticket-changes.ts `commitTicketWrites`). */
export const commitTicketChanges = (changes: TicketChange[], extra: ExtraAction[] = []): Promise<void> =>
  commitTicketWrites(changes, actionsOf(changes), extra);

/** The TransactItems a commit of these changes sends (the bench's raw side sends them itself). */
export const ticketChangeActions = (changes: TicketChange[], extra: ExtraAction[] = []): Action[] =>
  ticketWriteActions(changes, actionsOf(changes), extra);

/**
 * Every item a new ticket's create transaction puts, built by the same functions: its record's
 * and its list entries, and the search entries the stream's consumer would write after it. For bulk loads
 * (`npm run seed`, the scale tests) that batch-write them; the counts those tickets move are `newTicketCounterUpdates`.
 */
export const newTicketItems = (record: TicketRecord, history: TicketHistoryEntry): Record<string, unknown>[] => [
  ...newRecordItems(record, history),
  ...listEntryItems(record),
  ...searchEntryItems(record),
];

/**
 * The counter updates of new tickets written with `newTicketItems`, summed (one UpdateItem
 * each, for UpdateCommand): the types' stock (`left` → `sold`) and the statistics shards' sold, check-in
 * signatures, listed and filter counts, the positions, purchase and customer counts.
 */
export function newTicketCounterUpdates(records: TicketRecord[]) {
  const stats = new StatsDelta();
  for (const record of records) {
    if (isEligible(record)) stats.sold(record.eventId, record.id, 1);
    stats.signature(record.id, '', signatureOf(countedEvents(record)));
    if (!record.deleted) stats.listedTicket(record, 1);
  }
  return [...newTypeSoldUpdates(records), ...stats.actions().map((action) => action.Update)];
}

export { catchUpSearchEntries, searchEntryItems } from './ticket-search-entries.ts';
export { StaleTicket, type ExtraAction, type TicketChange } from '../tickets/data/ticket-changes.ts';
