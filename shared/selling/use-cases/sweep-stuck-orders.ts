import { now } from '../../clock.ts';
import { FAILED_SALE_STATUS } from '../data/box-office-orders.ts';
import type { Order } from '../domain/order.ts';
import { oldestInStatus } from '../../lists/orders.ts';
import { logger } from '../../logger.ts';
import { issuePaidOrder } from './checkout-payment.ts';
import { invoiceOrFileDue } from './invoices-due.ts';
import { stopIssuing } from './cancel-checkout.ts';
import { undoSale } from './undo-sale.ts';

/**
 * How long an order may stay `pending` before the sweep takes it over: longer than any function that moves one may
 * still run (a route's 10 s timeout, infra/route-function.ts, with its SDK retries inside it; the issuing consumer's
 * 60 s, infra/paid-order-issuing.ts), so the sweep rarely meets a function still issuing, and it does not race one
 * either way: every step it takes is conditional. A consumer still retrying a failing batch past it (its retries
 * back off for minutes) meets the sweep's issue of the same order: each ticket is still issued once.
 */
export const STUCK_ORDER_GRACE_MS = 2 * 60_000;
/** Orders one run undoes or resumes at most (the next run takes the rest, oldest first). */
export const SWEEP_ORDERS = 10;
/** Index items one run reads at most (each of GSI6's shards one Query or a few, each with a Limit). */
export const SWEEP_READ_BUDGET = 50;

export interface SweepRun {
  /** Box-office sales undone. */
  undone: number;
  /** Paid checkouts whose issue was finished (or, their tickets gone or a cancel started, refunded). */
  resumed: number;
}

/**
 * Since when the order has been `pending` and untouched: a checkout's from its payment's claim (its latest payment) or
 * a staff cancellation's start, a sale's from its creation.
 */
const pendingSince = (order: Order): string =>
  [
    order.purchasedDate,
    ...order.transactions.filter((paid) => paid.amount > 0).map((paid) => paid.time),
    ...(order.cancellation ? [order.cancellation.at] : []),
  ]
    .sort()
    .at(-1)!;

/** A stuck order the sweep knows how to end: a box-office sale, or a paid checkout, with its tickets recorded as issued. */
const sweepable = (order: Order): boolean =>
  order.status === 'pending' && order.issuedTickets !== undefined && (!!order.boxOffice || !!order.checkout);

/**
 * The sweep of orders left `pending` by a function that died half-way (a Lambda timeout: no code of the request ran
 * after it), run by the every-minute job after its lapses (functions/jobs/release-reservations.ts). It reads the
 * orders' status index (GSI6, `pending`, every event's shards merged) oldest first up to the grace period, a
 * bounded walk (SWEEP_READ_BUDGET, SWEEP_ORDERS): no Scan, no partition read to its end. Then each:
 *
 * - a box-office sale is undone (undo-sale.ts, by `system`): its tickets cancelled, its hold back on sale, the
 *   order `expired` with its payment offset;
 * - a paid checkout is finished as the issuing consumer would (checkout-payment.ts `issuePaidOrder`: the buyer
 *   paid, so its remaining tickets are issued, never undone; the order `active`, the buyer mailed); one staff
 *   started cancelling is cancelled as the cancel's retry would (cancel-checkout.ts `stopIssuing`, by `system`).
 *
 * A checkout paid long after its checkout is `pending` since its payment, not its purchase: one still within the
 * grace period is passed over (it stays in the walk's reads, so a run reads past it). Running twice changes nothing
 * twice: each step is conditional on the order still `pending`. One order that fails is logged and left to the
 * next run.
 */
export async function sweepStuckOrders(budgetMs: number): Promise<SweepRun> {
  const started = Date.now();
  const before = new Date(now().getTime() - STUCK_ORDER_GRACE_MS).toISOString();
  const stuck = await oldestInStatus('pending', before, {
    need: SWEEP_ORDERS,
    budget: SWEEP_READ_BUDGET,
    keep: (order) => sweepable(order) && pendingSince(order) <= before,
  });
  const run: SweepRun = { undone: 0, resumed: 0 };
  for (const order of stuck) {
    if (Date.now() - started >= budgetMs) break;
    try {
      if (order.boxOffice) {
        if ((await undoSale(order.id, { kind: 'system' }))?.status === FAILED_SALE_STATUS) run.undone++;
      } else if (order.cancellation) {
        // Staff's cancel stopped the issue and its request died: finished as its retry would.
        if ((await stopIssuing(order, { kind: 'system' }, order.cancellation.force)).status !== 'pending')
          run.resumed++;
      } else {
        // The issuing consumer gave up on it (its retries spent, a poison record) or its function died.
        const status = await issuePaidOrder(order.id);
        if (status !== 'pending') run.resumed++;
        if (status === 'active') await invoiceOrFileDue([order.id]);
      }
    } catch (error) {
      logger.error('stuck order not swept', { orderId: order.id, error: error as Error });
    }
  }
  return run;
}
