import { beforeAll, describe, expect, it } from 'vitest';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, db, tableName } from '#shared/data/client';
import { keys as tableKeys } from '#shared/data/keys';
import { getEvent, grantsInto } from '#shared/events/data/events';
import { EventResource, EventSummaryResource } from '#shared/events/contract/event';
import { wholeEvent } from '#shared/events/use-cases/event-reads';
import { seedTickets } from '../support/factories/tickets.ts';
import { blankingId, call, idsOf, type CallResult } from '../support/api.ts';
import { adminToken } from '../support/tokens.ts';
import { boundedGet, countReads } from '../support/dynamo-reads.ts';
import { BASE, createEventByApi, newWindow, patchEvent, portalEvents, staff, unix } from '../support/events.ts';

/** The events routes' edits over HTTP: the version rule, totals against sold, access packages, deletion, the list. */
let token: string;
beforeAll(async () => {
  token = await staff();
});
const create = (fields: Record<string, unknown> = {}, as?: string) => createEventByApi(fields, as);
const patch = (id: number, fields: Record<string, unknown>, as?: string) => patchEvent(id, fields, as);

describe('edits', () => {
  it('lets one of two concurrent edits of the same version through and answers the other 409 stale_version', async () => {
    const made = await create();
    const answers = await Promise.all([
      patch(made.id, { venue: 'First', version: 1 }),
      patch(made.id, { venue: 'Second', version: 1 }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body.reason).toBe('stale_version');
    const read = await call('GET', `${BASE}/${made.id}`, { token });
    expect(read.body.data.version).toBe(2);
  });

  it('refuses a total below sold, a sold type deletion and deleting an event with tickets, each 409', async () => {
    const made = await create({
      ticketTypes: [
        { name: 'A', price: 5, total: 10 },
        { name: 'B', price: 5, total: 10 },
      ],
    });
    const [sold, spare] = made.ticketTypes.map((type) => type.id);
    await seedTickets(await wholeEvent(await getEvent(made.id)), sold!, 3);
    const below = await call('PATCH', `${BASE}/${made.id}/ticket-types/${sold}`, { token, body: { total: 2 } });
    expect(below.status).toBe(409);
    expect(below.body.reason).toBe('total_below_sold');
    const raised = await call('PATCH', `${BASE}/${made.id}/ticket-types/${sold}`, {
      token,
      body: { total: 3, name: 'A+' },
    });
    expect(raised.status).toBe(200);
    expect(raised.body.data).toMatchObject({ sold: 3, total: 3, name: 'A+' });
    const soldDelete = await call('DELETE', `${BASE}/${made.id}/ticket-types/${sold}`, { token });
    expect(soldDelete.status).toBe(409);
    expect(soldDelete.body.reason).toBe('type_has_tickets');
    expect((await call('DELETE', `${BASE}/${made.id}/ticket-types/${spare}`, { token })).status).toBe(204);
    const read = EventResource.parse((await call('GET', `${BASE}/${made.id}`, { token })).body.data);
    expect(read.capacity).toBe(3);
    expect(read.ticketTypes.map((type) => type.id)).toEqual([sold]);
    const deleted = await call('DELETE', `${BASE}/${made.id}`, { token });
    expect(deleted.status).toBe(409);
    expect(deleted.body.reason).toBe('event_has_tickets');
    const moved = await patch(made.id, { start: '2401-01-01T00:00:00Z' });
    expect(moved.status).toBe(409);
  });

  it("changes an access package's grants while it has no tickets, and keeps them once it sells", async () => {
    const venue = await create();
    const made = await create();
    const typeUrl = `${BASE}/${made.id}/ticket-types`;
    const added = await call('POST', typeUrl, {
      token,
      body: { name: 'Pass', price: 80, total: 5, grants: [venue.id] },
    });
    expect(added.status).toBe(201);
    const typeId = added.body.data.id as number;
    expect(await grantsInto(venue.id, 5)).toEqual([{ into: venue.id, eventId: made.id, typeId }]);
    const cleared = await call('PATCH', `${typeUrl}/${typeId}`, { token, body: { grants: [] } });
    expect(cleared.status).toBe(200);
    expect(await grantsInto(venue.id, 5)).toEqual([]);
    const unknown = await call('PATCH', `${typeUrl}/${typeId}`, { token, body: { grants: [987_654_321] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].path).toBe('body.grants.0');
    await seedTickets(await wholeEvent(await getEvent(made.id)), typeId, 1);
    const sold = await call('PATCH', `${typeUrl}/${typeId}`, { token, body: { grants: [venue.id] } });
    expect(sold.status).toBe(409);
    expect(sold.body.reason).toBe('type_has_tickets');
  });

  it("answers a scoped administrator's grant of another organiser's event exactly as one of a missing event, and writes none", async () => {
    const [own, granted, others] = [await create(), await create(), await create()];
    const scoped = await adminToken(undefined, 999_003, { eventScope: [own.id, granted.id] });
    const missing = 987_654_321;
    const typeUrl = `${BASE}/${own.id}/ticket-types`;
    const asMissing = (response: CallResult, eventId: number) => {
      expect(response.status, response.raw).toBe(400);
      // The same answer, word for word, but for the id it names.
      return blankingId(response, eventId);
    };
    const add = (grants: number[]) =>
      call('POST', typeUrl, { token: scoped, body: { name: 'Pass', price: 80, total: 5, grants } });
    expect(asMissing(await add([others.id]), others.id)).toBe(asMissing(await add([missing]), missing));

    const made = await add([granted.id]);
    expect(made.status, made.raw).toBe(201);
    const typeUrlOf = `${typeUrl}/${made.body.data.id}`;
    const change = (grants: number[]) => call('PATCH', typeUrlOf, { token: scoped, body: { grants } });
    expect(asMissing(await change([granted.id, others.id]), others.id)).toBe(
      asMissing(await change([granted.id, missing]), missing),
    );
    expect(await grantsInto(others.id, 5)).toEqual([]);
    expect(await grantsInto(granted.id, 5)).toEqual([{ into: granted.id, eventId: own.id, typeId: made.body.data.id }]);
    // Unscoped staff grant any event.
    expect((await call('PATCH', typeUrlOf, { token, body: { grants: [others.id] } })).status).toBe(200);
  });

  it("deletes an event's promo codes with it: each code, its pointer, its uses' shards and the count", async () => {
    const made = await create({ ticketTypes: [{ name: 'A', price: 10, total: 10 }] });
    const codes: number[] = [];
    for (const code of ['GONE1', 'GONE2']) {
      const added = await call('POST', `${BASE}/${made.id}/promo-codes`, {
        token,
        body: { code, percentOff: 10, maxUses: 150 },
      });
      expect(added.status, added.raw).toBe(201);
      codes.push(added.body.data.id as number);
    }
    const promoItems = async () => {
      const { Items = [] } = await db.send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :promo)',
          ExpressionAttributeValues: { ':pk': tableKeys.event(made.id).PK, ':promo': 'PROMO_' },
          Limit: 10,
        }),
      );
      const shards = await batchGet(codes.flatMap((id) => [0, 1].map((shard) => tableKeys.promoUses(id, shard))));
      return { inEvent: Items.length, shards: shards.filter(Boolean).length };
    };
    // Two codes and two pointers and the count; 150 uses on two shards each.
    expect(await promoItems()).toEqual({ inEvent: 5, shards: 4 });
    expect((await call('DELETE', `${BASE}/${made.id}`, { token })).status).toBe(204);
    expect(await promoItems()).toEqual({ inEvent: 0, shards: 0 });
  });

  it('deletes an event without tickets: gone from the lists, its history kept', async () => {
    const w = newWindow();
    const made = await create({ start: w.at(3), ticketTypes: [{ name: 'A', price: 1, total: 1 }] });
    expect((await patch(made.id, { published: true })).status).toBe(200);
    expect((await call('DELETE', `${BASE}/${made.id}`, { token })).status).toBe(204);
    expect((await call('GET', `${BASE}/${made.id}`, { token })).status).toBe(404);
    expect(idsOf(await portalEvents(`fromEventStart=${unix(w.from)}&toEventStart=${unix(w.to)}`))).toEqual([]);
    const listed = await call('GET', `${BASE}?fromStart=${w.from}&toStart=${w.to}`, { token });
    expect(idsOf(listed.body)).toEqual([]);
    const history = await call('GET', `${BASE}/${made.id}/history`, { token });
    expect(history.body.data[0].action).toBe('deleted');
  });
});

