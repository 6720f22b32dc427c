import * as z from '../../schema.ts';
import { requireSection } from '../../config.ts';
import { DEFAULT_RETRY_SCHEDULE, type RetrySchedule } from '../domain/webhook-retries.ts';
import type { ReceiverPolicy } from '../domain/receiver-address.ts';

/**
 * The webhook settings. Deployed stages set none of them (infra/webhooks.ts): the defaults
 * are the contract (retries over 3 days, 10-second attempts, https receivers on public
 * addresses only). The local stack and the tests shorten the schedule, and allow receivers
 * on http://127.0.0.1, which a Lambda refuses to start with.
 */
const milliseconds = (fallback: number, max = Number.MAX_SAFE_INTEGER) =>
  z._default(z.coerce.number().check(z.int(), z.positive(), z.maximum(max)), fallback);

const settings = requireSection(
  'webhooks',
  z.object({
    WEBHOOK_RETRY_BASE_MS: milliseconds(DEFAULT_RETRY_SCHEDULE.baseMs),
    WEBHOOK_RETRY_CAP_MS: milliseconds(DEFAULT_RETRY_SCHEDULE.capMs),
    WEBHOOK_GIVE_UP_AFTER_MS: milliseconds(DEFAULT_RETRY_SCHEDULE.giveUpAfterMs),
    /** One attempt's whole time (connect, send, answer); never more than 10 s. */
    WEBHOOK_ATTEMPT_TIMEOUT_MS: milliseconds(10_000, 10_000),
    /** The stream consumer's window for a batch's first attempts; never more than 1 s. */
    WEBHOOK_FIRST_ATTEMPTS_MS: milliseconds(1_000, 1_000),
    WEBHOOK_LOCAL_RECEIVERS: z._default(z.enum(['allow', 'refuse']), 'refuse'),
    AWS_LAMBDA_FUNCTION_NAME: z.optional(z.string()),
  }),
);

if (settings.WEBHOOK_LOCAL_RECEIVERS === 'allow' && settings.AWS_LAMBDA_FUNCTION_NAME)
  throw new Error('Invalid environment for webhooks: WEBHOOK_LOCAL_RECEIVERS=allow is for the local stack only.');

export const retrySchedule: RetrySchedule = {
  baseMs: settings.WEBHOOK_RETRY_BASE_MS,
  capMs: settings.WEBHOOK_RETRY_CAP_MS,
  giveUpAfterMs: settings.WEBHOOK_GIVE_UP_AFTER_MS,
};

export const attemptTimeoutMs = settings.WEBHOOK_ATTEMPT_TIMEOUT_MS;

/**
 * How long a stream batch's first attempts may take, all of them: 1 s deployed, so the next batch of
 * the shard (which waits for this one) is held a second at most whatever a receiver does, and a healthy receiver's
 * message arrives within 2 s of its change. An attempt still waiting at its end is recorded timed out, for the
 * dispatcher's retries with the whole attempt limit. The tests shorten it, to tell it from that limit.
 */
export const firstAttemptsMs = Math.min(settings.WEBHOOK_FIRST_ATTEMPTS_MS, settings.WEBHOOK_ATTEMPT_TIMEOUT_MS);

/** A route function's timeout (infra/route-function.ts): an attempt made inside a request must end well before it. */
export const ROUTE_FUNCTION_TIMEOUT_MS = 10_000;

/**
 * An attempt made inside a request (`POST …/ping`, `POST …/retry`): 3 s of the route function's 10 s (at most the
 * attempt's own limit), so that with the secret's read and the delivery's writes the request answers within half its
 * timeout whatever the receiver does. An attempt past it is recorded timed out ("no answer within").
 */
export const requestAttemptTimeoutMs = Math.min(attemptTimeoutMs, 3_000);

/**
 * How long a request's attempt holds its delivery: the route function cannot run past its timeout, so a claim its
 * crash left (it never recorded the answer) runs out 5 s after that, not the background attempts' minute.
 */
export const requestClaimMs = ROUTE_FUNCTION_TIMEOUT_MS + 5_000;

export const receiverPolicy: ReceiverPolicy = { allowLoopbackHttp: settings.WEBHOOK_LOCAL_RECEIVERS === 'allow' };
