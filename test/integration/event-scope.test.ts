import { beforeAll, describe, expect, it } from 'vitest';
import { listScans } from '#shared/gate/data/check-ins';
import { readTicketRecord } from '#shared/tickets/data/ticket-records';
import { PROCESS_STATE } from '#shared/tickets/domain/ticket';
import type { Permission } from '#shared/auth/permissions';
import { createStaffMember, parseEvents, UsageError } from '../../bin/maintenance/create-administrator.ts';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';
import { call } from '../support/api.ts';
import { accessFixture, checkIn, TICKETS } from '../support/tickets.ts';
import { adminToken, claimsOf } from '../support/tokens.ts';
import { legacyLogin } from '../support/staff.ts';
import { newAddress } from '../support/mail.ts';

/** Staff limited to a set of events (README "Event-scoped staff"). */
const PASSWORD = 'scoped-staff-password-1';
const STAFF: Permission[] = ['checkin:scan', 'tickets:read', 'tickets:write'];

const scopedToken = (events: number[], id = 515_151) => adminToken(STAFF, id, { eventScope: events });

describe('a scanner limited to one event', () => {
  let inside: Awaited<ReturnType<typeof seedEvent>>;
  let outside: Awaited<ReturnType<typeof seedEvent>>;
  let mine: { id: number }[];
  let theirs: { id: number }[];
  let token: string;
  let unscoped: string;

  beforeAll(async () => {
    [inside, outside] = await Promise.all([seedEvent(), seedEvent()]);
    [mine, theirs] = await Promise.all([
      seedTickets(inside, inside.ticketTypes[0]!.id, 3),
      seedTickets(outside, outside.ticketTypes[0]!.id, 2),
    ]);
    token = await scopedToken([inside.id]);
    unscoped = await adminToken();
  });

  it('checks in a ticket of its event', async () => {
    const admitted = await checkIn(token, mine[0]!.id);
    expect(admitted.status).toBe(200);
    expect(admitted.body.data.processState).toBe(PROCESS_STATE.checkedIn);
    // The history keeps the scope the change was made in; the seeded creation has none.
    const history = await call('GET', `${TICKETS}/${mine[0]!.id}?_include=history`, { token });
    expect(history.body.data.history.data).toMatchObject([
      { version: 2, action: 'check_in', actor: 'admin 515151', eventScope: [inside.id] },
      { version: 1, action: 'create', actor: 'system' },
    ]);
    expect(history.body.data.history.data[1]).not.toHaveProperty('eventScope');
  });

  it('answers 404 for every route on a ticket of another event, and changes or records nothing', async () => {
    const id = theirs[0]!.id;
    const before = await readTicketRecord(id);
    const answers = await Promise.all([
      checkIn(token, id),
      call('GET', `${TICKETS}/${id}`, { token }),
      call('GET', `${TICKETS}/${id}?_include=history`, { token }),
      call('PATCH', `${TICKETS}/${id}`, { token, body: { data: { partyMember: 'Mallory' } } }),
      call('DELETE', `${TICKETS}/${id}`, { token }),
      call('GET', `${TICKETS}/${id}/waivers`, { token }),
      call('POST', `${TICKETS}/${id}/transfer`, { token, body: { attendee: { partyMember: 'Mallory' } } }),
      call('GET', `/api/v2/ticket/${id}`, { token }),
      call('GET', `/api/v2/ticket/${id}/answers`, { token }),
      call('GET', `/api/v2/ticket/${id}/claim-info`, { token }),
      call('POST', `/api/v2/ticket/${id}/states`, { token, body: { processState: PROCESS_STATE.cancelled } }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 404));
    expect(answers[0]!.body.detail).toBe(`Ticket ${id} not found.`);
    expect(await readTicketRecord(id)).toEqual(before);
    expect(await listScans(id)).toEqual([]);
  });

  it('answers 404 for a scan of its own ticket at an event outside the scope', async () => {
    const id = mine[1]!.id;
    expect((await checkIn(token, id, { event: outside.id })).status).toBe(404);
    expect(await listScans(id)).toEqual([]);
  });

  it('answers 404 for statistics naming an event outside the scope, 200 for its own', async () => {
    const out = await call('GET', `${TICKETS}/check-in-stats?events=${inside.id},${outside.id}`, { token });
    expect(out.status).toBe(404);
    expect(out.body.detail).toBe(`Event ${outside.id} not found.`);
    const own = await call('GET', `${TICKETS}/check-in-stats?events=${inside.id}`, { token });
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({ soldTickets: 3 });
  });

  it('lists only the scope: events outside are dropped, none left is an empty page', async () => {
    const both = await call('GET', `${TICKETS}?events=${inside.id},${outside.id}`, { token });
    expect(both.status).toBe(200);
    expect(both.body.totalCount).toBe(3);
    expect(both.body.data.map((ticket: { eventId: number }) => ticket.eventId)).toEqual([
      inside.id,
      inside.id,
      inside.id,
    ]);
    const none = await call('GET', `${TICKETS}?event=${outside.id}`, { token });
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ totalCount: 0, data: [], next: null });

    const older = await call('GET', `/api/v2/ticket?eventId=${outside.id}`, { token });
    expect(older.status).toBe(200);
    expect(older.body).toMatchObject({ totalCount: 0, data: [] });
    const byType = await call('GET', `/api/v2/ticket?typeId=${outside.ticketTypes[0]!.id}`, { token });
    expect(byType.body).toMatchObject({ totalCount: 0, data: [] });
    const own = await call('GET', `/api/v2/ticket?eventId=${inside.id}`, { token });
    expect(own.body.totalCount).toBe(3);
  });

  it('leaves an unscoped administrator unchanged', async () => {
    const id = theirs[1]!.id;
    expect((await call('GET', `${TICKETS}/${id}`, { token: unscoped })).status).toBe(200);
    expect(
      (await call('GET', `${TICKETS}?events=${inside.id},${outside.id}`, { token: unscoped })).body.totalCount,
    ).toBe(5);
    expect((await call('GET', `${TICKETS}/check-in-stats?events=${outside.id}`, { token: unscoped })).status).toBe(200);
    expect((await checkIn(unscoped, id)).status).toBe(200);
    const history = await call('GET', `${TICKETS}/${id}?_include=history`, { token: unscoped });
    expect(history.body.data.history.data[0]).toMatchObject({ version: 2, action: 'check_in' });
    expect(history.body.data.history.data[0]).not.toHaveProperty('eventScope');
  });
});

