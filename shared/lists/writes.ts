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
import type { ListAction } from './list-names.ts';
import { listEntryItems } from './ticket-list-entries.ts';
import { searchEntryItems } from './ticket-search-entries.ts';
import { StatsDelta } from './ticket-stats.ts';
import { PositionDelta } from './list-positions.ts';

export type { ListAction, ListName } from './list-names.ts';

/**
 * The list engine's write hook (README.md here): what the lists need of a ticket change in its own transaction, each
 * action labelled with the lists it keeps: every count a user sees (the statistics shards' `totalCount`s and check-in
 * figures, the all-events totals, the purchase counts, the customer's ticket count), exact as soon as the change has
 * answered. Pure. The list entries, their positions and the search entries are not among them: the table stream's
 * consumer writes them after the change (`catchUpTicketLists`). A transaction of several changes (a transfer's two
 * tickets, an order's) passes them together: a transaction may touch an item once, so their moves of one count item
 * are summed into one Update.
 */
export function listWrites(
  changes: readonly { before: TicketRecord | null; after: TicketRecord }[],
): ListAction<Action>[] {
  const stats = new StatsDelta('totals');
  for (const { before, after } of changes) {
    if (before && isEligible(before)) stats.sold(before.eventId, before.id, -1);
    if (isEligible(after)) stats.sold(after.eventId, after.id, 1);
    stats.signature(after.id, before ? signatureOf(countedEvents(before)) : '', signatureOf(countedEvents(after)));
    if (before && !before.deleted) stats.listedTicket(before, -1);
    if (!after.deleted) stats.listedTicket(after, 1);
  }
  return stats.labelled();
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
  const stats = new StatsDelta('every');
  for (const record of records) {
    if (isEligible(record)) stats.sold(record.eventId, record.id, 1);
    stats.signature(record.id, '', signatureOf(countedEvents(record)));
    if (!record.deleted) stats.listedTicket(record, 1);
  }
  return [...newTypeSoldUpdates(records), ...stats.actions().map((action) => action.Update)];
}

/**
 * What the stream's consumer writes for a ticket written by `commitTicketChanges` without a stream to read (the scale
 * seed): its list entries and search entries (`items`) and its blocks' moves (`blockUpdates`, blind: a seed's tickets
 * are new, so none is counted twice), the consumer's `catchUpTicketLists` without its reads.
 */
export const consumerWritesOf = (records: readonly TicketRecord[]) => {
  const blocks = new PositionDelta('blocks');
  for (const record of records) if (!record.deleted) blocks.listedTicket(record, 1);
  return {
    items: records.flatMap((record) => [...listEntryItems(record), ...searchEntryItems(record)]),
    blockUpdates: blocks.actions(),
  };
};

export { searchEntryItems } from './ticket-search-entries.ts';
export { StaleTicket, type ExtraAction, type TicketChange } from '../tickets/data/ticket-changes.ts';
