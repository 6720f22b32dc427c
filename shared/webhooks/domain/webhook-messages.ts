import type { TicketAction } from '../../tickets/domain/ticket-history.ts';
import type { Ticket } from '../../tickets/domain/ticket.ts';
import { PING_TYPE, TICKET_EVENT_TYPES, type TicketEventType } from './webhooks.ts';

/**
 * The body of a webhook message, Standard Webhooks' `{type, timestamp, data}`. A ticket
 * change's `data`:
 * - `ticket`: the ticket as `GET /tickets/{id}` shows it, at the version the change made;
 * - `changed`: the names of the resource's fields that changed, `previous` their values before
 *   (both empty for a created ticket), so a receiver never needs a second read;
 * - `sequence`: the ticket's version after the change, 1 for its creation, one more per change:
 *   a receiver keeps the highest it has seen per ticket and drops an older message arriving late.
 */
export interface TicketChangeData {
  ticketId: number;
  eventId: number;
  sequence: number;
  changed: string[];
  previous: Record<string, unknown>;
  ticket: Ticket;
}

export interface TicketChangeMessage {
  type: TicketEventType;
  timestamp: string;
  data: TicketChangeData;
}

export interface PingMessage {
  type: typeof PING_TYPE;
  timestamp: string;
  data: { webhookId: number };
}

/** The message of one ticket change: `before` null for a created ticket. */
export function ticketChangeMessage(
  change: { action: TicketAction; at: string; version: number },
  before: Ticket | null,
  after: Ticket,
): TicketChangeMessage {
  const changed = before
    ? (Object.keys(after) as (keyof Ticket & string)[]).filter(
        (name) => JSON.stringify(before[name] ?? null) !== JSON.stringify(after[name] ?? null),
      )
    : [];
  return {
    type: TICKET_EVENT_TYPES[change.action],
    timestamp: change.at,
    data: {
      ticketId: after.id,
      eventId: after.eventId,
      sequence: change.version,
      changed: changed.sort(),
      previous: Object.fromEntries(changed.map((name) => [name, before?.[name] ?? null])),
      ticket: after,
    },
  };
}

export const pingMessage = (webhookId: number, at: string): PingMessage => ({
  type: PING_TYPE,
  timestamp: at,
  data: { webhookId },
});