describe('a scanner of the event an access package grants', () => {
  it('scans and reads the pass of another event that admits to its event, but may not edit it', async () => {
    const { a, b, dayType, passType } = await accessFixture();
    const [[pass], [day]] = await Promise.all([seedTickets(a, passType, 1), seedTickets(a, dayType, 1)]);
    const token = await scopedToken([b.id], 515_152);
    expect((await checkIn(token, pass!.id, { event: b.id })).status).toBe(200);
    expect((await call('GET', `${TICKETS}/${pass!.id}`, { token })).status).toBe(200);
    expect(
      (await call('PATCH', `${TICKETS}/${pass!.id}`, { token, body: { data: { partyMember: 'Mallory' } } })).status,
    ).toBe(404);
    // Its own gate only: the pass's own event is outside the scope.
    expect((await checkIn(token, pass!.id, { event: a.id })).status).toBe(404);
    expect((await call('GET', `${TICKETS}/${day!.id}`, { token })).status).toBe(404);
    const listed = await call('GET', `${TICKETS}?accessEvents=${b.id}`, { token });
    expect(listed.body.data.map((ticket: { id: number }) => ticket.id)).toEqual([pass!.id]);
  });

  it("cannot learn the bibs of the pass's own event through it (is-bib-available is 404 there, as for any ticket outside the scope)", async () => {
    const { a, b, passType } = await accessFixture();
    const [pass] = await seedTickets(a, passType, 1);
    const scoped = await scopedToken([b.id], 515_153);
    expect((await call('GET', `/api/v2/ticket/${pass!.id}/is-bib-available/77`, { token: scoped })).status).toBe(404);
    expect(
      (
        await call('GET', `/api/v2/ticket/${pass!.id}/is-bib-available/77`, {
          token: await scopedToken([a.id], 515_154),
        })
      ).status,
    ).toBe(200);
  });
});

describe('granting a scope (bin/maintenance/create-administrator --events)', () => {
  it('stores the scope, which the login puts in the token and /auth/me shows', async () => {
    const address = newAddress('scoped');
    const admin = await createStaffMember({
      email: address,
      name: 'Gate B',
      permissions: 'checkin:scan,tickets:read',
      vendor: false,
      events: '12, 15,12',
      password: PASSWORD,
    });
    expect(admin.eventScope).toEqual([12, 15]);
    const login = await legacyLogin(address, PASSWORD);
    expect(login.status).toBe(200);
    expect(claimsOf(login.body.data.jwt)).toMatchObject({ events: [12, 15] });
    expect(login.body.data.user.eventScope).toEqual([12, 15]);
  });

  it('shows a scoped administrator without the stage-wide permissions their record names, an unscoped one with them', async () => {
    const scoped = newAddress('scoped-shipping');
    await createStaffMember({
      email: scoped,
      name: 'Box office B',
      permissions: 'shipping:read,shipping:write,orders:read',
      vendor: false,
      events: '12',
      password: PASSWORD,
    });
    const login = await legacyLogin(scoped, PASSWORD);
    expect(login.body.data.user.permissions).toEqual(['shipping:read', 'orders:read']);
    const me = await call('GET', '/api/v2/auth/me', { token: login.body.data.jwt });
    expect(me.status, me.raw).toBe(200);
    expect(me.body.data.permissions).toEqual(['shipping:read', 'orders:read']);

    const unscoped = newAddress('unscoped-shipping');
    await createStaffMember({
      email: unscoped,
      name: 'Office',
      permissions: 'shipping:read,shipping:write',
      vendor: false,
      password: PASSWORD,
    });
    expect((await legacyLogin(unscoped, PASSWORD)).body.data.user.permissions).toEqual([
      'shipping:read',
      'shipping:write',
    ]);
  });

  it('refuses a list that is not event ids', () => {
    for (const bad of ['', 'a', '0', '1.5', '-3', '12,,x']) expect(() => parseEvents(bad)).toThrow(UsageError);
    expect(parseEvents('7')).toEqual([7]);
  });
});
