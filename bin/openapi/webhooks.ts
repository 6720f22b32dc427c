import * as z from '#shared/schema';
import { newTicketRecord } from '#shared/tickets/domain/new-ticket';
import { TicketResource } from '#shared/tickets/domain/ticket-resource';
import type { TicketAction } from '#shared/tickets/domain/ticket-history';
import { toTicket } from '#shared/tickets/domain/ticket-view';
import { pingMessage, ticketChangeMessage } from '#shared/webhooks/domain/webhook-messages';
import { PING_TYPE, TICKET_EVENT_TYPES } from '#shared/webhooks/domain/webhooks';
import { eventWebhookEntries, type WebhookEntry } from './event-webhooks.ts';
import { md } from './catalogue/common.ts';

/**
 * The OpenAPI document's `webhooks` section: one entry per message type, the body a receiver
 * gets, its Standard Webhooks headers and what its answer means (README "Webhooks").
 */
const WHEN: Record<TicketAction, string> = {
  create: 'A ticket was created (a sale, an import, or the replacement ticket of a transfer is `ticket.transferred`).',
  edit: 'Fields of a ticket were edited (`PATCH /tickets/{id}`, waivers signed): `data.changed` names them.',
  check_in: 'A ticket was checked in at the gate of its own event.',
  access_scan: 'An access-package ticket was scanned at another event it admits to.',
  undo_check_in: 'A check-in was undone.',
  transfer: 'A ticket was transferred: sent for the original (now `transferred`) and for its replacement (created).',
  delete: 'A ticket was deleted (it leaves lists; the message carries it as it was, `deleted: 1`).',
  states: 'A state was changed through `POST /ticket/{ticketId}/states`.',
  profile_photo: "A ticket's profile photo was set or removed.",
  claim: 'A claim was opened: the ticket was sent to someone to claim.',
  claimant: 'An open claim was sent to another claimant.',
  claimed: 'The claimant accepted the ticket into their account.',
  cancel_order: 'The ticket was cancelled with its order (`POST /orders/{id}/cancel`).',
  force_cancel_order: 'A checked-in ticket was cancelled with its order, with `force`.',
};

const Headers = {
  'webhook-id': 'The message id, the same on every attempt of this message: drop one you have already handled.',
  'webhook-timestamp':
    'Seconds since the epoch when this attempt was signed: refuse one more than 5 minutes away from your clock.',
  'webhook-signature':
    '`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` per signing secret, space-separated (two during the 24 hours after a rotation). Verify with the `standardwebhooks` package.',
};

const ticketChange = (type: string) =>
  z.strictObject({
    type: z.literal(type),
    timestamp: z.string(),
    data: z.strictObject({
      ticketId: z.int(),
      eventId: z.int(),
      sequence: z.int(),
      changed: z.array(z.string()),
      previous: z.record(z.string(), z.unknown()),
      ticket: TicketResource,
    }),
  });

const ping = z.strictObject({
  type: z.literal(PING_TYPE),
  timestamp: z.string(),
  data: z.strictObject({ webhookId: z.int() }),
});

/** A stable example ticket (the document is generated, and compared, byte for byte). */
function exampleTicket(version: number, fields: Record<string, unknown> = {}) {
  const at = '2026-06-14T07:30:00.000Z';
  const record = newTicketRecord(1042, { id: 12, eventId: 7, grants: [] }, at);
  return toTicket({
    ...record,
    barcode: 'K3Q9ZT7WUFHN4A2B',
    partyMember: 'Ada',
    partyMemberLastName: 'Okafor',
    version,
    ...fields,
  });
}

function exampleOf(action: TicketAction) {
  const before = exampleTicket(1);
  const after =
    action === 'create'
      ? before
      : exampleTicket(2, {
          updated: '2026-06-14T08:02:11.000Z',
          ...(action === 'edit' ? { bibNumber: '4471' } : {}),
          ...(action === 'delete' ? { deleted: 1 } : {}),
        });
  return ticketChangeMessage(
    { action, at: '2026-06-14T08:02:11.000Z', version: action === 'create' ? 1 : 2 },
    action === 'create' ? null : before,
    after,
  );
}

export function webhooksSection(schemaOf: (schema: z.ZodMiniType) => unknown): Record<string, unknown> {
  const entry: WebhookEntry = (type, summary, description, schema, example) => ({
    post: {
      summary,
      description,
      operationId: `webhook-${type.replace('.', '-')}`,
      tags: ['webhooks'],
      security: [],
      parameters: Object.entries(Headers).map(([name, text]) => ({
        name,
        in: 'header',
        required: true,
        description: text,
        schema: { type: 'string', maxLength: 1024 },
      })),
      requestBody: { required: true, content: { 'application/json': { schema: schemaOf(schema), example } } },
      responses: {
        '200': { description: 'Any 2xx: delivered. The answer is read up to 64 KB and discarded.' },
        '410': { description: 'Gone: the subscription is disabled, nothing more is sent.' },
        default: {
          description: md(
            'Anything else, a timeout (10 s), a redirect (not followed) or no connection: retried with exponential backoff and jitter, the first retry within a minute, for 3 days; then the delivery is dead.',
            'A subscription whose every delivery fails for 3 days is disabled and its creator mailed.',
          ),
        },
      },
    },
  });
  return {
    ...Object.fromEntries(
      (Object.entries(TICKET_EVENT_TYPES) as [TicketAction, string][]).map(([action, type]) => [
        type,
        entry(type, `${type}`, WHEN[action], ticketChange(type), exampleOf(action)),
      ]),
    ),
    ...eventWebhookEntries(entry),
    [PING_TYPE]: entry(
      PING_TYPE,
      PING_TYPE,
      'Sent by `POST /webhooks/{id}/ping` only.',
      ping,
      pingMessage(3, '2026-06-14T08:02:11.000Z'),
    ),
  };
}
