import { beforeAll, describe, expect, it } from 'vitest';
import { readTicketRecord } from '#shared/tickets/data/ticket-records';
import { PROCESS_STATE } from '#shared/tickets/domain/ticket';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';
import { call } from '../support/api.ts';
import { checkIn, readStats, TICKETS } from '../support/tickets.ts';
import { adminToken } from '../support/tokens.ts';

const TICKET = '/api/v2/ticket';
const EDITOR_ID = 616_001;
let editor: string;
let undoer: string;
let scanner: string;

beforeAll(async () => {
  editor = await adminToken(['tickets:read', 'tickets:write'], EDITOR_ID);
  undoer = await adminToken(['tickets:read', 'tickets:write', 'checkin:undo'], 616_002);
  scanner = await adminToken(['checkin:scan', 'tickets:read'], 616_003);
});

const tickets = async (count: number) => {
  const event = await seedEvent();
  return { event, tickets: await seedTickets(event, event.ticketTypes[0]!.id, count) };
};
const states = (id: number, body: unknown, token = editor) => call('POST', `${TICKET}/${id}/states`, { token, body });
const bibFree = async (id: number, bib: string) => {
  const response = await call('GET', `${TICKET}/${id}/is-bib-available/${bib}`, { token: editor });
  expect(response.status, response.raw).toBe(200);
  return response.body.available as boolean;
};

describe('GET /ticket/{id}', () => {
  it('answers the ticket with the fields of /tickets/{id}, in {count, data}', async () => {
    const {
      tickets: [ticket],
    } = await tickets(1);
    const older = await call('GET', `${TICKET}/${ticket!.id}`, { token: editor });
    const newer = await call('GET', `${TICKETS}/${ticket!.id}`, { token: editor });
    expect(older.status).toBe(200);
    expect(older.body).toEqual({ count: 1, data: newer.body.data });
  });

  it('answers 404 for an unknown or deleted ticket and 400 for a bad id', async () => {
    const {
      tickets: [ticket],
    } = await tickets(1);
    await call('DELETE', `${TICKETS}/${ticket!.id}`, { token: editor });
    expect((await call('GET', `${TICKET}/${ticket!.id}`, { token: editor })).status).toBe(404);
    expect((await call('GET', `${TICKET}/987654321`, { token: editor })).status).toBe(404);
    const bad = await call('GET', `${TICKET}/12abc`, { token: editor });
    expect(bad.status).toBe(400);
    expect(bad.headers['content-type']).toBe('application/problem+json');
  });
});

describe('GET /ticket/{ticketId}/answers', () => {
  it("answers every answer with its question text and the chosen option, in the event's question order", async () => {
    const {
      event,
      tickets: [ticket],
    } = await tickets(1);
    const response = await call('GET', `${TICKET}/${ticket!.id}/answers`, { token: editor });
    expect(response.status).toBe(200);
    const [contact, shirt] = event.questions;
    expect(response.body.count).toBe(2);
    expect(response.body.data[0]).toMatchObject({
      questionId: contact!.id,
      question: 'Emergency contact',
      required: true,
      answerId: null,
    });
    expect(response.body.data[0].answer).toBe(ticket!.attendeeQuestions[0]!.answerText);
    const chosen = shirt!.options.find((option) => option.id === ticket!.attendeeQuestions[1]!.answerId)!;
    expect(response.body.data[1]).toMatchObject({
      questionId: shirt!.id,
      question: 'T-shirt size',
      answerId: chosen.id,
      answer: chosen.text,
      sku: chosen.sku,
    });
  });
});

describe('GET /ticket/{ticketId}/is-bib-available/{bib}', () => {
  it("flips when a bib is given by PATCH, counts the holder's own bib as available, and frees it when the ticket is cancelled", async () => {
    const {
      tickets: [holder, other],
    } = await tickets(2);
    expect(await bibFree(other!.id, '1042')).toBe(true);
    expect(
      (await call('PATCH', `${TICKETS}/${holder!.id}`, { token: editor, body: { data: { bibNumber: '1042' } } }))
        .status,
    ).toBe(200);
    expect(await bibFree(other!.id, '1042')).toBe(false);
    expect(await bibFree(holder!.id, '1042')).toBe(true);

    expect(
      (await call('PATCH', `${TICKETS}/${holder!.id}`, { token: editor, body: { data: { processState: '4' } } }))
        .status,
    ).toBe(200);
    expect(await bibFree(other!.id, '1042')).toBe(true);
  });

  it('refuses a bib that is not letters, digits, - or _ with 400, and an unknown ticket with 404', async () => {
    const {
      tickets: [ticket],
    } = await tickets(1);
    expect(
      (await call('GET', `${TICKET}/${ticket!.id}/is-bib-available/${'9'.repeat(21)}`, { token: editor })).status,
    ).toBe(400);
    expect((await call('GET', `${TICKET}/${ticket!.id}/is-bib-available/a%20b`, { token: editor })).status).toBe(400);
    expect((await call('GET', `${TICKET}/987654321/is-bib-available/7`, { token: editor })).status).toBe(404);
  });
});

