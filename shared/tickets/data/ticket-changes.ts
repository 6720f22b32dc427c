import { holdsBib, isEligible, type TicketRecord } from '../domain/ticket.ts';
import { creationOf, type TicketHistoryEntry } from '../domain/ticket-history.ts';
import { Conflict } from '../../errors.ts';
import { labelled, tableName, transactWrite, TransactionCancelled } from '../../data/client.ts';
import { keys } from '../../data/keys.ts';
import { bulkSoldUpdate } from '../../selling/data/stock.ts';
import { addSums, NO_SALES, type SaleSums, ticketSums } from '../../selling/domain/sale-prices.ts';
import { historyPut } from './ticket-history.ts';
import { ticketItem } from './ticket-records.ts';

/**
 * The one write of a ticket change, its record's part. In one TransactWriteItems:
 * - each ticket, conditional on its `version` (optimistic lock: two scanners racing admit
 *   a ticket once; the loser re-reads and is refused), and its history entry (a creation's
 *   on the record itself: `storedRecord`);
 * - (a type's `sold` is not here: the caller's stock move carries it, tickets/use-cases/ticket-stock.ts);
 * - the bib item when the bib, the event or the holding state changes, and the barcode's
 *   unique item when the barcode or `deleted` changes;
 * - what the lists need (the list engine's write hook, shared/lists/writes.ts, which sends
 *   this transaction: data/ never imports the lists);
 * - the caller's extra actions (a scan record, an idempotent answer).
 */
export interface TicketChange {
  /** null: the ticket is created. Else the record as read: its `creation` is what the change keeps. */
  before: TicketRecord | null;
  after: TicketRecord;
  history: TicketHistoryEntry;
}

/** One action of a TransactWriteItems. */
export type Action = Parameters<typeof transactWrite>[0][number];

/** An extra action of the transaction, and the error to raise when its condition fails. */
export interface ExtraAction {
  action: Action;
  onConditionFailed?: () => Error;
}

/** The ticket changed between read and write (or kept colliding): re-read and decide again. */
export class StaleTicket extends Conflict {
  constructor() {
    super('The ticket changed concurrently; retry the request.', 'concurrent_update');
  }
}

/** What an action's failed condition means: its label (client.ts `labelled`) and the refusal it is answered with. */
interface Refusal {
  label: string;
  error: () => Error;
}

/** An action of the changes' transaction, labelled with its refusal when its condition failing is one. */
type Planned = [Action, Refusal?];

/** The label of each ticket's record and history entry: their conditions fail when the ticket changed since its read. */
const TICKET = 'ticket';

const planned = (action: Action, refusal?: Refusal): Planned =>
  refusal ? [labelled(refusal.label, action), refusal] : [action];

const bibItem = (record: TicketRecord) => ({
  ...keys.bib(record.eventId, record.bibNumber!),
  entity: 'UniqueBib',
  ticketId: record.id,
  eventId: record.eventId,
  bibNumber: record.bibNumber,
});
const barcodeItem = (record: TicketRecord) => ({
  ...keys.barcode(record.barcode),
  entity: 'UniqueBarcode',
  ticketId: record.id,
  barcode: record.barcode,
});

/**
 * The record as its change stores it: at its new version, keeping its creation's entry, which a creation puts there
 * and no later change alters, whatever the change's `after` carries (domain/ticket-history.ts `TicketCreation`).
 */
function storedRecord({ before, after, history }: TicketChange): Record<string, unknown> {
  const creation = before ? before.creation : creationOf(history);
  const { creation: _carried, ...record } = after;
  return ticketItem({ ...record, version: history.version, ...(creation ? { creation } : {}) });
}

/**
 * A new ticket's record items, built as its create transaction's: the record with its history's
 * entry 1, its bib and barcode items (the list engine adds its entries, shared/lists/writes.ts
 * `newTicketItems`). For bulk loads; uniqueness (bib, barcode) is the caller's.
 */
export function newRecordItems(record: TicketRecord, history: TicketHistoryEntry): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [storedRecord({ before: null, after: record, history })];
  if (holdsBib(record)) items.push(bibItem(record));
  if (!record.deleted) items.push(barcodeItem(record));
  return items;
}

/** The stock moves of new tickets written with `newRecordItems`, summed by type (stock.ts `bulkSoldUpdate`). */
export function newTypeSoldUpdates(records: TicketRecord[]) {
  const sold = new Map<number, { quantity: number; sums: SaleSums }>();
  for (const record of records.filter(isEligible)) {
    const { quantity, sums } = sold.get(record.typeId) ?? { quantity: 0, sums: NO_SALES };
    sold.set(record.typeId, { quantity: quantity + 1, sums: addSums(sums, ticketSums(record)) });
  }
  return [...sold].map(([typeId, { quantity, sums }]) => bulkSoldUpdate(typeId, quantity, sums));
}

