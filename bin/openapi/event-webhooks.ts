import * as z from '#shared/schema';
import { DEFAULT_LISTING, type Event } from '#shared/events/domain/event';
import { EventSummaryResource } from '#shared/events/contract/event';
import { EventHistoryResource } from '#shared/events/contract/event-parts';
import { EVENT_CHANGE_TYPES, type EventChangeType, eventChangeMessage } from '#shared/webhooks/domain/event-webhooks';

/** One entry of the section (webhooks.ts): a message type's operation. */
export type WebhookEntry = (
  type: string,
  summary: string,
  description: string,
  schema: z.ZodMiniType,
  example: unknown,
) => Record<string, unknown>;

/** The `event.*` entries of the OpenAPI document's `webhooks` section (shared/webhooks/domain/event-webhooks.ts). */
const WHEN: Record<keyof typeof EVENT_CHANGE_TYPES, string> = {
  created: 'An event was created (`POST /events`), a draft: `data.changes` is empty.',
  updated:
    'Anything else the events routes change: listing fields and dates (`PATCH /events/{id}`), ticket types, teams and the other parts of an event. `data.action` is the history action (`updated`, `type_created`, `team_renamed`…), `data.changes` each changed field with `from` and `to`.',
  published: 'An event was published (`PATCH /events/{id}` with `published: true`): it shows in the portal.',
  unpublished: 'An event was unpublished (`published: false`): it left the portal.',
  deleted: 'An event without tickets was deleted: `data.event` is the event as it was, its version the deletion’s.',
};

const eventChange = (type: string) =>
  z.strictObject({
    type: z.literal(type),
    timestamp: z.string(),
    data: z.strictObject({
      eventId: z.int(),
      sequence: z
        .int()
        .check(z.describe("The event's version after the change: keep the highest seen per event, drop an older one.")),
      action: EventHistoryResource.shape.action,
      by: z.int().check(z.describe('The administrator who made the change.')),
      changes: EventHistoryResource.shape.changes,
      event: EventSummaryResource.check(
        z.describe(
          'The event as `GET /events` lists it (not its types, waves, questions and teams: `GET /events/{id}`), as the change left it.',
        ),
      ),
    }),
  });

/** A stable example event (the document is generated, and compared, byte for byte). */
const exampleEvent = (fields: Partial<Event>): Event => ({
  ...DEFAULT_LISTING,
  id: 7,
  title: 'Harbour 10K',
  startsAt: '2026-06-14T07:30:00.000Z',
  timezone: 'Europe/London',
  currency: 'GBP',
  venue: 'Harbour Green',
  published: false,
  capacity: 500,
  questions: [],
  created: '2026-05-02T09:00:00.000Z',
  updated: '2026-05-02T09:00:00.000Z',
  updatedBy: 3,
  ...fields,
});

function exampleOf(name: keyof typeof EVENT_CHANGE_TYPES) {
  const at = '2026-05-03T10:15:00.000Z';
  const entry = (
    version: number,
    action: typeof name | 'updated',
    changes: Record<string, { from: unknown; to: unknown }>,
  ) => ({
    version,
    at,
    by: 3,
    action,
    changes,
  });
  if (name === 'created') return eventChangeMessage(entry(1, 'created', {}), exampleEvent({}));
  const later = exampleEvent({ updated: at, version: 4 });
  if (name === 'updated')
    return eventChangeMessage(entry(4, 'updated', { title: { from: 'Harbour 10K', to: 'Harbour 10K 2026' } }), {
      ...later,
      title: 'Harbour 10K 2026',
    });
  const published = name === 'published';
  if (name !== 'deleted')
    return eventChangeMessage(entry(4, name, { published: { from: !published, to: published } }), {
      ...later,
      published,
    });
  return eventChangeMessage(entry(4, 'deleted', {}), exampleEvent({ version: 3 }));
}

export function eventWebhookEntries(entry: WebhookEntry): Record<string, unknown> {
  return Object.fromEntries(
    (Object.entries(EVENT_CHANGE_TYPES) as [keyof typeof EVENT_CHANGE_TYPES, EventChangeType][]).map(([name, type]) => [
      type,
      entry(type, type, WHEN[name], eventChange(type), exampleOf(name)),
    ]),
  );
}
