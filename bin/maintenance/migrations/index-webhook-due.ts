/**
 * One-off, after the release that gave each subscription its own due index (README "Webhooks",
 * functions/jobs/README.md "One receiver cannot slow the rest"): places every delivery still pending
 * from before in its subscription's due partition. Until it has run, those are found by the
 * dispatcher's read of the oldest due of all (GSI1) only, as before: delivered, but not shared
 * fairly. Migration 8 (catalogue.ts).
 *
 * Idempotent: a delivery already placed (written since the release) is left as it is, and one is
 * placed only while it is as read (shared/data/webhook-due.ts). Resumable: the pending deliveries
 * by creation, a page at a time, the next page's start kept (`MAINTENANCE#index-webhook-due` /
 * `CHECKPOINT#<run>`). Pending deliveries are few (a receiver's retries within their 3-day window).
 */
import { indexPendingBySubscription } from '#shared/data/webhook-due';
import { type RunOptions, type Stopped, scanCheckpointOf } from './runs.ts';

export interface IndexWebhookDueOutcome extends Stopped {
  /** Pending deliveries placed in their subscription's due partition. */
  placed: number;
}

const COMMAND = 'index-webhook-due';
const PAGE_SIZE = 100;

export async function indexWebhookDue({
  run = 'all',
  restart = false,
  progress,
  stop,
}: RunOptions = {}): Promise<IndexWebhookDueOutcome> {
  const outcome: IndexWebhookDueOutcome = { placed: 0 };
  const checkpoint = scanCheckpointOf(COMMAND, run);
  let start = restart ? undefined : await checkpoint.next();
  if (start === null) return outcome;
  let pages = 0;
  do {
    if (stop?.()) return { ...outcome, stopped: true };
    const page = await indexPendingBySubscription(start ?? undefined, PAGE_SIZE);
    outcome.placed += page.placed;
    start = page.next ?? null;
    await checkpoint.reached(start);
    progress?.(++pages, pages + (start ? 1 : 0));
  } while (start);
  return outcome;
}
