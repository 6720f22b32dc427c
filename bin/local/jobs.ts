import { startOrderIssuer } from './order-issuer.ts';
import { startReservationLapser } from './reservation-lapser.ts';
import { startWebhookWorkers, type WebhookWorkers } from './webhook-workers.ts';

/**
 * What a stage runs beside its routes, in-process for `npm start` (bin/dev.ts) and the heat bench
 * (bin/bench/heat.ts), so both run the same jobs: the table stream's consumer and the webhook dispatcher
 * (infra/webhooks.ts), the paid orders' issue behind the Stripe webhook (infra/paid-order-issuing.ts), and the
 * reservations' lapsing on a timer (infra/reservations.ts). A job added to a stage
 * is started here. Load it after the environment is set: it imports shared/.
 */
export interface LocalJobs {
  webhooks: WebhookWorkers;
  /** Resolves once every change written so far has been handed to the stream's consumers and handled. */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

export async function startLocalJobs(options: {
  tableName: string;
  /**
   * Where the ticket changes' consumer starts: TRIM_HORIZON, as the deployed mapping (infra/webhooks.ts), for a table
   * whose first writes it must see (`npm start` seeds its demo before the jobs start: their search entries); LATEST
   * (the default) where a run counts only what it writes after the start (the heat bench).
   */
  startingPosition?: 'LATEST' | 'TRIM_HORIZON';
}): Promise<LocalJobs> {
  const webhooks = await startWebhookWorkers({
    tableName: options.tableName,
    ...(options.startingPosition && { startingPosition: options.startingPosition }),
  });
  const lapser = startReservationLapser();
  const issuer = await startOrderIssuer({ tableName: options.tableName });
  return {
    webhooks,
    drain: () => webhooks.drain(),
    async stop() {
      await webhooks.stop();
      await issuer.stop();
      await lapser.stop();
    },
  };
}
