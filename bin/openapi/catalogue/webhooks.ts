import { MAX_WEBHOOK_EVENT_IDS, MAX_WEBHOOKS } from '#shared/webhooks/domain/webhooks';
import { MAX_REDELIVER } from '#shared/webhooks/contract/webhooks';
import { type Entries, md } from './common.ts';

/** The `webhooks` tag: subscriptions to ticket changes (ours; the spec describes no outbound calls). */
export const WEBHOOKS_TAG = md(
  'Webhooks: every change the API makes to a ticket, and every change the events routes make to an event, pushed to the URLs you subscribe, within seconds. The message types and bodies are in the `webhooks` section of this document: one per action of the ticket history, and `event.created`, `event.updated`, `event.published`, `event.unpublished`, `event.deleted` (an event change is scoped as a ticket of that event: a subscription naming other events in `eventIds` does not have it).',
  `A subscription has a \`url\` (https, on a public address: loopback, private, link-local, unique-local and cloud metadata addresses and names are refused, a 400 naming \`url\`, and checked again on the address each attempt connects to), the \`events\` (types) it wants, an optional \`eventIds\` filter (at most ${MAX_WEBHOOK_EVENT_IDS}; null for every event), \`enabled\` and a \`description\`. At most ${MAX_WEBHOOKS} subscriptions exist at once (409 \`too_many_webhooks\`).`,
  "Messages are signed the Standard Webhooks way (`webhook-id`, `webhook-timestamp`, `webhook-signature`) with a `whsec_` secret shown once, at creation and at each rotation. A message carries the ticket as `GET /tickets/{id}` shows it to the subscription's administrator (`actsFor`), the fields that changed with their previous values, and the ticket's `sequence`: keep the highest per ticket and drop an older message that arrives late. Delivery is at least once (the same `webhook-id` on a repeat).",
  "A subscription delivers for the administrator who last aimed it (`actsFor`): whoever sets `url`, `events` or `eventIds`, at creation or in a `PATCH` (even to the same values), becomes that administrator and must hold `tickets:read`, and `events:read` when `events` names an `event.*` type (403 otherwise, nothing changed); a `description` or `enabled` change leaves it as it is. A delivery is made with that administrator's permissions at the time of the attempt: when they are removed, lose `webhooks:manage`, `tickets:read` or (for `event.*` types) `events:read`, or no longer reach all of its `eventIds`, the subscription is disabled, `disabledReason` says why, and another administrator takes it over by aiming it; a ticket outside their events (an access package's other event) is `cancelled`. A message is stored with the url and administrator it was recorded for and goes to no other: once the subscription is aimed again, its older pending deliveries end `cancelled` and a retry of an older one is refused (409 `webhook_reaimed`). Administrators limited to some events subscribe only within them (`eventIds` required, each in scope) and see only such subscriptions.",
  'A delivery is listed once its first attempt has ended (seconds after the change), then `pending` (waiting for its next attempt), `delivered`, `dead` (3 days of failures, or 410 Gone), `cancelled` (subscription deleted or disabled at its attempt, aimed elsewhere since, or its administrator may no longer read the ticket) or `skipped` (recorded while the subscription was disabled, never attempted: `…/retry`, or `…/deliveries/redeliver` for a time range, sends it once it is on again).',
);

