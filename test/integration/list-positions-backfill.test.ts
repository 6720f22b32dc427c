import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '#shared/data/client';
import { keys } from '#shared/data/keys';
import { PROCESS_STATE } from '#shared/domain/ticket';
import { backfillListPositions } from '../../bin/maintenance/migrations/backfill-list-positions.ts';
import { seedEvent } from '../support/factories/tickets.ts';
import { call, idsOf } from '../support/api.ts';
import { countReads } from '../support/dynamo-reads.ts';
import { writeTickets } from '../support/scale-tickets.ts';
import { checkIn } from '../support/tickets.ts';
import { adminToken } from '../support/tokens.ts';

/** An event's position blocks as stored. */
async function positionBlocks(eventId: number): Promise<Record<string, unknown>[]> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :pos)',
      ExpressionAttributeValues: { ':pk': keys.eventItems(eventId).value, ':pos': 'POS#' },
      Limit: 1000,
    }),
  );
  return Items;
}

/** Makes events look written before the release that keeps list positions: no `POS#` blocks. */
async function withoutPositions(eventIds: number[]): Promise<number> {
  let removed = 0;
  for (const eventId of eventIds) {
    const blocks = await positionBlocks(eventId);
    for (const item of blocks)
      await db.send(new DeleteCommand({ TableName: tableName(), Key: { PK: item.PK, SK: item.SK } }));
    removed += blocks.length;
  }
  return removed;
}

/**
 * Makes an event's blocks look kept by the release before a type's list was a part of them:
 * its event blocks count per state only, and each type had blocks of its own.
 */
async function withSeparateTypeBlocks(eventId: number, typeId: number): Promise<void> {
  for (const block of await positionBlocks(eventId)) {
    const totals = Object.fromEntries(Object.entries(block).filter(([name]) => !/^y\d/.test(name)));
    await db.send(new PutCommand({ TableName: tableName(), Item: totals }));
  }
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.listPosition(eventId, `type#${typeId}`, 0), entity: 'ListPosition', s1: 1 },
    }),
  );
}