describe('GET /events', () => {
  it('walks the events of a start window by next, in start order', async () => {
    const w = newWindow();
    const made = [];
    for (const day of [3, 1, 2]) made.push(await create({ start: w.at(day) }));
    const ordered = [made[1]!, made[2]!, made[0]!].map((event) => event.id);
    const first = await call('GET', `${BASE}?fromStart=${w.from}&toStart=${w.to}&_limit=2`, { token });
    expect(first.status).toBe(200);
    expect(idsOf(first.body)).toEqual(ordered.slice(0, 2));
    for (const entry of first.body.data) EventSummaryResource.parse(entry);
    const second = await call(
      'GET',
      `${BASE}?fromStart=${w.from}&toStart=${w.to}&_limit=2&_cursor=${first.body.next}`,
      { token },
    );
    expect(idsOf(second.body)).toEqual(ordered.slice(2));
    expect(second.body.next).toBeNull();
    const bad = await call('GET', `${BASE}?published=maybe`, { token });
    expect(bad.status).toBe(400);
  });
});

describe('teams', () => {
  it('adds and renames teams, the new name read at once, each change in the history', async () => {
    const made = await create({ teams: [{ name: 'Harriers' }] });
    const added = await call('POST', `${BASE}/${made.id}/teams`, { token, body: { name: 'Night Owls' } });
    expect(added.status).toBe(201);
    const renamed = await call('PATCH', `${BASE}/${made.id}/teams/${made.teams[0]!.id}`, {
      token,
      body: { name: 'Harriers AC', version: 2 },
    });
    expect(renamed.status).toBe(200);
    const read = EventResource.parse((await call('GET', `${BASE}/${made.id}`, { token })).body.data);
    expect(read.teams.map((team) => team.name)).toEqual(['Harriers AC', 'Night Owls']);
    const history = await call('GET', `${BASE}/${made.id}/history`, { token });
    expect(history.body.data.map((entry: { action: string }) => entry.action)).toEqual([
      'team_renamed',
      'team_created',
      'created',
    ]);
    expect((await call('PATCH', `${BASE}/${made.id}/teams/987654321`, { token, body: { name: 'X' } })).status).toBe(
      404,
    );
    const stale = await call('POST', `${BASE}/${made.id}/teams`, { token, body: { name: 'Late', version: 1 } });
    expect(stale.body.reason).toBe('stale_version');
  });
});

