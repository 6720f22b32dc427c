import { holdsBib, isEligible, type TicketRecord } from '../domain/ticket.ts';
import type { TicketHistoryEntry } from '../domain/ticket-history.ts';
import { Conflict } from '../errors.ts';
import { tableName, transactWrite, TransactionCancelled } from './client.ts';
import { keys } from './keys.ts';
import { bulkSoldUpdate } from './stock.ts';
import { historyPut } from './ticket-history.ts';
import { ticketItem } from './ticket-records.ts';

/**
 * The one write of a ticket change, its record's part. In one TransactWriteItems:
 * - each ticket, conditional on its `version` (optimistic lock: two scanners racing admit
 *   a ticket once; the loser re-reads and is refused), and its history entry;
 * - (a type's `sold` is not here: the caller's stock move carries it, use-cases/tickets/ticket-stock.ts);
 * - the bib item when the bib, the event or the holding state changes, and the barcode's
 *   unique item when the barcode or `deleted` changes;
 * - what the lists need (the list engine's write hook, shared/lists/writes.ts, which sends
 *   this transaction: data/ never imports the lists);
 * - the caller's extra actions (a scan record, an idempotent answer).
 */
export interface TicketChange {
  /** null: the ticket is created. */
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

type Role =
  | { kind: 'ticket' }
  | { kind: 'bib'; bib: string }
  | { kind: 'barcode'; barcode: string }
  | { kind: 'extra'; onConditionFailed?: () => Error }
  | { kind: 'other' };

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
 * A new ticket's record items, built as its create transaction's: the record, its history
 * entry, its bib and barcode items (the list engine adds its entries, shared/lists/writes.ts
 * `newTicketItems`). For bulk loads; uniqueness (bib, barcode) is the caller's.
 */
export function newRecordItems(record: TicketRecord, history: TicketHistoryEntry): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [
    ticketItem({ ...record, version: history.version }),
    historyPut(record.id, history).Put.Item,
  ];
  if (holdsBib(record)) items.push(bibItem(record));
  if (!record.deleted) items.push(barcodeItem(record));
  return items;
}

/** The stock moves of new tickets written with `newRecordItems`, summed by type (stock.ts `bulkSoldUpdate`). */
export function newTypeSoldUpdates(records: TicketRecord[]) {
  const sold = new Map<number, number>();
  for (const record of records.filter(isEligible)) sold.set(record.typeId, (sold.get(record.typeId) ?? 0) + 1);
  return [...sold].map(([typeId, quantity]) => bulkSoldUpdate(typeId, quantity));
}

function bibActions(before: TicketRecord | null, after: TicketRecord): [Action, Role][] {
  const oldBib = before && holdsBib(before) ? keys.bib(before.eventId, before.bibNumber!) : undefined;
  const newBib = holdsBib(after) ? keys.bib(after.eventId, after.bibNumber!) : undefined;
  if (oldBib?.PK === newBib?.PK) return [];
  const mine = {
    ConditionExpression: 'attribute_not_exists(PK) OR ticketId = :id',
    ExpressionAttributeValues: { ':id': after.id },
  };
  const actions: [Action, Role][] = [];
  if (oldBib) actions.push([{ Delete: { TableName: tableName(), Key: oldBib, ...mine } }, { kind: 'other' }]);
  if (newBib) {
    const Item = bibItem(after);
    actions.push([{ Put: { TableName: tableName(), Item, ...mine } }, { kind: 'bib', bib: after.bibNumber! }]);
  }
  return actions;
}

/** The barcode's unique item, held while the ticket is not deleted (as the bib's): two tickets never share a barcode. */
function barcodeActions(before: TicketRecord | null, after: TicketRecord): [Action, Role][] {
  const oldCode = before && !before.deleted ? keys.barcode(before.barcode) : undefined;
  const newCode = !after.deleted ? keys.barcode(after.barcode) : undefined;
  if (oldCode?.PK === newCode?.PK) return [];
  const mine = {
    ConditionExpression: 'attribute_not_exists(PK) OR ticketId = :id',
    ExpressionAttributeValues: { ':id': after.id },
  };
  const actions: [Action, Role][] = [];
  if (oldCode) actions.push([{ Delete: { TableName: tableName(), Key: oldCode, ...mine } }, { kind: 'other' }]);
  if (newCode) {
    const Item = barcodeItem(after);
    actions.push([{ Put: { TableName: tableName(), Item, ...mine } }, { kind: 'barcode', barcode: after.barcode }]);
  }
  return actions;
}

/**
 * The actions of the changes' one transaction, each with the role its refusal maps to: the
 * records', then the lists' (`lists`, from the list engine), then the caller's.
 */
function plannedActions(changes: TicketChange[], lists: readonly Action[], extra: ExtraAction[]): [Action, Role][] {
  const planned: [Action, Role][] = [];

  for (const { before, after, history } of changes) {
    const Item = ticketItem({ ...after, version: history.version });
    const condition = before
      ? {
          ConditionExpression: '#version = :version',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':version': before.version },
        }
      : { ConditionExpression: 'attribute_not_exists(PK)' };
    planned.push([{ Put: { TableName: tableName(), Item, ...condition } }, { kind: 'ticket' }]);
    planned.push([historyPut(after.id, history), { kind: 'ticket' }]);
    planned.push(...bibActions(before, after));
    planned.push(...barcodeActions(before, after));
  }
  for (const action of lists) planned.push([action, { kind: 'other' }]);
  for (const { action, onConditionFailed } of extra) planned.push([action, { kind: 'extra', onConditionFailed }]);
  return planned;
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
  const planned = plannedActions(changes, lists, extra);
  try {
    await transactWrite(planned.map(([action]) => action));
  } catch (error) {
    // Conflicts that outlast transactWrite's own retries stay a 503 (TransactionConflicts):
    // re-deciding on a fresh read would run those retries again, nested, past the timeout.
    if (!(error instanceof TransactionCancelled)) throw error;
    throw refusalOf(
      error,
      planned.map(([, role]) => role),
    );
  }
}

function refusalOf(error: TransactionCancelled, roles: Role[]): Error {
  const failed = roles.filter((_, index) => error.conditionFailed(index));
  if (failed.some((role) => role.kind === 'ticket')) return new StaleTicket();
  for (const role of failed) {
    if (role.kind === 'bib') return new Conflict(`Bib number ${role.bib} is already taken in this event.`, 'bib_taken');
    if (role.kind === 'barcode')
      return new Conflict(`Barcode ${role.barcode} is already taken by another ticket.`, 'barcode_taken');
    if (role.kind === 'extra' && role.onConditionFailed) return role.onConditionFailed();
  }
  return error;
}
