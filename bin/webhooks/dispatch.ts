import type { Context } from 'aws-lambda';
import { logger } from '#shared/logger';
import { publishRecorded } from '#shared/services/metrics';
import { dispatchDueDeliveries } from '#shared/use-cases/webhooks/dispatch';

/** Time kept back from the function's limit: no attempt starts within it (each takes 10 s at most, then its write), and the metrics. */
const MARGIN_MS = 20_000;

/** The webhook dispatcher (infra/webhooks.ts runs it every minute; `npm start` on a timer): the due retries. */
export async function handler(_event: unknown, context?: Pick<Context, 'getRemainingTimeInMillis'>): Promise<void> {
  const remaining = context?.getRemainingTimeInMillis() ?? 60_000;
  try {
    const run = await dispatchDueDeliveries(remaining - MARGIN_MS);
    if (run.attempted) logger.info('webhook retries attempted', run);
  } finally {
    publishRecorded();
  }
}
