import { beforeAll, describe, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/client';
import { keys } from '#shared/data/keys';
import { historyPut } from '#shared/tickets/data/ticket-history';
import { readTicketRecord, ticketItem } from '#shared/tickets/data/ticket-records';
import { PROCESS_STATE } from '#shared/tickets/domain/ticket';
import { Conflict } from '#shared/errors';
import { changeTicketStates } from '#shared/tickets/use-cases/edit-ticket';
import { call } from '../support/api.ts';
import { storedItem } from '../support/dynamo-writes.ts';
import { checkIn, oneTicket, readStats, SYSTEM, TICKETS } from '../support/tickets.ts';
import { adminToken } from '../support/tokens.ts';

const EDITOR_ID = 515_001;
const SCANNER_ID = 515_002;
let editor: string;
let scanner: string;

beforeAll(async () => {
  editor = await adminToken(['tickets:read', 'tickets:write'], EDITOR_ID);
  scanner = await adminToken(['checkin:scan', 'tickets:read'], SCANNER_ID);
});

const patch = (id: number, data: Record<string, unknown>) =>
  call('PATCH', `${TICKETS}/${id}`, { token: editor, body: { data } });
const refusalOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => (error instanceof Conflict ? error.reason : Promise.reject(error)),
  );

describe('ticket states at the gate', () => {
  it('refuses to re-activate a checked-in ticket by PATCH, so the gate never admits it twice', async () => {
    const { event, ticket } = await oneTicket();
    expect((await checkIn(scanner, ticket.id)).status).toBe(200);

    const reopened = await patch(ticket.id, { processState: '1' });
    expect(reopened.status).toBe(409);
    expect(reopened.body).toMatchObject({ reason: 'checked_in', field: 'processState' });
    expect((await checkIn(scanner, ticket.id)).body.reason).toBe('already_checked_in');
    expect(await readStats(editor, event.id)).toMatchObject({ soldTickets: 1, checkedInTickets: 1 });
  });

  it('refuses to cancel a checked-in ticket, and to issue an issued ticket back to pending', async () => {
    const { ticket } = await oneTicket();
    expect((await patch(ticket.id, { processState: '0' })).body.reason).toBe('no_way_back');
    await checkIn(scanner, ticket.id);
    expect((await patch(ticket.id, { processState: '4' })).body.reason).toBe('checked_in');
    expect((await readTicketRecord(ticket.id))!.processState).toBe(PROCESS_STATE.checkedIn);
  });

  it('undoes a check-in only with the undo permission, and then the gate admits the ticket again', async () => {
    const { event, ticket } = await oneTicket();
    await checkIn(scanner, ticket.id);
    expect(await refusalOf(changeTicketStates(ticket.id, { processState: PROCESS_STATE.active }, SYSTEM))).toBe(
      'checked_in',
    );

    const undone = await changeTicketStates(
      ticket.id,
      { processState: PROCESS_STATE.active },
      { kind: 'admin', id: EDITOR_ID },
      { mayUndoCheckIn: true },
    );
    expect(undone).toMatchObject({ processState: PROCESS_STATE.active, checkIn: null });
    expect((await readStats(editor, event.id)).checkedInTickets).toBe(0);
    expect((await checkIn(scanner, ticket.id)).status).toBe(200);
    expect((await readStats(editor, event.id)).checkedInTickets).toBe(1);
  });

  it('restores a cancelled ticket only through the explicit states path, giving its place back', async () => {
    const { event, ticket } = await oneTicket();
    expect((await patch(ticket.id, { processState: '4' })).status).toBe(200);
    expect((await readStats(editor, event.id)).soldTickets).toBe(0);

    const revived = await patch(ticket.id, { processState: '1' });
    expect(revived.status).toBe(409);
    expect(revived.body.reason).toBe('cancelled');
    expect((await readStats(editor, event.id)).soldTickets).toBe(0);

    await changeTicketStates(ticket.id, { processState: PROCESS_STATE.active }, SYSTEM);
    expect((await readStats(editor, event.id)).soldTickets).toBe(1);
  });

  it('keeps a transferred original transferred: it never counts as sold again beside its replacement', async () => {
    const { event, ticket } = await oneTicket();
    const moved = await call('POST', `${TICKETS}/${ticket.id}/transfer`, {
      token: editor,
      body: { typeId: event.ticketTypes[1]!.id },
    });
    expect(moved.status).toBe(200);
    expect((await readStats(editor, event.id)).soldTickets).toBe(1);

    expect(await refusalOf(changeTicketStates(ticket.id, { transferState: 'none' }, SYSTEM))).toBe('transferred');
    expect(await refusalOf(changeTicketStates(ticket.id, { processState: PROCESS_STATE.cancelled }, SYSTEM))).toBe(
      'transferred',
    );
    expect((await patch(ticket.id, { withdrawnState: 'withdrawn' })).body.reason).toBe('transferred');
    expect((await readTicketRecord(ticket.id))!.transferState).toBe('transferred');
    expect(await readStats(editor, event.id)).toMatchObject({ soldTickets: 1, checkedInTickets: 0 });
  });

  it('refuses to mark a ticket transferred without the transfer route', async () => {
    const { ticket } = await oneTicket();
    expect(await refusalOf(changeTicketStates(ticket.id, { transferState: 'transferred' }, SYSTEM))).toBe(
      'use_transfer',
    );
  });
});

