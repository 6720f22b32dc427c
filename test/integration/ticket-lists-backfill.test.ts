import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '#shared/data/client';
import { keys } from '#shared/data/keys';
import { listEntryItems } from '#shared/data/ticket-list-entries';
import { searchEntryItems } from '#shared/data/ticket-search-entries';
import { STATS_SHARDS } from '#shared/data/ticket-stats';
import { backfillTicketLists } from '../../bin/maintenance/migrations/backfill-ticket-lists.ts';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';
import { readTicketRecord } from '#shared/data/ticket-records';
import { call } from '../support/api.ts';
import { adminToken } from '../support/tokens.ts';

/**
 * Makes an event's tickets and counts look written before the releases: no list entries, no
 * filter counts, and the ticket item holding its lists' keys itself (as before the list entries).
 */
async function asBeforeTheRelease(eventIds: number[], ticketIds: number[]) {
  for (const id of ticketIds) {
    const record = (await readTicketRecord(id))!;
    for (const entry of [...listEntryItems(record), ...searchEntryItems(record)])
      await db.send(new DeleteCommand({ TableName: tableName(), Key: { PK: entry.PK, SK: entry.SK } }));
    const formerKeys = {
      ...keys.eventEntryIndexes(record.eventId, record.typeId, id),
      ...keys.eventPurchaseIndexes(record.eventId, record.purchasedDate ?? record.created, id),
      ...(record.orderId == null ? {} : keys.orderTicketIndexes(record.orderId, id)),
      ...(record.customerId == null ? {} : keys.customerTicketIndexes(record.customerId, id)),
      teamKey: record.teamId ?? 0,
    };
    const names = Object.keys(formerKeys);
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.ticket(id),
        UpdateExpression: `SET ${names.map((_, i) => `#k${i} = :k${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#k${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(
          names.map((name, i) => [`:k${i}`, formerKeys[name as keyof typeof formerKeys]]),
        ),
      }),
    );
  }
  for (const eventId of eventIds) {
    for (let shard = 0; shard < STATS_SHARDS; shard++) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.eventStats(eventId, shard) }));
      const counters = Object.keys(Item!).filter((name) => name.startsWith('n#'));
      if (!counters.length) continue;
      const names = Object.fromEntries(counters.map((name, i) => [`#n${i}`, name]));
      await db.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.eventStats(eventId, shard),
          UpdateExpression: `REMOVE ${Object.keys(names).join(', ')}`,
          ExpressionAttributeNames: names,
        }),
      );
    }
  }
}

describe('the list backfill (bin/maintenance/migrations/backfill-ticket-lists.ts)', () => {
  it('gives older tickets their list and search entries and every event its filter counts, and is safe to re-run', async () => {
    const token = await adminToken(['tickets:read', 'tickets:write'], 717_401);
    const granted = await seedEvent({ title: 'Expo', ticketTypes: [{ name: 'Expo', price: 5, total: 10 }], teams: [] });
    const event = await seedEvent({
      ticketTypes: [
        { name: 'Race', price: 40, total: 10 },
        { name: 'Race + expo', price: 60, total: 10, grants: [granted.id] },
      ],
    });
    const tickets = [
      ...(await seedTickets(event, event.ticketTypes[0]!.id, 4)),
      ...(await seedTickets(event, event.ticketTypes[1]!.id, 3)),
    ];
    const red = event.teams[0]!.id;
    const inRed = tickets.filter((ticket) => ticket.teamId === red).map((ticket) => ticket.id);
    const pass = tickets.filter((ticket) => ticket.typeId === event.ticketTypes[1]!.id).map((ticket) => ticket.id);
    await asBeforeTheRelease(
      [event.id, granted.id],
      tickets.map((ticket) => ticket.id),
    );
    const list = (query: string) => call('GET', `/api/v2/tickets?${query}`, { token });
    const ids = (response: { body: { data: { id: number }[] } }) => response.body.data.map((ticket) => ticket.id);
    expect((await list(`event=${event.id}&teams=${red}`)).body).toMatchObject({ totalCount: 0, data: [] });
    // Before the backfill the event's own list still finds every ticket by the keys its record holds,
    // and a ticket changed meanwhile moves them to its entries: listed once throughout.
    expect(ids(await list(`event=${event.id}`))).toEqual(tickets.map((ticket) => ticket.id));
    expect(
      (
        await call('PATCH', `/api/v2/tickets/${tickets[1]!.id}`, {
          token,
          body: { data: { partyMemberCompany: 'Acme' } },
        })
      ).status,
    ).toBe(200);
    expect(
      (await db.send(new GetCommand({ TableName: tableName(), Key: keys.ticketEventEntry(tickets[1]!.id) }))).Item,
    ).toBeDefined();
    expect(ids(await list(`event=${event.id}`))).toEqual(tickets.map((ticket) => ticket.id));
    const named = tickets[0]!;
    const search = () =>
      call('GET', `/api/v2/ticket?eventId=${event.id}&search=${encodeURIComponent(named.partyMemberLastName)}`, {
        token,
      });
    expect((await search()).body.data.map((ticket: { id: number }) => ticket.id)).not.toContain(named.id);

    for (let run = 0; run < 2; run++) {
      expect(await backfillTicketLists({ events: [event.id, granted.id] })).toEqual({
        entries: tickets.length,
        shards: 2 * STATS_SHARDS,
        marked: 2,
      });
      for (const ticket of tickets)
        expect(
          (await db.send(new GetCommand({ TableName: tableName(), Key: keys.ticket(ticket.id) }))).Item,
          `ticket ${ticket.id}`,
        ).not.toHaveProperty('teamKey');
      expect(ids(await list(`event=${event.id}`))).toEqual(tickets.map((ticket) => ticket.id));
      expect(ids(await list(`event=${event.id}&ticket_types=${event.ticketTypes[1]!.id}`))).toEqual(pass);
      const team = await list(`event=${event.id}&teams=${red}`);
      expect(team.body).toMatchObject({ totalCount: inRed.length });
      expect(team.body.data.map((ticket: { id: number }) => ticket.id)).toEqual(inRed);
      const access = await list(`accessEvents=${granted.id}`);
      expect(access.body).toMatchObject({ totalCount: pass.length });
      expect(access.body.data.map((ticket: { id: number }) => ticket.id)).toEqual(pass);
      expect(
        (await list(`event=${event.id}&ticket_types=${event.ticketTypes[1]!.id}&exclude_process_states=4`)).body
          .totalCount,
      ).toBe(pass.length);
      expect((await search()).body.data.map((ticket: { id: number }) => ticket.id)).toContain(named.id);
    }
  });
});
