import { beforeAll, describe, expect, it, vi } from 'vitest';
import { EventSummaryResource, eventSummaryFields } from '#shared/events/contract/event';
import * as z from '#shared/schema';
import { call } from '../support/api.ts';
import { BASE, createEventByApi, patchEvent } from '../support/events.ts';
import { makeAdmin, staffToken } from '../support/staff.ts';
import { deliveriesOf, eventually, type Receiver, subscribe, webhookFixture } from '../support/webhooks.ts';

// Its own table with a stream, set before anything reads TABLE_NAME (the shared table has none: test/support/env.ts).
await vi.hoisted(async () => (await import('../support/env.ts')).useOwnStreamTable('events'));

/**
 * The `event.*` webhook types end to end (README "Webhooks"): changes made through the events routes, read from
 * DynamoDB Local's stream (the event item, WEBHOOK_CHANGE_FILTER) by the poller that feeds the deployed consumer,
 * their type from the history entry each change wrote, delivered signed to receivers on 127.0.0.1.
 */
const EVENT_TYPES = ['event.created', 'event.updated', 'event.published', 'event.unpublished', 'event.deleted'];
/** An event no test makes (ids come from one sequence). */
const NO_EVENT = 2 ** 40;

/** A stored administrator (the subscriptions deliver for them, read at each attempt) managing events and webhooks. */
const ORGANISER = ['webhooks:manage', 'tickets:read', 'events:read', 'events:write'] as const;
let token: string;
const webhooks = webhookFixture();
const { receiver } = webhooks;

beforeAll(async () => {
  token = await staffToken(await makeAdmin({ permissions: [...ORGANISER] }));
});

const create = (fields: Record<string, unknown> = {}) => createEventByApi(fields, token);
const patch = (id: number, fields: Record<string, unknown>) => patchEvent(id, fields, token);

const about = (r: Receiver, eventId: number) => r.received.filter((m) => m.message.data.eventId === eventId);

/** The event as `GET /events` lists it now. */
async function summaryOf(id: number) {
  const read = await call('GET', `${BASE}/${id}`, { token });
  expect(read.status).toBe(200);
  return EventSummaryResource.parse(z.object(eventSummaryFields()).parse(read.body.data));
}

describe('event changes reach integrators as ticket changes do', () => {
  it('delivers each of the five types once, to its own subscriber only, none to subscriptions of other events', async () => {
    const other = await create();
    const scopedToken = await staffToken(
      await makeAdmin({ permissions: ['webhooks:manage', 'tickets:read', 'events:read'], eventScope: [other.id] }),
    );
    const scoped = await receiver();
    const scopedHook = await subscribe(scopedToken, scoped, { events: EVENT_TYPES, eventIds: [other.id] });
    const elsewhere = await receiver();
    await subscribe(token, elsewhere, { events: EVENT_TYPES, eventIds: [NO_EVENT] });
    const each: Record<string, Receiver> = Object.fromEntries(
      await Promise.all(EVENT_TYPES.map(async (type) => [type, await receiver()] as const)),
    );
    // The event does not exist yet: its creation reaches a subscription to every event.
    await subscribe(token, each['event.created']!, { events: ['event.created'], eventIds: null });

    const made = await create({ ticketTypes: [{ name: 'General', price: 20, total: 100 }] });
    const created = await summaryOf(made.id);
    for (const type of EVENT_TYPES.slice(1))
      await subscribe(token, each[type]!, { events: [type], eventIds: [made.id] });

    expect((await patch(made.id, { title: 'Harbour 10K 2026' })).status).toBe(200);
    const retitled = await summaryOf(made.id);
    expect((await patch(made.id, { published: true })).status).toBe(200);
    const published = await summaryOf(made.id);
    expect((await patch(made.id, { published: false })).status).toBe(200);
    const unpublished = await summaryOf(made.id);
    expect((await call('DELETE', `${BASE}/${made.id}`, { token })).status).toBe(204);

    const messages = await eventually(webhooks.workers, () => {
      const got = EVENT_TYPES.map((type) => about(each[type]!, made.id));
      expect(got.map((one) => one.length)).toEqual([1, 1, 1, 1, 1]);
      return got.map(([one]) => one!.message);
    });
    const [onCreate, onUpdate, onPublish, onUnpublish, onDelete] = messages;
    expect(messages.map((message) => message.type)).toEqual(EVENT_TYPES);
    expect(onCreate!.data).toMatchObject({ eventId: made.id, sequence: 1, action: 'created', changes: {} });
    expect(onCreate!.data.event).toEqual(created);
    expect(onUpdate!.data).toMatchObject({
      sequence: 2,
      action: 'updated',
      changes: { title: { from: made.title, to: 'Harbour 10K 2026' } },
    });
    expect(onUpdate!.data.event).toEqual(retitled);
    expect(onPublish!.data).toMatchObject({ action: 'published', changes: { published: { from: false, to: true } } });
    expect(onPublish!.data.event).toEqual(published);
    expect(onUnpublish!.data.event).toEqual(unpublished);
    expect(onDelete!.data).toMatchObject({ action: 'deleted', sequence: unpublished.version + 1 });
    expect(onDelete!.data.event.title).toBe('Harbour 10K 2026');
    for (const type of EVENT_TYPES) {
      expect(each[type]!.unverified, type).toBe(0);
      // One message each: its own type, nothing of the others.
      expect(
        each[type]!.received.filter((m) => m.message.data.eventId === made.id).map((m) => m.message.type),
        type,
      ).toEqual([type]);
    }
    // Subscriptions of other events heard nothing of it, and the scoped administrator's records none. Its own event's
    // creation may reach it (the stream can deliver it after the subscription was made): a delivery's id names its
    // event (event-changes.ts), so only those of this event are looked for.
    expect(about(elsewhere, made.id)).toEqual([]);
    expect(about(scoped, made.id)).toEqual([]);
    expect(
      (await deliveriesOf(scopedToken, scopedHook.id)).filter((d: { id: string }) =>
        d.id.includes(`-event-${made.id}-`),
      ),
    ).toEqual([]);
  });

  it('sends the edits of the parts of an event (a ticket type, a team) as event.updated naming the history action', async () => {
    const made = await create();
    const r = await receiver();
    await subscribe(token, r, { events: ['event.updated'], eventIds: [made.id] });
    const added = await call('POST', `${BASE}/${made.id}/ticket-types`, {
      token,
      body: { name: 'General', price: 20, total: 150 },
    });
    expect(added.status).toBe(201);
    expect((await call('POST', `${BASE}/${made.id}/teams`, { token, body: { name: 'Harriers' } })).status).toBe(201);
    const got = await eventually(webhooks.workers, () => {
      const messages = about(r, made.id);
      expect(messages).toHaveLength(2);
      return messages.map((m) => m.message);
    });
    expect(got.map((message) => [message.type, message.data.action, message.data.sequence])).toEqual([
      ['event.updated', 'type_created', 2],
      ['event.updated', 'team_created', 3],
    ]);
    expect(got[0]!.data.event.capacity).toBe(150);
  });

  it('refuses to aim event types for an administrator without events:read (403); ticket types alone it may', async () => {
    const r = await receiver();
    const limited = await staffToken(await makeAdmin({ permissions: ['webhooks:manage', 'tickets:read'] }));
    const refused = await call('POST', '/api/v2/webhooks', {
      token: limited,
      body: { url: r.url, events: ['event.created'] },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain('events:read');
    const allowed = await call('POST', '/api/v2/webhooks', {
      token: limited,
      body: { url: r.url, events: ['ticket.created'] },
    });
    expect(allowed.status).toBe(201);
  });
});
