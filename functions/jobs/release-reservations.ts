import type { Context } from 'aws-lambda';
import { logger } from '#shared/logger';
import { lapseDueReservations } from '#shared/use-cases/portal/lapse-reservations';

/** Time kept back from the function's limit: no minute starts within it. */
const MARGIN_MS = 10_000;

/**
 * Lapses the reservations whose minutes ran out, their tickets on sale again (infra/reservations.ts
 * runs it every minute; `npm start` on a timer, bin/local/webhook-workers.ts). Not a route.
 */
export async function handler(_event: unknown, context?: Pick<Context, 'getRemainingTimeInMillis'>): Promise<void> {
  const remaining = context?.getRemainingTimeInMillis() ?? 60_000;
  const run = await lapseDueReservations(remaining - MARGIN_MS);
  if (run.lapsed) logger.info('reservations lapsed', { ...run });
}