describe('POST /ticket/{ticketId}/states', () => {
  it('cancels and restores a ticket, records who did it, and keeps the statistics exact', async () => {
    const {
      event,
      tickets: [ticket],
    } = await tickets(1);
    const cancelled = await states(ticket!.id, { processState: PROCESS_STATE.cancelled });
    expect(cancelled.status, cancelled.raw).toBe(200);
    expect(cancelled.body.data).toMatchObject({ id: ticket!.id, processState: PROCESS_STATE.cancelled });
    expect((await readStats(editor, event.id)).soldTickets).toBe(0);

    expect((await states(ticket!.id, { processState: PROCESS_STATE.active })).status).toBe(200);
    expect((await readStats(editor, event.id)).soldTickets).toBe(1);
    const history = (await call('GET', `${TICKETS}/${ticket!.id}?_include=history`, { token: editor })).body.data
      .history.data;
    expect(history.slice(0, 2)).toEqual([
      expect.objectContaining({
        action: 'states',
        actor: `admin ${EDITOR_ID}`,
        states: { processState: { from: 4, to: 1 } },
      }),
      expect.objectContaining({
        action: 'states',
        actor: `admin ${EDITOR_ID}`,
        states: { processState: { from: 1, to: 4 } },
      }),
    ]);
  });

  it('undoes a check-in only for a caller with checkin:undo', async () => {
    const {
      event,
      tickets: [ticket],
    } = await tickets(1);
    await checkIn(scanner, ticket!.id);
    const refused = await states(ticket!.id, { processState: PROCESS_STATE.active });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ reason: 'checked_in', field: 'processState' });
    expect(refused.body.detail).toContain('checkin:undo');

    const undone = await states(ticket!.id, { processState: PROCESS_STATE.active }, undoer);
    expect(undone.status).toBe(200);
    expect((await readStats(editor, event.id)).checkedInTickets).toBe(0);
    expect((await checkIn(scanner, ticket!.id)).status).toBe(200);
  });

  it('restores a deleted ticket with deleted: 0, its bib back only while it is free', async () => {
    const {
      tickets: [first, second, third],
    } = await tickets(3);
    await call('PATCH', `${TICKETS}/${first!.id}`, { token: editor, body: { data: { bibNumber: 'R-7' } } });
    await call('PATCH', `${TICKETS}/${third!.id}`, { token: editor, body: { data: { bibNumber: 'R-8' } } });
    expect((await states(first!.id, { deleted: 1 })).status).toBe(200);
    expect((await states(first!.id, { deleted: 0 })).body.data).toMatchObject({ deleted: 0, bibNumber: 'R-7' });
    expect(await bibFree(second!.id, 'R-7')).toBe(false);

    expect((await states(third!.id, { deleted: 1 })).status).toBe(200);
    expect(
      (await call('PATCH', `${TICKETS}/${second!.id}`, { token: editor, body: { data: { bibNumber: 'R-8' } } })).status,
    ).toBe(200);
    const taken = await states(third!.id, { deleted: 0 });
    expect(taken.status).toBe(409);
    expect(taken.body.reason).toBe('bib_taken');
    expect((await readTicketRecord(third!.id))!.deleted).toBe(1);
  });

  it('refuses unknown codes with 400 and moves the state machine refuses with 409, changing nothing', async () => {
    const {
      tickets: [ticket],
    } = await tickets(1);
    for (const body of [
      { processState: 3 },
      { transferState: 'moved' },
      { deleted: 2 },
      {},
      { processState: '4' },
      { colour: 'red' },
    ]) {
      const response = await states(ticket!.id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    const transfer = await states(ticket!.id, { transferState: 'transferred' });
    expect(transfer.status).toBe(409);
    expect(transfer.body.reason).toBe('use_transfer');
    expect(await readTicketRecord(ticket!.id)).toMatchObject({
      processState: PROCESS_STATE.active,
      transferState: 'none',
      version: 1,
    });
  });
});
