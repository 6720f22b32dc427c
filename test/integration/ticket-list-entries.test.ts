import { beforeAll, describe, expect, it } from 'vitest';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/client';
import { keys } from '#shared/data/keys';
import { listEntryItems } from '#shared/lists/ticket-list-entries';
import { readTicketRecords } from '#shared/tickets/data/ticket-records';
import { PROCESS_STATE, type TicketRecord } from '#shared/tickets/domain/ticket';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';
import { call } from '../support/api.ts';
import { checkIn, TICKETS } from '../support/tickets.ts';
import { listsCaughtUp } from '../support/lists-caught-up.ts';
import { adminToken } from '../support/tokens.ts';

/**
 * The list entries and the per-filter counts move with every kind of change (check-in,
 * access scan, team edit, cancel, delete, transfer): each filter's page and totalCount equal
 * a recount from the ticket records, and each ticket's entries are what `listEntryItems`
 * builds from its record.
 */
let token: string;
beforeAll(async () => {
  token = await adminToken();
});

const patch = (id: number, data: unknown) => call('PATCH', `${TICKETS}/${id}`, { token, body: { data } });

describe('list entries and filter counts', () => {
  it('equal a recount from the records after check-ins, scans, edits, cancels, deletes and transfers', async () => {
    const granted = await seedEvent({
      title: 'Expo',
      ticketTypes: [{ name: 'Expo', price: 5, total: 100 }],
      teams: [],
    });
    const lounge = await seedEvent({ title: 'Lounge', ticketTypes: [{ name: 'Lounge', price: 9, total: 100 }] });
    const event = await seedEvent({
      ticketTypes: [
        { name: 'Race', price: 40, total: 100 },
        { name: 'Race + expo + lounge', price: 60, total: 100, grants: [granted.id, lounge.id] },
      ],
    });
    const [race, pass] = event.ticketTypes.map((type) => type.id) as [number, number];
    const [red, blue] = event.teams.map((team) => team.id) as [number, number];
    const ids = [
      ...(await seedTickets(event, race, 6)),
      ...(await seedTickets(event, pass, 4)),
      ...(await seedTickets(granted, granted.ticketTypes[0]!.id, 2)),
      ...(await seedTickets(lounge, lounge.ticketTypes[0]!.id, 1)),
    ].map((t) => t.id);

    expect((await checkIn(token, ids[0]!)).status).toBe(200);
    expect((await checkIn(token, ids[6]!, { event: granted.id })).status).toBe(200);
    expect((await checkIn(token, ids[7]!)).status).toBe(200);
    expect((await patch(ids[1]!, { teamId: blue })).status).toBe(200);
    expect((await patch(ids[2]!, { teamId: 0 })).status).toBe(200);
    expect((await patch(ids[3]!, { processState: '4' })).status).toBe(200);
    expect((await patch(ids[8]!, { processState: '4', teamId: red })).status).toBe(200);
    expect((await call('DELETE', `${TICKETS}/${ids[4]!}`, { token })).status).toBe(204);
    expect((await call('DELETE', `${TICKETS}/${ids[9]!}`, { token })).status).toBe(204);
    const moved = await call('POST', `${TICKETS}/${ids[5]!}/transfer`, { token, body: { typeId: pass } });
    expect(moved.status).toBe(200);
    ids.push(moved.body.data.id);
    // The changes' list entries and positions are the stream consumer's, written after each change.
    await listsCaughtUp(ids);

    const records = [...(await readTicketRecords(ids)).values()];
    for (const record of records) {
      const { Items = [] } = await db.send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :list)',
          ExpressionAttributeValues: { ':pk': keys.ticket(record.id).PK, ':list': 'LIST' },
          Limit: 10,
        }),
      );
      const bySk = (a: Record<string, unknown>, b: Record<string, unknown>) => (String(a.SK) < String(b.SK) ? -1 : 1);
      expect(Items.sort(bySk), `entries of ticket ${record.id}`).toEqual(listEntryItems(record).sort(bySk));
    }

    const live = records.filter((record) => !record.deleted);
    const cases: [string, (record: TicketRecord) => boolean][] = [
      [`event=${event.id}`, (r) => r.eventId === event.id],
      [`event=${event.id}&teams=${red}`, (r) => r.eventId === event.id && r.teamId === red],
      // A value named twice is one filter value (counted once).
      [
        `event=${event.id}&teams=${red},${red}&ticket_types=${pass},${pass}`,
        (r) => r.teamId === red && r.typeId === pass,
      ],
      [`event=${event.id}&ticket_types=${race},${race}`, (r) => r.typeId === race],
      [`event=${event.id}&teams=${blue}`, (r) => r.eventId === event.id && r.teamId === blue],
      [`event=${event.id}&teams=0`, (r) => r.eventId === event.id && !r.teamId],
      [`event=${event.id}&ticket_types=${pass}`, (r) => r.typeId === pass],
      [
        `event=${event.id}&ticket_types=${race},${pass}&exclude_process_states=2`,
        (r) => r.eventId === event.id && r.processState !== PROCESS_STATE.checkedIn,
      ],
      [
        `event=${event.id}&exclude_process_states=4`,
        (r) => r.eventId === event.id && r.processState !== PROCESS_STATE.cancelled,
      ],
      [
        `event=${event.id}&teams=${red}&exclude_process_states=2,4`,
        (r) => r.eventId === event.id && r.teamId === red && r.processState < 2,
      ],
      [`accessEvents=${granted.id}`, (r) => r.eventId === granted.id || r.typeId === pass],
      [
        `accessEvents=${granted.id}&exclude_process_states=4`,
        (r) => (r.eventId === granted.id || r.typeId === pass) && r.processState !== 4,
      ],
      [
        `accessEvents=${granted.id}&teams=${red},0`,
        (r) => (r.eventId === granted.id || r.typeId === pass) && r.teamId !== blue,
      ],
      // Beside other events: a pass is granted into both access events, and is an own ticket of the event.
      [
        `accessEvents=${granted.id},${lounge.id}`,
        (r) => r.eventId === granted.id || r.eventId === lounge.id || r.typeId === pass,
      ],
      [
        `accessEvents=${granted.id},${lounge.id}&teams=${red}&exclude_process_states=2`,
        (r) => r.typeId === pass && r.teamId === red && r.processState !== PROCESS_STATE.checkedIn,
      ],
      [`event=${event.id}&accessEvents=${lounge.id}`, (r) => r.eventId === event.id || r.eventId === lounge.id],
      [
        `events=${granted.id},${granted.id}&accessEvents=${lounge.id},${lounge.id}&teams=0`,
        (r) => (r.eventId === granted.id || r.eventId === lounge.id || r.typeId === pass) && !r.teamId,
      ],
      [`event=${granted.id}&accessEvents=${lounge.id}&ticket_types=${pass}`, (r) => r.typeId === pass],
    ];
    for (const [query, matches] of cases) {
      const response = await call('GET', `${TICKETS}?${query}&_limit=100`, { token });
      expect(response.status, query).toBe(200);
      const expected = live
        .filter(matches)
        .map((r) => r.id)
        .sort((a, b) => a - b);
      expect(
        response.body.data.map((t: { id: number }) => t.id),
        query,
      ).toEqual(expected);
      expect(response.body.totalCount, query).toBe(expected.length);
      expect(response.body.totalCountIsEstimate, query).toBeUndefined();
      expect(response.body.next, query).toBeNull();
    }
  });
});
