import * as z from '../../schema.ts';
import { EVENT_CHANGE_TYPE_NAMES, type EventChangeType } from './event-webhooks.ts';
import type { TicketAction } from '../../tickets/domain/ticket-history.ts';

/**
 * Webhooks (README "Webhooks"): subscriptions an administrator registers, and the messages
 * each ticket change becomes. Ours, beyond the spec (which describes no outbound calls).
 *
 * One event type per action of the ticket history (ticket-history.ts), so every change the
 * API makes to a ticket has exactly one type, named for what happened.
 */
export const TICKET_EVENT_TYPES = {
  create: 'ticket.created',
  edit: 'ticket.updated',
  check_in: 'ticket.checked_in',
  access_scan: 'ticket.access_scanned',
  undo_check_in: 'ticket.check_in_undone',
  transfer: 'ticket.transferred',
  delete: 'ticket.deleted',
  states: 'ticket.state_changed',
  profile_photo: 'ticket.profile_photo_changed',
  claim: 'ticket.claim_opened',
  claimant: 'ticket.claimant_changed',
  claimed: 'ticket.claimed',
  cancel_order: 'ticket.order_cancelled',
  force_cancel_order: 'ticket.order_cancelled_forced',
} as const satisfies Record<TicketAction, string>;

export type TicketEventType = (typeof TICKET_EVENT_TYPES)[TicketAction];
export const TICKET_EVENT_TYPE_NAMES = Object.values(TICKET_EVENT_TYPES) as [TicketEventType, ...TicketEventType[]];
/** What a subscription may choose: every ticket change's type, and the events routes' (event-webhooks.ts). */
export type SubscribableType = TicketEventType | EventChangeType;
export const SUBSCRIBABLE_TYPE_NAMES = [...TICKET_EVENT_TYPE_NAMES, ...EVENT_CHANGE_TYPE_NAMES] as [
  SubscribableType,
  ...SubscribableType[],
];
/** `POST /webhooks/{id}/ping` sends this one: it is never subscribed to, every subscription can be pinged. */
export const PING_TYPE = 'webhook.ping';
export type WebhookMessageType = SubscribableType | typeof PING_TYPE;

/** At most this many subscriptions in all: each ticket change is matched against every one of them. */
export const MAX_WEBHOOKS = 50;
/** A subscription's event filter, at most this many events. */
export const MAX_WEBHOOK_EVENT_IDS = 100;

/**
 * A signing secret as stored: AES-256-GCM ciphertext of `whsec_…` under the stage's webhook
 * secrets key `kid` (shared/webhooks/services/webhook-secret-box.ts), bound to its subscription's id.
 * A plain string is one stored before secrets were encrypted (migration 7 seals it).
 */
export interface SealedSecret {
  enc: 'v1';
  kid: string;
  iv: string;
  tag: string;
  data: string;
}

/** A signing secret (`whsec_` + base64 of 32 random bytes); a rotated-out one signs until `expiresAt`. */
export interface SigningSecret {
  secret: string | SealedSecret;
  /** ISO-8601; absent on the current secret. */
  expiresAt?: string;
}

/**
 * A subscription as stored: what the API answers of it (`WebhookResource`, below), its aim as recorded (`actsFor`,
 * absent: its creator's) and its signing secrets, never answered.
 */
export interface Webhook extends Omit<WebhookResource, 'actsFor'> {
  /**
   * The administrator who last aimed it (set its url, events or eventIds): deliveries are made
   * for them, with their permissions at delivery time. Absent on a subscription stored before
   * it was recorded and not aimed since: its creator (`actingFor`).
   */
  actsFor?: number;
  secrets: SigningSecret[];
}

/** The administrator a subscription delivers for. */
export const actingFor = (webhook: Pick<Webhook, 'actsFor' | 'createdBy'>): number =>
  webhook.actsFor ?? webhook.createdBy;

/**
 * Whether a stored message may go to the subscription as it is aimed now: only to the url, and
 * for the administrator, it was recorded for. A message recorded before deliveries kept their
 * aim goes only to a subscription nobody aimed since.
 */
export const aimedAsRecorded = (
  delivery: Pick<Delivery, 'url' | 'actsFor'>,
  webhook: Pick<Webhook, 'url' | 'actsFor' | 'createdBy'>,
): boolean =>
  delivery.url === undefined
    ? webhook.actsFor === undefined
    : delivery.url === webhook.url && delivery.actsFor === actingFor(webhook);

