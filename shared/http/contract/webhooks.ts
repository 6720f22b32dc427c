/** The contract of the /webhooks routes (`functions/webhooks/`): what they accept and answer. */
import * as z from '../../schema.ts';
import { pagingQuery, wholeNumber } from '../paging.ts';

export {
  CreatedWebhook,
  DeliveryResource,
  NewWebhook,
  WebhookPatch,
  WebhookResource,
  WebhookWithSecret,
} from '../../domain/webhooks.ts';

/** A delivery's id: `<epoch ms:13>-<ticket id>-<version>` or `<epoch ms:13>-ping-<hex>`. */
export const PathDelivery = z.strictObject({
  id: wholeNumber('id', { positive: true }),
  deliveryId: z
    .string()
    .check(
      z.maxLength(64, 'deliveryId must be at most 64 characters'),
      z.regex(/^\d{13}-(?:\d{1,15}-\d{1,15}|ping-[0-9a-f]{8})$/, 'deliveryId is not a delivery id'),
    ),
});

/** The deliveries' page: newest first, walked by `_cursor` (the previous page's `next`). */
export const DeliveriesQuery = z.strictObject({
  _limit: pagingQuery._limit,
  _cursor: z.optional(PathDelivery.shape.deliveryId),
});

export const DeliveriesAnswer = <T extends z.ZodMiniType>(item: T) =>
  z.strictObject({
    count: z.int().check(z.minimum(0)),
    limit: z.int().check(z.minimum(1)),
    next: z.nullable(z.string()),
    data: z.array(item),
  });