export const WEBHOOKS = {
  'POST /webhooks': {
    summary: 'Subscribe to ticket changes',
    description:
      'Answers the subscription with `secret`, its signing secret: shown this once. The caller becomes the administrator it delivers for (`actsFor`) and needs `tickets:read` (403 otherwise). A replay of the same `Idempotency-Key` answers the subscription without `secret`: the idempotency store never keeps a secret (rotate it if the first answer was lost).',
    conflicts: ['too_many_webhooks'],
    example: {
      url: 'https://timing.example.com/hooks/ticketing',
      events: ['ticket.checked_in', 'ticket.updated'],
      eventIds: [7],
      description: 'Chip numbers for the timing system',
    },
  },
  'GET /webhooks': { summary: 'List webhook subscriptions', description: 'Never shows a secret.' },
  'GET /webhooks/{id}': { summary: 'Get a webhook subscription' },
  'PATCH /webhooks/{id}': {
    summary: 'Update a webhook subscription',
    description:
      'Only the fields sent change. Sending `url`, `events` or `eventIds` aims the subscription: the caller becomes `actsFor` and needs `tickets:read` (and `events:read` for `event.*` types; 403 otherwise, nothing changed). `enabled: true` turns a subscription the service disabled back on and clears `disabledReason` and `failingSince`; one whose administrator lost the right (removed, without `tickets:read`, or no longer reaching its events) is turned on only by aiming it too (409 `webhook_aim_lost` otherwise): the caller takes it over.',
    conflicts: ['stale_version', 'webhook_aim_lost'],
  },
  'DELETE /webhooks/{id}': {
    summary: 'Delete a webhook subscription',
    description: 'Nothing is sent to it afterwards: its pending deliveries end `cancelled`.',
  },
  'POST /webhooks/{id}/rotate-secret': {
    summary: "Rotate a webhook's signing secret",
    description:
      "Answers the new `secret`, shown this once. For 24 hours every message carries two signatures, the new secret's and the previous one's, so a receiver can switch without losing a message.",
    conflicts: ['stale_version'],
  },
  'GET /webhooks/{id}/deliveries': {
    summary: "List a webhook's deliveries",
    description:
      "Newest first, walked by `next`: pass it as `_cursor` for the following page (null on the last). Deliveries are kept 30 days. An administrator limited to some events sees a ticket's delivery only when they may read the ticket (its event or an access package's event in their scope): a subscription narrowed since keeps older deliveries of other events, and to them those look missing, here, to `…/retry` (404) and to `…/redeliver`. So a page may hold fewer than `_limit` (even none) while `next` goes on.",
    parameters: { _cursor: 'The `next` of the previous page.' },
  },
  'POST /webhooks/{id}/deliveries/redeliver': {
    summary: "Redeliver a time range's undelivered messages",
    description: md(
      "For a receiver that was down: one call makes every delivery of the subscription created in `[from, to)` that ended `dead`, `cancelled` or `skipped` (or the `statuses` named: `pending` to bring waiting retries forward; never `delivered`, 400: a message the receiver had is sent again only when named, by its id, with `…/deliveries/{deliveryId}/retry`) due now, with a fresh 3-day retry window. The dispatcher sends them within a minute, oldest first, as any retry: one attempt at a time, each message with its own `webhook-id`, checked against the subscription's aim and its administrator's rights at the attempt. `202` says how many were `queued`, how many were `alreadyQueued` (pending or in an attempt: left alone, so calling twice sends nothing twice) and how many were `refused` (recorded for another url or administrator, as `…/retry` refuses them: they are never sent to the new aim).",
      `One call looks at ${MAX_REDELIVER} deliveries of the range at most (\`limit\`, oldest first): while \`next\` is not null, call again with the same body and \`continueFrom: next\`. \`from\` and \`to\` are ISO-8601 (or unix seconds), at most 30 days apart (400 otherwise); deliveries older than 30 days are gone. A disabled subscription is 409 \`webhook_disabled\`: turn it on first, then redeliver what it missed (its \`skipped\` deliveries). Deliveries of tickets outside the caller's events are left out, as if missing. Each subscription takes at most 10 redelivery calls in any hour, whoever makes them (429 with \`Retry-After\` past it; a refused call, 400, 404 or 409, counts none).`,
    ),
    conflicts: ['webhook_disabled'],
    example: { from: '2026-05-01T08:00:00Z', to: '2026-05-01T14:30:00Z' },
  },
  'POST /webhooks/{id}/deliveries/{deliveryId}/retry': {
    summary: 'Send a delivery again',
    description:
      "Sends it now, whatever its state (a receiver that lost a delivered message may ask again), with a fresh 3-day retry window; answers the delivery after that attempt, which waits for the receiver 3 s at most (then it is recorded timed out, `pending`, for the dispatcher's retries). A ticket's delivery outside the caller's events is 404, as a missing one. 409 `attempt_in_progress` while another attempt (the dispatcher's) holds it: a message is never sent twice at once by us, and that attempt's answer is kept. 409 `webhook_reaimed` when it was recorded for another url or administrator.",
    parameters: { deliveryId: 'The delivery id, as the deliveries list shows it.' },
    conflicts: ['attempt_in_progress', 'webhook_reaimed'],
  },
  'POST /webhooks/{id}/ping': {
    summary: 'Send a test message',
    description:
      "A `webhook.ping` message, sent at once even to a disabled subscription; answers the delivery after that attempt, which waits for the receiver 3 s at most (then it is recorded timed out, `pending`, for the dispatcher's retries).",
  },
} satisfies Entries;