/** Why a stored message is not sent to a subscription aimed since it was recorded. */
export const REAIMED = 'the webhook was aimed again (its url or administrator changed) after this message was recorded';

/** Reasons a subscription turns itself off. */
export const DISABLED_GONE = 'the receiver answered 410 Gone';
export const disabledFailing = (window: string) => `every delivery failed for ${window}`;

/** A retry window in words: `3 days`, `1 minute` (the tests' window). */
export function windowInWords(ms: number): string {
  const [unit, size] =
    ms >= 86_400_000 ? ['day', 86_400_000] : ms >= 3_600_000 ? ['hour', 3_600_000] : ['minute', 60_000];
  const count = Math.max(1, Math.round(ms / (size as number)));
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** The secrets that sign now: the current one, and a rotated-out one for its last 24 hours. */
export const signingSecrets = (webhook: Pick<Webhook, 'secrets'>, at: Date): SigningSecret['secret'][] =>
  webhook.secrets.filter((s) => !s.expiresAt || Date.parse(s.expiresAt) > at.getTime()).map((s) => s.secret);

/** How long a rotated-out secret still signs, so receivers can switch without losing a message. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** Whether a subscription wants a change of this type to a ticket of these events (own, and those its type admits to), or to this event. */
export function wants(
  webhook: Pick<Webhook, 'enabled' | 'events' | 'eventIds'>,
  type: SubscribableType,
  ticketEvents: readonly number[],
): boolean {
  if (!webhook.enabled) return false;
  return covers(webhook, type, ticketEvents);
}

/** Whether a subscription, on or off, covers a change of this type to a ticket of these events. */
export function covers(
  webhook: Pick<Webhook, 'events' | 'eventIds'>,
  type: SubscribableType,
  ticketEvents: readonly number[],
): boolean {
  if (!webhook.events.includes(type)) return false;
  return !webhook.eventIds || ticketEvents.some((eventId) => webhook.eventIds!.includes(eventId));
}

/**
 * A delivery's state: waiting for its next attempt, delivered, given up (dead), not to be sent
 * (cancelled), or recorded while its subscription was disabled and never attempted (skipped: sent
 * by `…/retry`, or a time range's by `…/deliveries/redeliver`, once it is on again).
 */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'dead', 'cancelled', 'skipped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One message to one subscription, and its attempts: what the API answers of it (`DeliveryResource`, below), its type
 * as the service knows it, and what only the dispatcher reads.
 */
export interface Delivery extends Omit<DeliveryResource, 'type'> {
  type: WebhookMessageType;
  /** The ticket's events (own first), or the changed event: the creator's scope is checked against them at each attempt. */
  eventIds: number[];
  /** The JSON body, fixed when the change was read, so every attempt sends the same bytes. */
  body: string;
  /** The subscription's url and administrator when it was recorded: it goes nowhere else, for nobody else (absent on older ones). */
  url?: string;
  actsFor?: number;
}

/** Deliveries are kept this long after their creation (then expire): the furthest back a redelivery reaches. */
export const DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** Whether a delivery is a ping (sent whatever the subscription's state, readable by whoever manages it). */
export const isPing = (delivery: Pick<Delivery, 'type'>): boolean => delivery.type === PING_TYPE;

/** The message id of a delivery: the `webhook-id` header. */
export const messageIdOf = (webhookId: number, deliveryId: string) => `msg_${webhookId}_${deliveryId}`;

// The contract of the /webhooks routes.

const WebhookUrl = z.lazy(() => z.string().check(z.minLength(1), z.maxLength(2048)));
const Description = z.lazy(() => z.string().check(z.maxLength(500)));
const EventTypes = z.lazy(() =>
  z
    .array(z.enum(SUBSCRIBABLE_TYPE_NAMES))
    .check(z.minLength(1, 'events must name at least one event type'), z.maxLength(SUBSCRIBABLE_TYPE_NAMES.length)),
);
const EventIds = z.lazy(() =>
  z.nullable(
    z
      .array(z.int().check(z.positive(), z.maximum(Number.MAX_SAFE_INTEGER)))
      .check(
        z.minLength(1, 'eventIds must name at least one event, or be null for all'),
        z.maxLength(MAX_WEBHOOK_EVENT_IDS),
      ),
  ),
);

export const NewWebhook = z.lazy(() =>
  z.strictObject({
    url: WebhookUrl,
    events: EventTypes,
    eventIds: z.optional(EventIds),
    enabled: z.optional(z.boolean()),
    description: z.optional(Description),
  }),
);
export type NewWebhook = z.infer<typeof NewWebhook>;

export const WebhookPatch = z.lazy(() =>
  z.strictObject({
    url: z.optional(WebhookUrl),
    events: z.optional(EventTypes),
    eventIds: z.optional(EventIds),
    enabled: z.optional(z.boolean()),
    description: z.optional(Description),
  }),
);
export type WebhookPatch = z.infer<typeof WebhookPatch>;

export const WebhookResource = z.object({
  id: z.int(),
  url: z.string(),
  events: z.array(z.enum(SUBSCRIBABLE_TYPE_NAMES)),
  /** Only these events' tickets and changes; null: every event the creator may read. */
  eventIds: z.nullable(z.array(z.int())),
  enabled: z.boolean(),
  description: z.string(),
  /** The administrator who created it. */
  createdBy: z.int(),
  /** The administrator deliveries are made for (`actingFor`). */
  actsFor: z.int(),
  /** Why it was turned off by the service (410 Gone, failing for days); null when enabled or turned off by a person. */
  disabledReason: z.nullable(z.string()),
  /** The first failed attempt since the last delivered one (ISO-8601); null while healthy. */
  failingSince: z.nullable(z.string()),
  created: z.string(),
  updated: z.string(),
});
export type WebhookResource = z.infer<typeof WebhookResource>;

/** Creation and rotation answer the subscription with its new secret, shown this once. */
export const WebhookWithSecret = z.lazy(() => z.extend(WebhookResource, { secret: z.string() }));
/**
 * Creation's answer: with `secret`, except on a replay of the same `Idempotency-Key`
 * (`Idempotent-Replayed: true`), which never has it: the idempotency store keeps no secret.
 */
export const CreatedWebhook = z.lazy(() =>
  z.extend(WebhookResource, {
    secret: z.optional(
      z
        .string()
        .check(
          z.describe(
            'The signing secret, shown this once; absent on a replayed answer (`Idempotent-Replayed: true`): rotate the secret if the first answer was lost.',
          ),
        ),
    ),
  }),
);

export const toWebhookResource = ({ secrets, actsFor, ...webhook }: Webhook): WebhookResource => ({
  ...webhook,
  actsFor: actingFor({ actsFor, createdBy: webhook.createdBy }),
});

export const DeliveryResource = z.lazy(() =>
  z.object({
    /** Sorts by creation: `<epoch ms:13>-<ticket id>-<version>`, `<epoch ms:13>-event-<event id>-<version>`, or `<epoch ms:13>-ping-<hex>`. */
    id: z.string(),
    webhookId: z.int(),
    /** The `webhook-id` header: the same on every attempt, so a receiver can drop a repeat. */
    messageId: z.string(),
    type: z.string(),
    /** null for an event change's message and a ping. */
    ticketId: z.nullable(z.int()),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.int(),
    /** The receiver's last HTTP status; null before an answer. */
    lastStatus: z.nullable(z.int()),
    /** Why the last attempt failed or the delivery was cancelled; null when it did not. */
    lastError: z.nullable(z.string()),
    created: z.string(),
    lastAttemptAt: z.nullable(z.string()),
    /** When the dispatcher tries again (pending only). */
    nextAttemptAt: z.nullable(z.string()),
  }),
);
export type DeliveryResource = z.infer<typeof DeliveryResource>;

export const toDeliveryResource = (delivery: Delivery): DeliveryResource => ({
  id: delivery.id,
  webhookId: delivery.webhookId,
  messageId: delivery.messageId,
  type: delivery.type,
  ticketId: delivery.ticketId,
  status: delivery.status,
  attempts: delivery.attempts,
  lastStatus: delivery.lastStatus,
  lastError: delivery.lastError,
  created: delivery.created,
  lastAttemptAt: delivery.lastAttemptAt,
  nextAttemptAt: delivery.nextAttemptAt,
});
