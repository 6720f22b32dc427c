import type { AdminPrincipal } from '../../auth/tokens.ts';
import { now } from '../../clock.ts';
import { requireSlots } from '../../data/rate-limits.ts';
import { deliveriesBetween } from '../data/webhook-redelivery.ts';
import { type StoredDelivery, updateDelivery } from '../data/webhooks.ts';
import type { RedeliveryRequest, RedeliveryResult } from '../domain/redelivery.ts';
import { DELIVERY_RETENTION_MS, type Webhook } from '../domain/webhooks.ts';
import { Conflict, ValidationError } from '../../errors.ts';
import { deliveryTime, heldByAttempt } from '../domain/delivery-times.ts';
import { inTurns } from '../../in-turns.ts';
import { deliveryReadableBy } from './delivery-list.ts';
import { resendRefusal, resent } from './attempt-claims.ts';
import { visibleWebhook } from './subscriptions.ts';

/**
 * `POST /webhooks/{id}/deliveries/redeliver` (functions/jobs/README.md "Catching up"): a receiver
 * that was down asks, in one call, for every delivery of a time range that ended without being
 * delivered. Each is made due now, for the dispatcher, which sends it as it sends any retry
 * (claimed, one attempt at a time, checked against the subscription's aim and its administrator's
 * rights at the attempt); nothing is sent inline, so the call's time does not depend on the
 * receiver. Bounded: it looks at `limit` deliveries of the range at most (oldest first) and answers
 * `next` to continue from. Called twice, the second call finds them pending and leaves them. Deliveries
 * of tickets the caller may not read are left out, as if missing; `delivered` ones are not taken (the
 * contract: by id only, `…/retry`), and each subscription has REDELIVERY_RATE calls.
 */

/**
 * A delivery's key holds its change's commit time as the table's stream gives it (to the second,
 * from another clock than `created`'s): the range is read this much wider, then cut by `created`.
 */
const KEY_TIME_SLACK_MS = 60_000;
/** Deliveries written at once. */
const WRITES_AT_ONCE = 25;

/**
 * Each subscription's redelivery calls: at most 10 in any hour, each queueing up to 1,000, so
 * 10,000 messages an hour at most, about what the dispatcher sends one subscription in that time; past it 429 with
 * Retry-After (the sliding window of data/rate-limits.ts, counted per subscription whoever calls). Only a call that
 * gets as far as reading its range counts: a refusal (400, 404, 409) takes none.
 */
export const REDELIVERY_RATE = { calls: 10, windowSeconds: 3_600 } as const;

type Outcome = 'queued' | 'alreadyQueued' | 'refused' | 'ignored';

export async function redeliverFor(
  caller: Pick<AdminPrincipal, 'id' | 'eventScope'>,
  webhookId: number,
  request: RedeliveryRequest,
): Promise<RedeliveryResult> {
  const webhook = await visibleWebhook(caller, webhookId);
  if (!webhook.enabled)
    throw new Conflict(
      `Webhook ${webhookId} is disabled: turn it on (PATCH {"enabled": true}) first, then redeliver what it missed.`,
      'webhook_disabled',
    );
  const at = now();
  // Older deliveries are gone, or about to be (TTL deletes late): none is sent past its retention.
  const from = Math.max(Date.parse(request.from), at.getTime() - DELIVERY_RETENTION_MS);
  const to = Date.parse(request.to);
  if (from >= to) return { queued: 0, alreadyQueued: 0, refused: 0, next: null };
  const ids = { from: deliveryTime(from - KEY_TIME_SLACK_MS), to: `${deliveryTime(to + KEY_TIME_SLACK_MS)}.` };
  const after = request.continueFrom;
  if (after !== undefined && (after < ids.from || after > ids.to))
    throw new ValidationError('continueFrom is not a `next` of this range: send the same from and to as before.', [
      { path: 'body.continueFrom', message: 'not within from and to' },
    ]);
  await requireSlots(
    [
      {
        name: 'WEBHOOK_REDELIVERY',
        subject: String(webhookId),
        limit: REDELIVERY_RATE.calls,
        windowSeconds: REDELIVERY_RATE.windowSeconds,
      },
    ],
    ({ limit }) => `At most ${limit} redeliveries of webhook ${webhookId} in an hour; try again later.`,
  );
  const page = await deliveriesBetween(webhookId, ids, { limit: request.limit, after });
  // Outside the range, or of a ticket the caller may not read: not looked at, as if missing.
  const inRange = page.items.filter(
    (d) => Date.parse(d.created) >= from && Date.parse(d.created) < to && deliveryReadableBy(caller, d),
  );
  const outcomes = await inTurns(inRange, WRITES_AT_ONCE, (delivery) =>
    redeliver(delivery, webhook, new Set(request.statuses), at),
  );
  const count = (outcome: Outcome) => outcomes.filter((o) => o === outcome).length;
  return { queued: count('queued'), alreadyQueued: count('alreadyQueued'), refused: count('refused'), next: page.next };
}

/** One delivery of the range: made due now if it is of the states asked for and may be sent again. */
async function redeliver(
  delivery: StoredDelivery,
  webhook: Webhook,
  statuses: ReadonlySet<string>,
  at: Date,
): Promise<Outcome> {
  const pending = delivery.status === 'pending';
  // Pending: sent on its schedule anyway; brought forward only when asked for, and not when it is due already.
  const waiting = pending && !heldByAttempt(delivery, at) && Date.parse(delivery.nextAttemptAt!) > at.getTime();
  if (pending && !(statuses.has('pending') && waiting)) return 'alreadyQueued';
  if (!statuses.has(delivery.status)) return 'ignored';
  // The single retry's rules: never to another url or administrator, never while an attempt holds it.
  const refusal = resendRefusal(delivery, webhook, at);
  if (refusal) return refusal.reason === 'webhook_reaimed' ? 'refused' : 'alreadyQueued';
  // Conditional on its attempt count: an attempt that took it since it was read wins, and it is left to that one.
  return (await updateDelivery(resent(delivery, at, { claim: false }), delivery.attempts)) ? 'queued' : 'alreadyQueued';
}
