import {
  DELIVERY_STATUSES,
  type Delivery,
  PING_TYPE,
  SUBSCRIBABLE_TYPE_NAMES,
  type SigningSecret,
  type Webhook,
} from '../domain/webhooks.ts';
import * as z from '../../schema.ts';
import { parseItem, storedSchema } from '../../data/stored-items.ts';

/**
 * Webhook subscriptions and deliveries as stored (their keys: keys.ts; their writes: webhooks.ts): each one's schema
 * and `fromItem`, the one way their items become values (client.ts `parseItem`).
 */

/**
 * A delivery as stored: its record, plus when its retry window started (its creation, or a
 * manual retry), and while an attempt holds it, until when (absent otherwise).
 */
export type StoredDelivery = Delivery & { windowStart: string; claimedUntil?: string };

const SigningSecretItem = storedSchema<SigningSecret>()(
  z.lazy(() =>
    z.object({
      // A plain string is one stored before secrets were encrypted (migration 7 seals it).
      secret: z.union([
        z.string(),
        z.object({ enc: z.literal('v1'), kid: z.string(), iv: z.string(), tag: z.string(), data: z.string() }),
      ]),
      expiresAt: z.optional(z.string()),
    }),
  ),
);

const WebhookItem = storedSchema<Webhook>()(
  z.lazy(() =>
    z.object({
      id: z.number(),
      url: z.string(),
      events: z.array(z.enum(SUBSCRIBABLE_TYPE_NAMES)),
      eventIds: z.nullable(z.array(z.number())),
      enabled: z.boolean(),
      description: z.string(),
      createdBy: z.number(),
      actsFor: z.optional(z.number()),
      disabledReason: z.nullable(z.string()),
      failingSince: z.nullable(z.string()),
      secrets: z.array(SigningSecretItem),
      created: z.string(),
      updated: z.string(),
    }),
  ),
);

// Its TTL (`expiresAt`) is the table's, not the delivery's: parsing leaves it out with the keys.
const DeliveryItem = storedSchema<StoredDelivery>()(
  z.lazy(() =>
    z.object({
      webhookId: z.number(),
      id: z.string(),
      messageId: z.string(),
      type: z.enum([...SUBSCRIBABLE_TYPE_NAMES, PING_TYPE]),
      ticketId: z.nullable(z.number()),
      eventIds: z.array(z.number()),
      body: z.string(),
      url: z.optional(z.string()),
      actsFor: z.optional(z.number()),
      status: z.enum(DELIVERY_STATUSES),
      attempts: z.number(),
      lastStatus: z.nullable(z.number()),
      lastError: z.nullable(z.string()),
      created: z.string(),
      lastAttemptAt: z.nullable(z.string()),
      nextAttemptAt: z.nullable(z.string()),
      windowStart: z.string(),
      claimedUntil: z.optional(z.string()),
    }),
  ),
);

export const webhookFromItem = (item: Record<string, unknown>): Webhook => parseItem(WebhookItem, item, 'webhook');

/** A delivery as read (webhook-due.ts and webhook-redelivery.ts read them too). */
export const fromDeliveryItem = (item: Record<string, unknown>): StoredDelivery =>
  parseItem(DeliveryItem, item, 'webhook delivery');
