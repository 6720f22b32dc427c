import type { Context } from 'aws-lambda';
import { dispatcherJob } from '#shared/webhooks/use-cases/jobs';

/** Time kept back from the function's limit: no attempt starts within it (each takes 10 s at most, then its write), and the metrics. */
const MARGIN_MS = 20_000;

/** The webhook dispatcher (infra/webhooks.ts runs it every minute; `npm start` on a timer): the due retries. Not a route. */
export async function handler(_event: unknown, context?: Pick<Context, 'getRemainingTimeInMillis'>): Promise<void> {
  const remaining = context?.getRemainingTimeInMillis() ?? 60_000;
  await dispatcherJob(remaining - MARGIN_MS);
}
