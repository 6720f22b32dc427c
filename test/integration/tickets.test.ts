import { randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { readTicketRecord } from '#shared/tickets/data/ticket-records';
import { createTicket } from '#shared/tickets/use-cases/create-ticket';
import { changeTicketStates } from '#shared/tickets/use-cases/edit-ticket';
import { PROCESS_STATE } from '#shared/tickets/domain/ticket';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';
import { listsCaughtUp } from '../support/lists-caught-up.ts';
import { call } from '../support/api.ts';
import { accessFixture, oneTicket, SYSTEM } from '../support/tickets.ts';
import { adminToken } from '../support/tokens.ts';

const BASE = '/api/v2/tickets';
let token: string;

beforeAll(async () => {
  token = await adminToken();
});

const as = (options: Parameters<typeof call>[2] = {}) => ({ token, ...options });
const stats = async (...events: number[]) => {
  const response = await call('GET', `${BASE}/check-in-stats?events=${events.join(',')}`, as());
  expect(response.status).toBe(200);
  return response.body.data as { eventIds: number[]; soldTickets: number; checkedInTickets: number };
};

describe('GET /tickets/{id}', () => {
  it('answers the ticket with every field of the update body, and the expansions asked for', async () => {
    const { event, ga, ticket } = await oneTicket();
    const plain = await call('GET', `${BASE}/${ticket.id}`, as());
    expect(plain.status).toBe(200);
    // Spec: `{ data: ticket }`, without the `count` other single answers carry.
    expect(Object.keys(plain.body)).toEqual(['data']);
    expect(plain.body.data).toMatchObject({
      id: ticket.id,
      eventId: event.id,
      typeId: ga.id,
      processState: PROCESS_STATE.active,
      transferState: 'none',
      withdrawnState: 'none',
      upgradeState: 'none',
      deleted: 0,
      profilePhoto: null,
      partyMember: expect.any(String),
      attendeeQuestions: expect.any(Array),
    });
    expect(plain.body.data).not.toHaveProperty('purchaser');
    const full = await call(
      'GET',
      `${BASE}/${ticket.id}?_include=change_status,ticket_status,purchaser,checkInInfo`,
      as(),
    );
    expect(full.body.data).toMatchObject({
      ticketClaim: null,
      ticketRefund: { status: 'none' },
      purchaser: { email: expect.any(String) },
      checkInInfo: { scannedTimestamp: null, scans: [] },
    });
  });

  it('answers 404 for an unknown id and 400 for an unknown include', async () => {
    expect((await call('GET', `${BASE}/987654321`, as())).status).toBe(404);
    const { ticket } = await oneTicket();
    const bad = await call('GET', `${BASE}/${ticket.id}?_include=everything`, as());
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toMatch(/^query\._include/);
  });
});

describe('GET /tickets', () => {
  it('refuses teams without the events they belong to with a 400 that asks for the events', async () => {
    // Lists across events without a team filter: test/deep/ticket-lists-across-events.test.ts.
    const response = await call('GET', `${BASE}?teams=3`, as());
    expect(response.status).toBe(400);
    expect(response.body.errors[0]).toMatchObject({
      path: 'query.teams',
      message: expect.stringContaining('name the events too'),
    });
  });

  it("lists an event's tickets in id order with the paged envelope", async () => {
    const event = await seedEvent();
    const tickets = await seedTickets(event, event.ticketTypes[0]!.id, 5);
    const page = await call('GET', `${BASE}?event=${event.id}&_limit=2&_offset=1`, as());
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ totalCount: 5, count: 2, limit: 2, offset: 1 });
    expect(page.body.data.map((ticket: { id: number }) => ticket.id)).toEqual(
      tickets.slice(1, 3).map((ticket) => ticket.id),
    );
    expect((await call('GET', `${BASE}?event=${event.id}&_limit=101`, as())).status).toBe(400);
  });

  it('filters by events, teams (0 = unassigned), ticket types and excluded process states', async () => {
    const one = await seedEvent();
    const two = await seedEvent();
    const [red, blue] = one.teams;
    const [ga, vip] = one.ticketTypes;
    const redTicket = await createTicket({ typeId: ga!.id, teamId: red!.id });
    const blueTicket = await createTicket({ typeId: vip!.id, teamId: blue!.id });
    const loneTicket = await createTicket({ typeId: ga!.id, teamId: null });
    const otherTicket = await createTicket({ typeId: two.ticketTypes[0]!.id });
    await listsCaughtUp([redTicket, blueTicket, loneTicket, otherTicket]);
    const ids = async (query: string) =>
      (await call('GET', `${BASE}?${query}`, as())).body.data.map((ticket: { id: number }) => ticket.id);

    expect(await ids(`events=${one.id},${two.id}`)).toEqual([
      redTicket.id,
      blueTicket.id,
      loneTicket.id,
      otherTicket.id,
    ]);
    expect(await ids(`event=${one.id}&teams=0`)).toEqual([loneTicket.id]);
    expect(await ids(`event=${one.id}&teams=0,${blue!.id}`)).toEqual([blueTicket.id, loneTicket.id]);
    expect(await ids(`event=${one.id}&ticket_types=${vip!.id}`)).toEqual([blueTicket.id]);
    await changeTicketStates(redTicket.id, { processState: PROCESS_STATE.cancelled }, SYSTEM);
    await listsCaughtUp([redTicket]);
    expect(await ids(`event=${one.id}&exclude_process_states=4`)).toEqual([blueTicket.id, loneTicket.id]);
    const counted = await call('GET', `${BASE}?event=${one.id}&exclude_process_states=4&_limit=1&_offset=1`, as());
    expect(counted.body).toMatchObject({ totalCount: 2, count: 1, data: [{ id: loneTicket.id }] });
    const filtered = await call('GET', `${BASE}?event=${one.id}&teams=0,${red!.id}&_limit=1`, as());
    expect(filtered.body).toMatchObject({ totalCount: 2, count: 1, data: [{ id: redTicket.id }] });
    expect(await ids(`event=${one.id}`)).toContain(redTicket.id);
  });

  it('lists the tickets with access to an event, directly or through an access package', async () => {
    const { a, b, dayType, passType } = await accessFixture();
    const [day] = await seedTickets(a, dayType, 1);
    const [pass] = await seedTickets(a, passType, 1);
    const [own] = await seedTickets(b, b.ticketTypes[0]!.id, 1);
    const response = await call('GET', `${BASE}?accessEvents=${b.id}`, as());
    expect(response.body.data.map((ticket: { id: number }) => ticket.id)).toEqual([pass!.id, own!.id]);
    expect(response.body.data.map((ticket: { id: number }) => ticket.id)).not.toContain(day!.id);
  });

  it('adds the expansions to every listed ticket', async () => {
    const event = await seedEvent();
    await seedTickets(event, event.ticketTypes[0]!.id, 2);
    const response = await call('GET', `${BASE}?event=${event.id}&_include=purchaser,checkInInfo`, as());
    for (const ticket of response.body.data) {
      expect(ticket).toMatchObject({ purchaser: { email: expect.any(String) }, checkInInfo: { scans: [] } });
    }
  });
});

