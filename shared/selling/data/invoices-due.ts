import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../data/client.ts';
import { keyCondition } from '../../data/key-conditions.ts';
import { keys } from '../../data/keys.ts';
import { parseItem } from '../../data/stored-items.ts';
import * as z from '../../schema.ts';

/**
 * The paid orders whose invoicing failed, each an entry (`INVOICE_DUE#<shard>`, by order id) until the every-minute
 * job numbers it (shared/selling/use-cases/invoices-due.ts). Put only on a failure, so a paid order that is numbered
 * at once writes none of them; deleted when the order has its invoice (or never will: cancelled, free).
 */

/**
 * The entries spread over this many partition keys, by order id. At the worst (every paid order of the on-sale target
 * failing to number: 600 a second) each takes 150 puts a second of 1 unit, far under a key's 1,000; the job reads each
 * shard by one bounded Query a run.
 */
export const INVOICE_DUE_SHARDS = 4;

const DueItem = z.lazy(() => z.object({ orderId: z.number(), filedAt: z.string() }));
export type InvoiceDue = z.output<typeof DueItem>;

/** The orders' entries, each put on its own (an order's again is the same item: filing twice changes nothing twice). */
export async function fileInvoicesDue(orderIds: readonly number[], filedAt: string): Promise<void> {
  await Promise.all(
    orderIds.map((orderId) =>
      db.send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...keys.invoiceDue(orderId % INVOICE_DUE_SHARDS, orderId), entity: 'InvoiceDue', orderId, filedAt },
        }),
      ),
    ),
  );
}

/** One shard's entries, lowest order id first, at most `limit`. */
export async function invoicesDueIn(shard: number, limit: number): Promise<InvoiceDue[]> {
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(keys.invoicesDueIn(shard)),
      Limit: limit,
      ConsistentRead: true,
    }),
  );
  return (Items ?? []).map((item) => parseItem(DueItem, item, 'invoice due'));
}

/** The order's entry gone: it has its invoice, or will never have one. */
export async function clearInvoiceDue(orderId: number): Promise<void> {
  await db.send(
    new DeleteCommand({ TableName: tableName(), Key: keys.invoiceDue(orderId % INVOICE_DUE_SHARDS, orderId) }),
  );
}