function bibActions(before: TicketRecord | null, after: TicketRecord): Planned[] {
  const oldBib = before && holdsBib(before) ? keys.bib(before.eventId, before.bibNumber!) : undefined;
  const newBib = holdsBib(after) ? keys.bib(after.eventId, after.bibNumber!) : undefined;
  if (oldBib?.PK === newBib?.PK) return [];
  const mine = {
    ConditionExpression: 'attribute_not_exists(PK) OR ticketId = :id',
    ExpressionAttributeValues: { ':id': after.id },
  };
  const actions: Planned[] = [];
  if (oldBib) actions.push(planned({ Delete: { TableName: tableName(), Key: oldBib, ...mine } }));
  if (newBib) {
    const taken = () => new Conflict(`Bib number ${after.bibNumber} is already taken in this event.`, 'bib_taken');
    const put = { Put: { TableName: tableName(), Item: bibItem(after), ...mine } };
    actions.push(planned(put, { label: `bib of ${after.id}`, error: taken }));
  }
  return actions;
}

/** The barcode's unique item, held while the ticket is not deleted (as the bib's): two tickets never share a barcode. */
function barcodeActions(before: TicketRecord | null, after: TicketRecord): Planned[] {
  const oldCode = before && !before.deleted ? keys.barcode(before.barcode) : undefined;
  const newCode = !after.deleted ? keys.barcode(after.barcode) : undefined;
  if (oldCode?.PK === newCode?.PK) return [];
  const mine = {
    ConditionExpression: 'attribute_not_exists(PK) OR ticketId = :id',
    ExpressionAttributeValues: { ':id': after.id },
  };
  const actions: Planned[] = [];
  if (oldCode) actions.push(planned({ Delete: { TableName: tableName(), Key: oldCode, ...mine } }));
  if (newCode) {
    const taken = () => new Conflict(`Barcode ${after.barcode} is already taken by another ticket.`, 'barcode_taken');
    const put = { Put: { TableName: tableName(), Item: barcodeItem(after), ...mine } };
    actions.push(planned(put, { label: `barcode of ${after.id}`, error: taken }));
  }
  return actions;
}

/**
 * The actions of the changes' one transaction, each labelled with the refusal its failed condition maps to: the
 * records', then the lists' (`lists`, from the list engine), then the caller's.
 */
function plannedActions(changes: TicketChange[], lists: readonly Action[], extra: ExtraAction[]): Planned[] {
  const actions: Planned[] = [];
  const stale = { label: TICKET, error: () => new StaleTicket() };

  for (const change of changes) {
    const { before, after, history } = change;
    const Item = storedRecord(change);
    const condition = before
      ? {
          ConditionExpression: '#version = :version',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':version': before.version },
        }
      : { ConditionExpression: 'attribute_not_exists(PK)' };
    actions.push(planned({ Put: { TableName: tableName(), Item, ...condition } }, stale));
    if (before) actions.push(planned(historyPut(after.id, history), stale));
    actions.push(...bibActions(before, after));
    actions.push(...barcodeActions(before, after));
  }
  for (const action of lists) actions.push(planned(action));
  for (const [n, { action, onConditionFailed }] of extra.entries())
    actions.push(planned(action, onConditionFailed && { label: `extra ${n}`, error: onConditionFailed }));
  return actions;
}

/** The TransactItems a commit of these changes sends (for a caller that sends them itself: the bench's raw side). */
export const ticketWriteActions = (
  changes: TicketChange[],
  lists: readonly Action[],
  extra: ExtraAction[] = [],
): Action[] => plannedActions(changes, lists, extra).map(([action]) => action);

/**
 * Writes the changes, the lists' actions and `extra` in one transaction. Throws 409 `bib_taken` /
 * `barcode_taken`, an extra's own error (a stock move's `sold_out`), or StaleTicket.
 */
export async function commitTicketWrites(
  changes: TicketChange[],
  lists: readonly Action[],
  extra: ExtraAction[] = [],
): Promise<void> {
  const actions = plannedActions(changes, lists, extra);
  try {
    await transactWrite(actions.map(([action]) => action));
  } catch (error) {
    // Conflicts that outlast transactWrite's own retries stay a 503 (TransactionConflicts):
    // re-deciding on a fresh read would run those retries again, nested, past the timeout.
    if (!(error instanceof TransactionCancelled)) throw error;
    throw refusalOf(error, actions);
  }
}

/** A ticket changed since its read comes first (its caller decides again); else the first refusal whose condition failed. */
function refusalOf(error: TransactionCancelled, actions: Planned[]): Error {
  if (error.conditionFailed(TICKET)) return new StaleTicket();
  for (const [, refusal] of actions) if (refusal && error.conditionFailed(refusal.label)) return refusal.error();
  return error;
}