describe('PATCH /tickets/{id}', () => {
  it('updates writable fields and answers the ticket', async () => {
    const { event, ticket } = await oneTicket();
    const response = await call(
      'PATCH',
      `${BASE}/${ticket.id}`,
      as({
        body: {
          data: {
            partyMember: 'Grace',
            emailAddress: 'grace@example.test',
            teamId: event.teams[1]!.id,
            price: 12.5,
            chipNumber: 'CHIP-9',
          },
        },
      }),
    );
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      partyMember: 'Grace',
      emailAddress: 'grace@example.test',
      teamId: event.teams[1]!.id,
      price: 12.5,
      chipNumber: 'CHIP-9',
    });
    expect((await call('GET', `${BASE}/${ticket.id}`, as())).body.data).toEqual(response.body.data);
  });

  it('refuses a price or tax finer than cents with a 400 naming the field, even 1e-200, and keeps whole cents', async () => {
    // A 1e-200 price was a 500 (DynamoDB cannot store it) until the fuzzing found it.
    const { ticket } = await oneTicket();
    const tiny = await call('PATCH', `${BASE}/${ticket.id}`, as({ body: { data: { price: 1e-200 } } }));
    expect(tiny.status).toBe(400);
    expect(tiny.body.errors[0]).toEqual({ path: 'body.data.price', message: 'must have at most 2 decimal places' });
    expect((await call('PATCH', `${BASE}/${ticket.id}`, as({ body: { data: { taxAmount: 0.125 } } }))).status).toBe(
      400,
    );
    expect(
      (await call('PATCH', `${BASE}/${ticket.id}`, as({ body: { data: { price: 19.99 } } }))).body.data.price,
    ).toBe(19.99);
  });

  it('refuses unknown fields, a missing data wrapper and an empty change with 400', async () => {
    const { ticket } = await oneTicket();
    const unknown = await call(
      'PATCH',
      `${BASE}/${ticket.id}`,
      as({ body: { data: { partyMember: 'X', colour: 'red' } } }),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([{ path: 'body.data.colour', message: 'Unknown field.' }]);
    expect((await call('PATCH', `${BASE}/${ticket.id}`, as({ body: { partyMember: 'X' } }))).status).toBe(400);
    expect((await call('PATCH', `${BASE}/${ticket.id}`, as({ body: { data: {} } }))).status).toBe(400);
    expect(
      (await call('PATCH', `${BASE}/${ticket.id}`, as({ body: { data: { profilePhoto: 'http://x' } } }))).status,
    ).toBe(400);
  });

  it('refuses a change of event or type (that is a transfer) with 400', async () => {
    const { vip, ticket } = await oneTicket();
    const response = await call('PATCH', `${BASE}/${ticket.id}`, as({ body: { data: { typeId: vip.id } } }));
    expect(response.status).toBe(400);
    expect(response.body.errors[0].path).toBe('body.data.typeId');
  });

  it('keeps bib numbers unique within an event (409), frees them on delete, and allows the same bib in another event', async () => {
    const event = await seedEvent();
    const [first, second] = await seedTickets(event, event.ticketTypes[0]!.id, 2);
    const bib = `B${randomInt(100_000)}`;
    expect((await call('PATCH', `${BASE}/${first!.id}`, as({ body: { data: { bibNumber: bib } } }))).status).toBe(200);
    const taken = await call('PATCH', `${BASE}/${second!.id}`, as({ body: { data: { bibNumber: bib } } }));
    expect(taken.status).toBe(409);
    expect(taken.body.reason).toBe('bib_taken');
    expect((await readTicketRecord(second!.id))!.bibNumber).toBeNull();
    // Re-saving one's own bib is fine.
    expect(
      (await call('PATCH', `${BASE}/${first!.id}`, as({ body: { data: { bibNumber: bib, partyMember: 'Same' } } })))
        .status,
    ).toBe(200);

    const other = await seedEvent();
    const [elsewhere] = await seedTickets(other, other.ticketTypes[0]!.id, 1);
    expect((await call('PATCH', `${BASE}/${elsewhere!.id}`, as({ body: { data: { bibNumber: bib } } }))).status).toBe(
      200,
    );

    // Changing the bib frees the old one.
    expect((await call('PATCH', `${BASE}/${first!.id}`, as({ body: { data: { bibNumber: `${bib}X` } } }))).status).toBe(
      200,
    );
    expect((await call('PATCH', `${BASE}/${second!.id}`, as({ body: { data: { bibNumber: bib } } }))).status).toBe(200);
    expect((await call('DELETE', `${BASE}/${second!.id}`, as())).status).toBe(204);
    expect((await call('PATCH', `${BASE}/${first!.id}`, as({ body: { data: { bibNumber: bib } } }))).status).toBe(200);
  });

  it("validates attendee answers against the event's questions", async () => {
    const { event, ticket } = await oneTicket();
    const [contact, size] = event.questions;
    const good = await call(
      'PATCH',
      `${BASE}/${ticket.id}`,
      as({
        body: {
          data: {
            attendeeQuestions: [
              { questionId: contact!.id, answerText: 'Mum' },
              { questionId: size!.id, answerId: size!.options[2]!.id },
            ],
          },
        },
      }),
    );
    expect(good.status).toBe(200);
    expect(good.body.data.attendeeQuestions).toHaveLength(2);

    const bad = await call(
      'PATCH',
      `${BASE}/${ticket.id}`,
      as({
        body: {
          data: {
            attendeeQuestions: [
              { questionId: size!.id, answerId: 999_999 },
              { questionId: 999_998, answerText: 'x' },
              { questionId: contact!.id },
            ],
          },
        },
      }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((error: { path: string }) => error.path)).toEqual([
      'body.data.attendeeQuestions.0.answerId',
      'body.data.attendeeQuestions.1.questionId',
      'body.data.attendeeQuestions.2.answerText',
    ]);
  });

  it('moves the statistics when processState is changed through the update body', async () => {
    const event = await seedEvent();
    const [ticket] = await seedTickets(event, event.ticketTypes[0]!.id, 2);
    const response = await call('PATCH', `${BASE}/${ticket!.id}`, as({ body: { data: { processState: '4' } } }));
    expect(response.status).toBe(200);
    expect(response.body.data.processState).toBe(PROCESS_STATE.cancelled);
    expect(await stats(event.id)).toMatchObject({ soldTickets: 1 });
    expect((await call('PATCH', `${BASE}/${ticket!.id}`, as({ body: { data: { processState: '7' } } }))).status).toBe(
      400,
    );
  });
});

