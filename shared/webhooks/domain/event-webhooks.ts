import type { Event } from '../../events/domain/event.ts';
import { type EventHistoryEntry, type EventSummary, toEventSummary } from '../../events/domain/event-resource.ts';

/**
 * The webhook message types of the events routes' changes (README "Webhooks"), for integrators: one per change of
 * an event, read from its history entry as a ticket's message is from the ticket's. Five types, not one per history
 * action: creation, deletion and the two publications have their own, and every other change (listing fields,
 * ticket types, teams, and whatever edit later writes the event's history) is `event.updated`, its `data.action`
 * naming the history action.
 */
export const EVENT_CHANGE_TYPES = {
  created: 'event.created',
  updated: 'event.updated',
  published: 'event.published',
  unpublished: 'event.unpublished',
  deleted: 'event.deleted',
} as const;

export type EventChangeType = (typeof EVENT_CHANGE_TYPES)[keyof typeof EVENT_CHANGE_TYPES];
export const EVENT_CHANGE_TYPE_NAMES = Object.values(EVENT_CHANGE_TYPES) as [EventChangeType, ...EventChangeType[]];

/** The message type of a history entry: its own for the five, `event.updated` for any other action. */
export const eventChangeType = (action: EventHistoryEntry['action']): EventChangeType =>
  (EVENT_CHANGE_TYPES as Record<string, EventChangeType>)[action] ?? EVENT_CHANGE_TYPES.updated;

/**
 * The `data` of an event change's message: the event as `GET /events` lists it (the summary: listing fields,
 * `published`, `capacity`, `version`, who changed it last; not its types, waves, questions and teams, which
 * `GET /events/{id}` reads), at the version the change made (for `event.deleted`, as it was when deleted); the
 * history entry's `action`, `by` and `changes` (each changed field's `from` and `to`), so a receiver needs no second
 * read to know what changed; `sequence`, the event's version after the change: keep the highest seen per event.
 */
export interface EventChangeData {
  eventId: number;
  sequence: number;
  action: EventHistoryEntry['action'];
  by: number;
  changes: EventHistoryEntry['changes'];
  event: EventSummary;
}

export interface EventChangeMessage {
  type: EventChangeType;
  timestamp: string;
  data: EventChangeData;
}

/** The message of one change of an event: its history entry, and the event as that change left it. */
export function eventChangeMessage(entry: EventHistoryEntry, event: Event): EventChangeMessage {
  return {
    type: eventChangeType(entry.action),
    timestamp: entry.at,
    data: {
      eventId: event.id,
      sequence: entry.version,
      action: entry.action,
      by: entry.by,
      changes: entry.changes,
      event: toEventSummary({ ...event, version: entry.version }),
    },
  };
}
