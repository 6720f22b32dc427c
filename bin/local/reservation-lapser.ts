import { logger } from '#shared/logger';
import { handler as releaseReservations } from '../../functions/jobs/release-reservations.ts';
import { runAs } from './invoke.ts';

/**
 * The reservations' lapsing job (infra/reservations.ts runs it every minute), in-process for
 * `npm start` on a shorter timer, one run at a time. Load it after the environment is set.
 */
export function startReservationLapser(everyMs = 5_000): { stop(): Promise<void> } {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    running ??= runAs('release-reservations', () => releaseReservations({}))
      .catch((error: unknown) => logger.error('reservation lapsing run failed', { error }))
      .finally(() => {
        running = undefined;
      });
  }, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
