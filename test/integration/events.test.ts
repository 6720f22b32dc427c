import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { EventResource } from '#shared/events/contract/event';
import { EventEntryResource } from '#shared/portal/contract/my-account';
import { batchGet } from '#shared/data/client';
import { listTicketTypes } from '#shared/events/data/events';
import { keys } from '#shared/data/keys';
import { commandsSent } from '../support/command-tally.ts';
import { call, idsOf } from '../support/api.ts';
import {
  BASE,
  createEventByApi,
  eventBody,
  type EventView,
  newWindow,
  patchEvent,
  portalEvents,
  staff,
  unix,
} from '../support/events.ts';
import { adminToken, customerToken } from '../support/tokens.ts';
import { unusedCustomerId } from '../support/customers.ts';

/**
 * The organiser's path over HTTP: create an event, add types, publish, watch the portal;
 * scoped staff and refusals. Each test creates its own events, in a start window of its own.
 * Edits, deletion and the list: events-edits.test.ts.
 */
let token: string;
beforeAll(async () => {
  token = await staff();
});
const create = (fields: Record<string, unknown> = {}, as?: string) => createEventByApi(fields, as);
const patch = (id: number, fields: Record<string, unknown>, as?: string) => patchEvent(id, fields, as);
const body = eventBody;

describe('POST /events', () => {
  it('creates a draft with its types, waves, questions and teams, every id answered, and reads it back whole', async () => {
    const w = newWindow();
    const made = await create({
      start: w.at(1),
      venue: 'The Hall',
      onSaleDate: '2399-01-01T09:00:00+01:00',
      cutOff: '2399-06-01T09:00:00Z',
      ticketTypes: [
        { name: 'Standing', price: 35.5, total: 300 },
        { name: 'Seated', price: 60, total: 100, ordering: -1 },
      ],
      waveTimes: [{ name: 'Doors', startTime: w.at(1), capacity: 400 }],
      questions: [{ text: 'Size', required: true, options: [{ text: 'S' }, { text: 'M' }] }],
      teams: [{ name: 'Crew' }],
    });
    expect(made).toMatchObject({
      published: false,
      currency: 'EUR',
      capacity: 400,
      version: 1,
      onSaleDate: '2399-01-01T08:00:00.000Z',
      start: w.at(1),
      updatedBy: 999_001,
    });
    expect(made.ticketTypes.map((type) => [type.name, type.sold, type.total])).toEqual([
      ['Seated', 0, 100],
      ['Standing', 0, 300],
    ]);
    for (const id of [
      made.id,
      ...made.ticketTypes.map((type) => type.id),
      made.waveTimes[0]!.id,
      made.questions[0]!.id,
      ...made.questions[0]!.options.map((option) => option.id),
      made.teams[0]!.id,
    ])
      expect(id).toBeGreaterThan(0);
    const read = await call('GET', `${BASE}/${made.id}`, { token });
    expect(read.status).toBe(200);
    expect(EventResource.parse(read.body.data)).toEqual(made);
  });

  it("writes every type's stock in its one transaction, its shards lowered only where the 100 actions run short", async () => {
    const types = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ name: `T${i}`, price: 1, total: 2000 + i }));
    const stockOf = async (eventId: number) => {
      const stored = await listTicketTypes(eventId);
      const shards = await batchGet(
        stored.flatMap((type) => Array.from({ length: type.stockShards }, (_, s) => keys.stock(type.id, s))),
      );
      const left = new Map<number, number>();
      for (const item of shards)
        left.set(Number(item!.typeId), (left.get(Number(item!.typeId)) ?? 0) + Number(item!.left));
      return stored.map((type) => ({ shards: type.stockShards, left: left.get(type.id), total: type.total }));
    };
    // A creation of two large types: each its full 20 shards (one per 100 tickets).
    let small: EventView | undefined;
    const sent = await commandsSent(async () => (small = await create({ ticketTypes: types(2) })));
    expect(sent.filter((command) => command === 'TransactWriteItemsCommand')).toHaveLength(1);
    expect(await stockOf(small!.id)).toEqual([
      { shards: 20, left: 2000, total: 2000 },
      { shards: 20, left: 2001, total: 2001 },
    ]);
    // As wide as the body's bound: 40 types and their first shard beside the 19 fixed writes leave one more shard.
    const wide = await commandsSent(async () => (small = await create({ ticketTypes: types(40) })));
    expect(wide.filter((command) => command === 'TransactWriteItemsCommand')).toHaveLength(1);
    const stock = await stockOf(small!.id);
    expect(stock.map((type) => type.shards)).toEqual([2, ...Array.from({ length: 39 }, () => 1)]);
    expect(stock.every((type) => type.left === type.total)).toBe(true);
    // One more does not fit with its stock: 400 naming the types, nothing written.
    const refused = await call('POST', BASE, { token, body: body({ ticketTypes: types(41) }) });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((error: { path: string }) => error.path)).toContain('body.ticketTypes');
  });

  it('refuses bad input with a 400 naming the field, and writes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ timezone: 'Mars/Olympus' }, 'body.timezone'],
      [{ currency: 'EURO' }, 'body.currency'],
      [{ currency: 'XYZ' }, 'body.currency'],
      [{ start: 'next tuesday' }, 'body.start'],
      [{ onSaleDate: '2399-02-01T00:00:00Z', cutOff: '2399-01-01T00:00:00Z' }, 'body.cutOff'],
      [{ colour: 'red' }, 'body'],
      [{ ticketTypes: [{ name: 'A', price: 10.001, total: 1 }] }, 'body.ticketTypes.0.price'],
      [{ ticketTypes: [{ name: 'A', price: 10, total: -1 }] }, 'body.ticketTypes.0.total'],
      [
        { ticketTypes: Array.from({ length: 51 }, (_, i) => ({ name: `T${i}`, price: 1, total: 1 })) },
        'body.ticketTypes',
      ],
      [
        {
          waveTimes: Array.from({ length: 51 }, () => ({ name: 'W', startTime: '2400-01-01T00:00:00Z', capacity: 1 })),
        },
        'body.waveTimes',
      ],
      [
        { ticketTypes: [{ name: 'A', price: 1, total: 1, grants: Array.from({ length: 21 }, (_, i) => i + 1) }] },
        'body.ticketTypes.0.grants',
      ],
      [{ ticketTypes: [{ name: 'A', price: 1, total: 1, grants: [987_654_321] }] }, 'body.ticketTypes.0.grants.0'],
    ];
    const title = `Refused ${randomUUID()}`;
    for (const [fields, path] of cases) {
      const response = await call('POST', BASE, { token, body: body({ title, ...fields }) });
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect(response.headers['content-type']).toBe('application/problem+json');
      const paths = (response.body.errors ?? []).map((error: { path: string }) => error.path);
      expect(
        paths.some((at: string) => at === path || at.startsWith(`${path}.`)),
        `${path} in ${paths}`,
      ).toBe(true);
    }
    const listed = await call('GET', `${BASE}?title=${encodeURIComponent(title)}`, { token });
    expect(listed.body.data).toEqual([]);
  });

  it('is for unscoped administrators: a scoped one gets 403, and 404 for an event outside its scope', async () => {
    const made = await create();
    const other = await create();
    const scoped = await adminToken(undefined, 999_002, { eventScope: [made.id] });
    expect((await call('POST', BASE, { token: scoped, body: body() })).status).toBe(403);
    expect((await call('GET', `${BASE}/${other.id}`, { token: scoped })).status).toBe(404);
    expect((await patch(other.id, { venue: 'Elsewhere' }, scoped)).status).toBe(404);
    expect((await call('DELETE', `${BASE}/${other.id}`, { token: scoped })).status).toBe(404);
    expect(
      (
        await call('POST', `${BASE}/${other.id}/ticket-types`, {
          token: scoped,
          body: { name: 'X', price: 1, total: 1 },
        })
      ).status,
    ).toBe(404);
    expect((await patch(made.id, { venue: 'Here' }, scoped)).status).toBe(200);
    const listed = await call('GET', BASE, { token: scoped });
    expect(idsOf(listed.body)).toEqual([made.id]);
    const readOnly = await adminToken(['events:read']);
    expect((await patch(made.id, { venue: 'Nope' }, readOnly)).status).toBe(403);
  });
});

