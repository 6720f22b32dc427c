import { now } from '../../clock.ts';
import { logger } from '../../logger.ts';
import { publishRecorded, recordInvoiceStillDue } from '../../services/metrics.ts';
import { clearInvoiceDue, fileInvoicesDue, INVOICE_DUE_SHARDS, invoicesDueIn } from '../data/invoices-due.ts';
import { invoicePaidOrders } from './invoices.ts';

/**
 * A paid order whose invoicing fails is numbered later, never lost (shared/README.md "Invoices"): where its tickets
 * were issued (the issuing consumer's batch, the sweep of stuck orders, a box-office sale) a failed numbering files
 * the orders as due (data/invoices-due.ts), and the every-minute job numbers them (`numberInvoicesDue`). The numbering
 * is the same (invoices.ts `invoicePaidOrders`: gapless, each order invoiced once, an order that has its invoice
 * skipped), so a due order the consumer's retry numbered meanwhile costs the job a read and a delete.
 */

/** Due orders one run numbers at most, each on its own (a due order is rare: a failure's leftover). */
export const INVOICES_DUE_PER_RUN = 20;

/**
 * The orders' invoices, or, when that fails, the orders filed as due. Throws only when the filing fails too (the
 * caller's own retry is then the way back: the consumer's batch retried, the sweep's next run).
 */
export async function invoiceOrFileDue(orderIds: readonly number[]): Promise<void> {
  if (!orderIds.length) return;
  try {
    await invoicePaidOrders(orderIds);
  } catch (error) {
    logger.error('paid orders not invoiced: filed as due', { orderIds: [...orderIds], error: error as Error });
    await fileInvoicesDue(orderIds, now().toISOString());
  }
}

export interface DueRun {
  /** Due orders that now have their invoice (or never will: cancelled before it, free): their entries deleted. */
  numbered: number;
  /** Due orders whose numbering failed again: left for the next run, each recorded (it alarms). */
  stillDue: number;
}

/**
 * The every-minute job's part (functions/jobs/release-reservations.ts): each shard's due orders read by one bounded
 * Query, lowest order id first, and each numbered on its own (one that keeps failing does not hold the others back
 * within the run), its entry deleted once it has its invoice. Running twice numbers nothing twice.
 */
export async function numberInvoicesDue(budgetMs: number): Promise<DueRun> {
  const started = Date.now();
  const perShard = Math.ceil(INVOICES_DUE_PER_RUN / INVOICE_DUE_SHARDS);
  const shards = Array.from({ length: INVOICE_DUE_SHARDS }, (_, shard) => shard);
  const due = (await Promise.all(shards.map((shard) => invoicesDueIn(shard, perShard)))).flat();
  const run: DueRun = { numbered: 0, stillDue: 0 };
  try {
    for (const { orderId, filedAt } of due) {
      if (Date.now() - started >= budgetMs) break;
      if (await numberedNow(orderId, filedAt)) run.numbered++;
      else run.stillDue++;
    }
  } finally {
    // A job is no request: what it recorded is published here, not at a request's end.
    publishRecorded();
  }
  return run;
}

/** One due order numbered and its entry deleted; false when that failed again (recorded: it alarms). */
async function numberedNow(orderId: number, filedAt: string): Promise<boolean> {
  try {
    await invoicePaidOrders([orderId]);
    await clearInvoiceDue(orderId);
    return true;
  } catch (error) {
    recordInvoiceStillDue();
    logger.error('invoice still due', { orderId, filedAt, error: error as Error });
    return false;
  }
}
