/** The contract of the /webhooks routes (`functions/webhooks/`): what they accept and answer. */
import * as z from '../../schema.ts';
import { DeliveryId } from '../domain/redelivery.ts';
import { pagingQuery, wholeNumber } from '../../request-fields.ts';

export {
  DeliveryId,
  MAX_REDELIVER,
  RedeliveryRequest,
  RedeliveryResult,
} from '../domain/redelivery.ts';
export {
  CreatedWebhook,
  DeliveryResource,
  NewWebhook,
  WebhookPatch,
  WebhookResource,
  WebhookWithSecret,
} from '../domain/webhooks.ts';

/** A delivery's path: its webhook and its id. */
export const PathDelivery = z.lazy(() =>
  z.strictObject({
    id: wholeNumber('id', { positive: true }),
    deliveryId: DeliveryId,
  }),
);

/** The deliveries' page: newest first, walked by `_cursor` (the previous page's `next`). */
export const DeliveriesQuery = z.lazy(() =>
  z.strictObject({
    _limit: pagingQuery._limit,
    _cursor: z.optional(DeliveryId),
  }),
);

export const DeliveriesAnswer = <T extends z.ZodMiniType>(item: T) =>
  z.strictObject({
    count: z.int().check(z.minimum(0)),
    limit: z.int().check(z.minimum(1)),
    next: z.nullable(z.string()),
    data: z.array(item),
  });