describe('soft delete', () => {
  it('DELETE hides the ticket from GET, lists and statistics, and keeps the record', async () => {
    const event = await seedEvent();
    const [kept, gone] = await seedTickets(event, event.ticketTypes[0]!.id, 2);
    await call('POST', `${BASE}/${gone!.id}/check-in`, as());
    expect(await stats(event.id)).toMatchObject({ soldTickets: 2, checkedInTickets: 1 });

    expect((await call('DELETE', `${BASE}/${gone!.id}`, as())).status).toBe(204);
    expect((await call('GET', `${BASE}/${gone!.id}`, as())).status).toBe(404);
    expect((await call('DELETE', `${BASE}/${gone!.id}`, as())).status).toBe(404);
    expect((await call('PATCH', `${BASE}/${gone!.id}`, as({ body: { data: { partyMember: 'X' } } }))).status).toBe(404);
    const list = await call('GET', `${BASE}?event=${event.id}`, as());
    expect(list.body.data.map((ticket: { id: number }) => ticket.id)).toEqual([kept!.id]);
    expect(list.body.totalCount).toBe(1);
    expect(await stats(event.id)).toMatchObject({ soldTickets: 1, checkedInTickets: 0 });
    expect(await readTicketRecord(gone!.id)).toMatchObject({ id: gone!.id, deleted: 1 });
  });

  it('bulk-delete takes the flat and the nested id list and reports each id', async () => {
    const event = await seedEvent();
    const [a, b, c] = await seedTickets(event, event.ticketTypes[0]!.id, 3);
    const flat = await call('POST', `${BASE}/bulk-delete`, as({ body: { ids: [a!.id, 987_654_321] } }));
    expect(flat.status).toBe(200);
    expect(flat.body).toEqual({
      count: 2,
      data: [
        { id: a!.id, status: 'ok' },
        { id: 987_654_321, status: 'error', error: 'Ticket 987654321 not found.' },
      ],
    });
    const nested = await call('POST', `${BASE}/bulk-delete`, as({ body: { ids: [[b!.id, c!.id]] } }));
    expect(nested.body.data).toEqual([
      { id: b!.id, status: 'ok' },
      { id: c!.id, status: 'ok' },
    ]);
    expect(await stats(event.id)).toMatchObject({ soldTickets: 0 });
    expect((await call('POST', `${BASE}/bulk-delete`, as({ body: { ids: [] } }))).status).toBe(400);
    expect((await call('POST', `${BASE}/bulk-delete`, as({ body: { ids: ['x'] } }))).status).toBe(400);
  });
});

