/**
 * A redelivery's call and answer (`POST /webhooks/{id}/deliveries/redeliver`, functions/jobs/README.md "Catching
 * up"): the one schema the route validates with and the use case takes its type from.
 */
import * as z from '../../schema.ts';
import { instant } from '../../request-fields.ts';
import { DELIVERY_RETENTION_MS } from './webhooks.ts';

/** A delivery's id: `<epoch ms:13>-<ticket id>-<version>` or `<epoch ms:13>-ping-<hex>`. */
export const DeliveryId = z.lazy(() =>
  z
    .string()
    .check(
      z.maxLength(64, 'deliveryId must be at most 64 characters'),
      z.regex(/^\d{13}-(?:\d{1,15}-\d{1,15}|ping-[0-9a-f]{8})$/, 'deliveryId is not a delivery id'),
    ),
);

/** At most this many deliveries of the range are looked at (and so queued) by one call; `next` continues. */
export const MAX_REDELIVER = 1000;
/**
 * The states a redelivery may name; by default every state a delivery ends in without being delivered. Not
 * `delivered`: a range of messages the receiver had would flood it again, so a delivered one is
 * sent again only when named, by its id (`POST …/deliveries/{deliveryId}/retry`).
 */
export const REDELIVERABLE = ['dead', 'cancelled', 'skipped', 'pending'] as const;
export const DEFAULT_REDELIVERED: readonly (typeof REDELIVERABLE)[number][] = ['dead', 'cancelled', 'skipped'];
const RETENTION_DAYS = DELIVERY_RETENTION_MS / 86_400_000;

export const RedeliveryRequest = z.lazy(() =>
  z
    .strictObject({
      from: instant('from', 'from'),
      to: instant('to', 'to'),
      statuses: z._default(
        z
          .array(
            z.enum(REDELIVERABLE, {
              error: `statuses may name ${REDELIVERABLE.join(', ')}; a delivered message is sent again by its id: POST /webhooks/{id}/deliveries/{deliveryId}/retry`,
            }),
          )
          .check(
            z.minLength(1, 'statuses must name at least one state, or be left out for dead, cancelled and skipped'),
            z.maxLength(REDELIVERABLE.length),
          ),
        () => [...DEFAULT_REDELIVERED],
      ),
      limit: z._default(
        z
          .int()
          .check(
            z.minimum(1, 'limit must be at least 1'),
            z.maximum(MAX_REDELIVER, `limit must be at most ${MAX_REDELIVER}`),
          ),
        MAX_REDELIVER,
      ),
      continueFrom: z.optional(DeliveryId),
    })
    .check(
      z.refine((body) => body.from < body.to, { message: 'to must be after from', path: ['to'] }),
      z.refine((body) => Date.parse(body.to) - Date.parse(body.from) <= DELIVERY_RETENTION_MS, {
        message: `from and to may be at most ${RETENTION_DAYS} days apart (deliveries are kept ${RETENTION_DAYS} days)`,
        path: ['to'],
      }),
    ),
);
export type RedeliveryRequest = z.output<typeof RedeliveryRequest>;

export const RedeliveryResult = z.lazy(() =>
  z.strictObject({
    queued: z
      .int()
      .check(
        z.minimum(0),
        z.describe('Deliveries made due now: the dispatcher sends them within a minute, oldest first.'),
      ),
    alreadyQueued: z
      .int()
      .check(
        z.minimum(0),
        z.describe(
          'Deliveries of the range already waiting for an attempt, or in one: left as they are (sent once, on their schedule).',
        ),
      ),
    refused: z
      .int()
      .check(
        z.minimum(0),
        z.describe(
          'Deliveries of the named states recorded for another url or administrator than the webhook has now: not sent (as `…/retry` refuses them, 409 `webhook_reaimed`).',
        ),
      ),
    next: z.nullable(
      z
        .string()
        .check(
          z.describe(
            'Null when the whole range was looked at; otherwise more deliveries remain: call again with the same body and this as `continueFrom`.',
          ),
        ),
    ),
  }),
);
export type RedeliveryResult = z.infer<typeof RedeliveryResult>;