describe('GET /tickets/{id}?_include=history', () => {
  it('names the actor of every change, newest first, with the state moves and changed fields', async () => {
    const { ticket } = await oneTicket();
    expect((await patch(ticket.id, { partyMember: 'Renamed', bibNumber: 'H-1' })).status).toBe(200);
    expect((await checkIn(scanner, ticket.id)).status).toBe(200);

    const read = await call('GET', `${TICKETS}/${ticket.id}?_include=history`, { token: editor });
    expect(read.status).toBe(200);
    const { history } = read.body.data;
    expect(history).toMatchObject({ totalCount: 3, count: 3, limit: 25, offset: 0 });
    expect(history.data).toEqual([
      expect.objectContaining({
        version: 3,
        action: 'check_in',
        actor: `admin ${SCANNER_ID}`,
        states: { processState: { from: 1, to: 2 } },
        fields: [],
      }),
      expect.objectContaining({
        version: 2,
        action: 'edit',
        actor: `admin ${EDITOR_ID}`,
        states: {},
        fields: ['bibNumber', 'partyMember'],
      }),
      expect.objectContaining({ version: 1, action: 'create', actor: 'system' }),
    ]);
    for (const entry of history.data) expect(Date.parse(entry.at)).not.toBeNaN();
  });

  it('pages the history by key: a deep page holds exactly the entries at its offset', async () => {
    const { ticket } = await oneTicket();
    for (const name of ['A', 'B', 'C', 'D']) await patch(ticket.id, { partyMember: name });
    const page = await call('GET', `${TICKETS}/${ticket.id}?_include=history&history_limit=2&history_offset=3`, {
      token: editor,
    });
    expect(page.body.data.history).toMatchObject({ totalCount: 5, count: 2, limit: 2, offset: 3 });
    expect(page.body.data.history.data.map((entry: { version: number }) => entry.version)).toEqual([2, 1]);
    const past = await call('GET', `${TICKETS}/${ticket.id}?_include=history&history_offset=9`, { token: editor });
    expect(past.body.data.history).toMatchObject({ totalCount: 5, count: 0, data: [] });
  });

  it("keeps a creation's entry on the ticket's record, answered as entry 1 on every page that reaches it", async () => {
    const { ticket } = await oneTicket();
    expect(await storedItem(keys.ticketHistory(ticket.id, 1))).toBeUndefined();
    expect((await readTicketRecord(ticket.id))!.creation).toEqual({
      at: ticket.created,
      actor: 'system',
      action: 'create',
    });
    const created = await call('GET', `${TICKETS}/${ticket.id}?_include=history`, { token: editor });
    expect(created.body.data.history).toMatchObject({ totalCount: 1, count: 1 });
    expect(created.body.data.history.data).toEqual([
      { version: 1, at: ticket.created, actor: 'system', action: 'create', states: {}, fields: [] },
    ]);
    await patch(ticket.id, { partyMember: 'A' });
    await patch(ticket.id, { partyMember: 'B' });
    const versions = async (limit: number, offset: number) =>
      (
        await call('GET', `${TICKETS}/${ticket.id}?_include=history&history_limit=${limit}&history_offset=${offset}`, {
          token: editor,
        })
      ).body.data.history.data.map((entry: { version: number }) => entry.version);
    expect(await versions(2, 0)).toEqual([3, 2]);
    expect(await versions(2, 1)).toEqual([2, 1]);
    expect(await versions(1, 2)).toEqual([1]);
    // Later changes keep it as it was.
    expect((await readTicketRecord(ticket.id))!.creation).toEqual({
      at: ticket.created,
      actor: 'system',
      action: 'create',
    });
  });

  it('answers entry 1 of a record written before records kept their creation from its own item', async () => {
    const { ticket } = await oneTicket();
    const { creation, ...record } = (await readTicketRecord(ticket.id))!;
    const entry = { version: 1, ...creation!, actor: 'admin 7', states: {}, fields: [] };
    await db.send(new PutCommand({ TableName: tableName(), Item: ticketItem(record) }));
    await db.send(new PutCommand(historyPut(ticket.id, entry).Put));
    expect((await patch(ticket.id, { partyMember: 'Older' })).status).toBe(200);
    expect((await readTicketRecord(ticket.id))!.creation).toBeUndefined();
    const read = await call('GET', `${TICKETS}/${ticket.id}?_include=history`, { token: editor });
    expect(read.body.data.history.data).toEqual([
      expect.objectContaining({ version: 2, action: 'edit', fields: ['partyMember'] }),
      entry,
    ]);
  });

  it('records refused changes nowhere, and shows history only on a single ticket', async () => {
    const { event, ticket } = await oneTicket();
    await checkIn(scanner, ticket.id);
    await patch(ticket.id, { processState: '1' });
    const read = await call('GET', `${TICKETS}/${ticket.id}?_include=history`, { token: editor });
    expect(read.body.data.history.totalCount).toBe(2);
    const list = await call('GET', `${TICKETS}?event=${event.id}&_include=history`, { token: editor });
    expect(list.status).toBe(400);
  });
});