describe('at any size', () => {
  it('reads a page of events, one event of 50 types and an edit in what they need, however many events exist', async () => {
    const types = Array.from({ length: 50 }, (_, i) => ({ name: `T${i}`, price: 1, total: 1 }));
    // One creation holds 43 types with their stock (its one transaction); the rest added one by one.
    const made = await create({ ticketTypes: types.slice(0, 40) });
    for (const type of types.slice(40))
      expect((await call('POST', `${BASE}/${made.id}/ticket-types`, { token, body: type })).status).toBe(201);
    const list = await boundedGet(`${BASE}?_limit=10`, token);
    // The page and one more, the counts, the session check: whatever the table holds.
    expect(list.reads.itemsRead).toBeLessThanOrEqual(10 + 1 + 2);
    // The event, its 50 types and their stock (one shard each, of 1 ticket: the types' `sold` is their shards'), the
    // session check.
    const one = await boundedGet(`${BASE}/${made.id}`, token);
    expect(one.reads.itemsRead).toBeLessThanOrEqual(50 + 50 + 2);
    const { result, reads } = await countReads(() => patch(made.id, { venue: 'Big hall' }));
    expect(result.status).toBe(200);
    expect(reads.byCommand.ScanCommand ?? 0).toBe(0);
    expect(reads.queriesWithoutLimit).toBe(0);
    // The event, its 50 types once and their 50 stock shards (the answer's `sold`), the session check: its tickets'
    // shards hold none.
    expect(reads.itemsRead).toBeLessThanOrEqual(50 + 50 + 2);
  });
});