describe('the positions backfill (bin/maintenance/migrations/backfill-list-positions.ts)', () => {
  it('recounts every list block of older events so deep _offset pages are right again, re-runs to the same state, and resumes after its checkpoint', async () => {
    const token = await adminToken(['tickets:read', 'tickets:write', 'checkin:scan'], 717_402);
    const granted = await seedEvent({ title: 'Expo', ticketTypes: [{ name: 'Expo', price: 5, total: 10 }], teams: [] });
    const event = await seedEvent({
      ticketTypes: [
        { name: 'Race', price: 40, total: 1000 },
        { name: 'Race + expo', price: 60, total: 1000, grants: [granted.id] },
      ],
    });
    const [race, pass] = event.ticketTypes.map((type) => type.id) as [number, number];
    const red = event.teams[0]!.id;
    const records = await writeTickets(event, 650, (n) => ({
      typeId: n % 3 === 0 ? pass : race,
      teamId: n % 2 ? red : null,
      processState: n % 5 === 0 ? PROCESS_STATE.cancelled : PROCESS_STATE.active,
    }));
    // Changes through the API: a check-in moves the blocks' state counters and no span (its span counts it as
    // active); a move to another team, a cancellation and a delete move spans too.
    const ticketPath = (n: number) => `/api/v2/tickets/${records[n]!.id}`;
    expect((await checkIn(token, records[1]!.id)).status).toBe(200);
    expect((await call('PATCH', ticketPath(2), { token, body: { data: { teamId: red } } })).status).toBe(200);
    expect((await call('PATCH', ticketPath(4), { token, body: { data: { processState: 4 } } })).status).toBe(200);
    expect((await call('DELETE', ticketPath(8), { token })).status).toBe(204);
    Object.assign(records[2]!, { teamId: red });
    Object.assign(records[4]!, { processState: PROCESS_STATE.cancelled });
    const deleted = records[8]!.id;
    const ids = (pick: (record: (typeof records)[number]) => boolean) =>
      records
        .filter((record) => record.id !== deleted && pick(record))
        .map((record) => record.id)
        .sort((a, b) => a - b);
    const cases = [
      { query: `event=${event.id}`, expected: ids(() => true) },
      {
        query: `event=${event.id}&teams=${red}&exclude_process_states=4`,
        expected: ids((r) => r.teamId === red && r.processState !== PROCESS_STATE.cancelled),
      },
      { query: `event=${event.id}&ticket_types=${pass}`, expected: ids((r) => r.typeId === pass) },
      { query: `accessEvents=${granted.id}`, expected: ids((r) => r.typeId === pass) },
    ];
    const deepPage = async ({ query, expected }: (typeof cases)[number]) => {
      const offset = expected.length - 7;
      const { result, reads } = await countReads(() =>
        call('GET', `/api/v2/tickets?${query}&_offset=${offset}&_limit=5`, { token }),
      );
      expect(result.status, query).toBe(200);
      return {
        got: result.body.data.map((ticket: { id: number }) => ticket.id),
        want: expected.slice(offset, offset + 5),
        itemsRead: reads.itemsRead,
      };
    };

    const live = await positionBlocks(event.id);
    expect(live.filter((item) => String(item.SK).startsWith('POS#span#team#')).length).toBeGreaterThan(0);

    expect(await withoutPositions([event.id, granted.id])).toBeGreaterThan(0);
    // Without blocks an offset page is read from the list's start (right, but it costs the offset).
    const before = await deepPage(cases[0]!);
    expect(before.got).toEqual(before.want);
    expect(before.itemsRead).toBeGreaterThan(600);

    const run = randomUUID();
    const seen: string[] = [];
    const first = await backfillListPositions({
      events: [event.id, granted.id],
      run,
      progress: (done, total) => seen.push(`${done}/${total}`),
    });
    expect(first).toMatchObject({ events: 2, tickets: 649 });
    expect(seen).toEqual(['1/2', '2/2']);
    // The recount is what the live writes kept: every block, span and the spans' mark.
    expect(await positionBlocks(event.id)).toEqual(live);
    for (const each of cases) {
      const { got, want, itemsRead } = await deepPage(each);
      expect(got, each.query).toEqual(want);
      expect(itemsRead, each.query).toBeLessThan(300);
    }
    // Resumes: both events are done, so the same run does nothing more; a restart recounts to the same blocks.
    expect(await backfillListPositions({ events: [event.id, granted.id], run })).toEqual({
      events: 0,
      tickets: 0,
      blocks: 0,
      purchaseCounts: 0,
    });
    expect(await backfillListPositions({ events: [event.id, granted.id], run, restart: true })).toEqual(first);
    for (const each of cases) {
      const { got, want } = await deepPage(each);
      expect(got, each.query).toEqual(want);
    }
  });

  it("after the release that made a type's list a part of the event blocks: a type offset stays right, read from the start, until the backfill recounts the parts and drops the old blocks", async () => {
    const token = await adminToken(['tickets:read', 'tickets:write', 'checkin:scan'], 717_403);
    const event = await seedEvent({
      ticketTypes: [
        { name: 'Race', price: 40, total: 1000 },
        { name: 'Relay', price: 60, total: 1000 },
      ],
      teams: [],
    });
    const relay = event.ticketTypes[1]!.id;
    const records = await writeTickets(event, 420, (n) => ({ typeId: event.ticketTypes[n % 2]!.id, teamId: null }));
    const inRelay = records
      .filter((record) => record.typeId === relay)
      .map((record) => record.id)
      .sort((a, b) => a - b);
    const deepRelayPage = async () => {
      const offset = inRelay.length - 4;
      const { result, reads } = await countReads(() =>
        call('GET', `/api/v2/tickets?event=${event.id}&ticket_types=${relay}&_offset=${offset}&_limit=3`, { token }),
      );
      expect(result.status).toBe(200);
      expect(idsOf(result.body.data)).toEqual(inRelay.slice(offset, offset + 3));
      return { itemsRead: reads.itemsRead, offset };
    };
    expect((await deepRelayPage()).itemsRead).toBeLessThan(150);

    await withSeparateTypeBlocks(event.id, relay);
    // A change since the release adds its move to the parts of a block that still holds its older tickets in the totals only.
    expect((await checkIn(token, inRelay[0]!)).status).toBe(200);
    const fromTheStart = await deepRelayPage();
    expect(fromTheStart.itemsRead).toBeGreaterThan(fromTheStart.offset);

    await backfillListPositions({ events: [event.id], run: randomUUID() });
    expect((await deepRelayPage()).itemsRead).toBeLessThan(150);
    const lists = new Set((await positionBlocks(event.id)).map((block) => String(block.SK).split('#')[1]));
    // `span`: the team lists' spans and the mark that they are kept.
    expect([...lists].sort()).toEqual(['event', 'span', 'team']);
  });
});
