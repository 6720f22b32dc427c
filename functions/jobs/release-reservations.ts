import type { Context } from 'aws-lambda';
import { logger } from '#shared/logger';
import { sweepStuckOrders } from '#shared/selling/use-cases/sweep-stuck-orders';
import { lapseDueReservations } from '#shared/selling/use-cases/lapse-reservations';
import { numberInvoicesDue } from '#shared/selling/use-cases/invoices-due';

/** Time kept back from the function's limit: no minute starts within it. */
const MARGIN_MS = 10_000;

/**
 * Lapses the reservations whose minutes ran out, their tickets on sale again, then sweeps the orders a dead function
 * left `pending` past the grace period: a box-office sale undone, a paid checkout finished
 * (shared/selling/use-cases/sweep-stuck-orders.ts), then numbers the invoices filed as due when their numbering failed
 * (shared/selling/use-cases/invoices-due.ts). infra/reservations.ts runs it every minute; `npm start` on a timer,
 * bin/local/reservation-lapser.ts. Not a route.
 */
export async function handler(_event: unknown, context?: Pick<Context, 'getRemainingTimeInMillis'>): Promise<void> {
  const started = Date.now();
  const remaining = () => (context?.getRemainingTimeInMillis() ?? 60_000 - (Date.now() - started)) - MARGIN_MS;
  const run = await lapseDueReservations(remaining());
  if (run.lapsed) logger.info('reservations lapsed', { ...run });
  const swept = await sweepStuckOrders(remaining());
  if (swept.undone || swept.resumed) logger.info('stuck orders swept', { ...swept });
  const invoiced = await numberInvoicesDue(remaining());
  if (invoiced.numbered || invoiced.stillDue) logger.info('invoices due numbered', { ...invoiced });
}