describe('GET /tickets/check-in-stats', () => {
  it('needs events, at most 10, and answers zeros for an event without tickets', async () => {
    expect((await call('GET', `${BASE}/check-in-stats`, as())).status).toBe(400);
    expect((await call('GET', `${BASE}/check-in-stats?events=1,2,3,4,5,6,7,8,9,10,11`, as())).status).toBe(400);
    const event = await seedEvent();
    expect(await stats(event.id)).toEqual({ eventIds: [event.id], soldTickets: 0, checkedInTickets: 0 });
  });
});

describe('bad input', () => {
  it('answers 4xx, never 5xx, to malformed requests on every ticket route', async () => {
    const { event, ticket } = await oneTicket();
    const id = ticket.id;
    const many = Array.from({ length: 101 }, (_, i) => i).join(',');
    const requests: [string, string, Parameters<typeof call>[2]][] = [
      ['GET', `${BASE}?event=abc`, {}],
      ['GET', `${BASE}?event=${event.id}&teams=${many}`, {}],
      ['GET', `${BASE}?events=${many}`, {}],
      ['GET', `${BASE}?event=${event.id}&_offset=-1`, {}],
      ['GET', `${BASE}?event=${event.id}&colour=red`, {}],
      ['GET', `${BASE}/check-in-stats?events=a,b`, {}],
      ['GET', `${BASE}/0`, {}],
      ['GET', `${BASE}/99999999999999999999`, {}],
      ['PATCH', `${BASE}/${id}`, { body: '{"data":', headers: { 'content-type': 'application/json' } }],
      ['PATCH', `${BASE}/${id}`, { body: { data: { bibNumber: 'a#b' } } }],
      [
        'PATCH',
        `${BASE}/${id}`,
        { body: { data: { attendeeQuestions: Array.from({ length: 101 }, () => ({ questionId: 1 })) } } },
      ],
      ['PATCH', `${BASE}/${id}`, { body: { data: { emailAddress: 'not-an-email' } } }],
      ['PATCH', `${BASE}/${id}`, { body: { data: { teamId: 987_654 } } }],
      ['POST', `${BASE}/${id}/check-in?event=x`, {}],
      ['POST', `${BASE}/${id}/check-in`, { headers: { 'idempotency-key': 'k'.repeat(300) } }],
      ['POST', `${BASE}/${id}/transfer`, { body: [] }],
      ['POST', `${BASE}/${id}/transfer`, { body: { typeId: -1 } }],
      ['POST', `${BASE}/bulk-delete`, { body: { ids: Array.from({ length: 101 }, (_, i) => i + 1) } }],
      ['POST', `${BASE}/bulk-delete`, { body: { ids: [[[1]]] } }],
    ];
    for (const [method, url, options] of requests) {
      const response = await call(method, url, as(options));
      expect({ method, url, status: response.status }).toEqual({ method, url, status: 400 });
    }
  });
});
