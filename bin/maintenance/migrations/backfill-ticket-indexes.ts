/**
 * One-off, after the release that brought the purchase and update-time indexes and the
 * barcode items (README "Data migrations"): gives every ticket written before it
 * `purchasedDate` (= created), the update-time sync's keys (all tickets) and its barcode's
 * unique item (live tickets). Its purchase-time list entry comes from
 * backfill-ticket-lists.ts, run after this one. Migration 1 (catalogue.ts).
 *
 * A Scan, which no request ever does: this is maintenance, paced by DynamoDB's own
 * on-demand limits and safe to re-run (each write is conditional on the ticket's version:
 * a ticket changed meanwhile already carries the keys, and is skipped). Resumable: the
 * Scan's next page is kept after each page (runs.ts `resumableScan`).
 */
import { batchGet, tableName, transactWrite, TransactionCancelled } from '#shared/data/client';
import { keys } from '#shared/data/keys';
import { TICKET_UPDATE_SHARDS } from '#shared/data/ticket-records';
import { resumableScan, type RunOptions, type Stopped } from './runs.ts';

export interface BackfillOutcome extends Stopped {
  updated: number;
  /** Changed since the Scan read it: it got the keys from that change. */
  skipped: number;
  /** Tickets whose barcode another ticket holds (their indexes are written all the same): PATCH a new barcode, then re-run. */
  duplicateBarcodes: { ticketId: number; barcode: string }[];
}

export interface TicketIndexBackfillOptions extends RunOptions {
  /** Only these tickets (tests); default every one, a Scan resumable by its page. */
  ids?: number[];
}

/** Backfills every ticket, or only `ids` (tests). */
export async function backfillTicketIndexes({
  ids,
  ...run
}: TicketIndexBackfillOptions = {}): Promise<BackfillOutcome> {
  const outcome: BackfillOutcome = { updated: 0, skipped: 0, duplicateBarcodes: [] };
  const projection = '#id, eventId, deleted, purchasedDate, created, updated, barcode, version';
  const names = { '#id': 'id' };
  if (ids?.length) {
    // Named tickets are read by key: a test's run costs its own tickets, not the table.
    for (const item of await batchGet(
      ids.map((id) => keys.ticket(id)),
      { projection, names },
    ))
      if (item) await backfillOne(item, outcome);
    return outcome;
  }
  const scan = {
    TableName: tableName(),
    FilterExpression: '#entity = :ticket AND SK = :sk',
    ProjectionExpression: projection,
    ExpressionAttributeNames: { '#entity': 'entity', ...names },
    ExpressionAttributeValues: { ':ticket': 'Ticket', ':sk': 'TICKET' },
  };
  const ended = await resumableScan('backfill-ticket-indexes', run, scan, async (items) => {
    for (const item of items) await backfillOne(item, outcome);
  });
  return ended ? outcome : { ...outcome, stopped: true };
}

async function backfillOne(item: Record<string, unknown>, outcome: BackfillOutcome, withBarcode = true): Promise<void> {
  const id = Number(item.id);
  const live = !item.deleted;
  const purchasedDate = (item.purchasedDate as string | undefined) ?? String(item.created);
  const indexKeys = {
    ...keys.ticketUpdateIndexes(id % TICKET_UPDATE_SHARDS, String(item.updated), id),
    purchasedDate,
  };
  const names = Object.fromEntries(Object.keys(indexKeys).map((name, i) => [`#k${i}`, name]));
  const values = Object.fromEntries(Object.values(indexKeys).map((value, i) => [`:k${i}`, value]));
  const update = {
    TableName: tableName(),
    Key: keys.ticket(id),
    UpdateExpression: `SET ${Object.keys(names)
      .map((name, i) => `${name} = :k${i}`)
      .join(', ')}`,
    ConditionExpression: '#version = :version',
    ExpressionAttributeNames: { ...names, '#version': 'version' },
    ExpressionAttributeValues: { ...values, ':version': item.version },
  };
  const barcode = String(item.barcode);
  const hold = {
    TableName: tableName(),
    Item: { ...keys.barcode(barcode), entity: 'UniqueBarcode', ticketId: id, barcode },
    ConditionExpression: 'attribute_not_exists(PK) OR ticketId = :id',
    ExpressionAttributeValues: { ':id': id },
  };
  try {
    await transactWrite([{ Update: update }, ...(live && withBarcode ? [{ Put: hold }] : [])]);
    outcome.updated += 1;
  } catch (error) {
    if (!(error instanceof TransactionCancelled)) throw error;
    if (error.conditionFailed(0)) outcome.skipped += 1;
    else if (error.conditionFailed(1)) {
      // The indexes still: the sync and the lists must see the ticket while its barcode is fixed.
      outcome.duplicateBarcodes.push({ ticketId: id, barcode });
      await backfillOne(item, outcome, false);
    } else throw error;
  }
}