describe('publishing', () => {
  it('puts the event with its types and inventory in the portal, and unpublishing takes it out', async () => {
    const w = newWindow();
    const made = await create({ start: w.at(2), title: `Gala ${randomUUID().slice(0, 8)}` });
    const refused = await patch(made.id, { published: true });
    expect(refused.status).toBe(409);
    expect(refused.body.reason).toBe('no_ticket_types');

    const added = await call('POST', `${BASE}/${made.id}/ticket-types`, {
      token,
      body: { name: 'General', price: 20, total: 150 },
    });
    expect(added.status).toBe(201);
    const typeId = added.body.data.id as number;
    const published = await patch(made.id, { published: true, version: 2 });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body.data).toMatchObject({ published: true, version: 3, capacity: 150 });

    const range = `fromEventStart=${unix(w.from)}&toEventStart=${unix(w.to)}`;
    const page = await portalEvents(range);
    expect(idsOf(page)).toEqual([made.id]);
    expect(EventEntryResource.parse(page.data[0]).inventory).toEqual({ sold: 0, total: 150 });
    const types = await call('GET', `/api/v2/my-account/ticket-type/${made.id}`, {
      token: await customerToken(unusedCustomerId()),
    });
    expect(types.body.data.map((type: { id: string }) => Number(type.id))).toEqual([typeId]);
    const adminList = await call('GET', `${BASE}?published=true&fromStart=${w.from}&toStart=${w.to}`, { token });
    expect(idsOf(adminList.body)).toEqual([made.id]);

    expect((await patch(made.id, { published: false })).status).toBe(200);
    expect(idsOf(await portalEvents(range))).toEqual([]);
    const drafts = await call('GET', `${BASE}?published=false&fromStart=${w.from}&toStart=${w.to}`, { token });
    expect(idsOf(drafts.body)).toEqual([made.id]);
    const history = await call('GET', `${BASE}/${made.id}/history`, { token });
    expect(history.body.data.map((entry: { action: string }) => entry.action)).toEqual([
      'unpublished',
      'published',
      'type_created',
      'created',
    ]);
  });

  it('finds a retitled event by its new words only', async () => {
    const w = newWindow();
    const old = `Zebracorn${randomUUID().slice(0, 6)}`;
    const fresh = `Quokkafest${randomUUID().slice(0, 6)}`;
    const made = await create({ start: w.at(1), title: old, ticketTypes: [{ name: 'A', price: 1, total: 5 }] });
    expect((await patch(made.id, { published: true })).status).toBe(200);
    const search = (word: string) => portalEvents(`search=${word}`);
    expect(idsOf(await search(old))).toEqual([made.id]);
    expect((await patch(made.id, { title: fresh })).status).toBe(200);
    expect(idsOf(await search(fresh))).toEqual([made.id]);
    expect(idsOf(await search(old))).toEqual([]);
    const byTitle = await call('GET', `${BASE}?published=true&title=${fresh}`, { token });
    expect(idsOf(byTitle.body)).toEqual([made.id]);
  });
});
