import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { linkIdentity } from '#shared/identity/data/administrators';
import { createWaiver } from '#shared/events/data/waivers';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';
import * as me from '../../functions/auth/me.ts';
import * as bulkRead from '../../functions/shipping-method/bulk-read.ts';
import * as createMethod from '../../functions/shipping-method/create.ts';
import * as getMethod from '../../functions/shipping-method/get.ts';
import * as listMethods from '../../functions/shipping-method/list.ts';
import * as checkInStats from '../../functions/tickets/check-in-stats.ts';
import * as getTicket from '../../functions/tickets/get.ts';
import * as listTickets from '../../functions/tickets/list.ts';
import * as signWaivers from '../../functions/tickets/sign-waivers.ts';
import * as waivers from '../../functions/tickets/waivers.ts';
import { call } from '../support/api.ts';
import { checkIn, TICKETS } from '../support/tickets.ts';
import { adminToken } from '../support/tokens.ts';
import { makeAdmin } from '../support/staff.ts';
import { expectDeclared } from '../support/handlers.ts';

/**
 * Each route declares its success answer (`route(key, { response })`), and the OpenAPI
 * document is built from those declarations. Here real answers of each family (single,
 * page, `result=object`, bulk, data-only, the profile, the ticket with its expansions,
 * statistics, waivers) are parsed with the route's own declared schema: a strict schema,
 * so a field the code answers but the schema lacks (or the reverse) fails here.
 */
const SHIPPING = '/api/v2/shipping-method';
let token: string;

beforeAll(async () => {
  token = await adminToken();
});

describe('shipping-method answers parse with the declared schemas', () => {
  it('create (result=object), get, list and bulk-read', async () => {
    const created = await call('POST', `${SHIPPING}?result=object`, {
      token,
      body: { name: `Method ${randomUUID()}`, charge: 3.5 },
    });
    expectDeclared(createMethod, created);
    const id = created.body.data.id as number;

    expectDeclared(createMethod, await call('POST', SHIPPING, { token, body: { name: `Method ${randomUUID()}` } }));
    expectDeclared(getMethod, await call('GET', `${SHIPPING}/${id}`, { token }));
    expectDeclared(listMethods, await call('GET', `${SHIPPING}?_limit=5`, { token }));

    const bulk = await call('POST', `${SHIPPING}/bulk-read`, { token, body: { count: 2, data: [id, 999_999_999] } });
    expectDeclared(bulkRead, bulk);
    expect(bulk.body.data.map((entry: { status: string }) => entry.status)).toEqual(['ok', 'error']);
  });
});

describe('GET /auth/me parses with its declared schema', () => {
  it('for a record with its own password and for one linked to the identity provider', async () => {
    const admin = await makeAdmin({ permissions: ['tickets:read'], password: 'a-long-enough-password' });
    const own = await call('GET', '/api/v2/auth/me', { token: await adminToken(['tickets:read'], admin.id) });
    expectDeclared(me, own);
    expect(own.body.data).not.toHaveProperty('passwordHash');

    const linked = await makeAdmin();
    expect(await linkIdentity(linked.id, randomUUID(), randomUUID())).toBe(true);
    expectDeclared(me, await call('GET', '/api/v2/auth/me', { token: await adminToken([], linked.id) }));
  });
});

describe('ticket answers parse with the declared schemas', () => {
  it('GET /tickets/{id}?_include=history,checkInInfo, GET /tickets and the check-in statistics', async () => {
    const event = await seedEvent();
    const [ticket] = await seedTickets(event, event.ticketTypes[0]!.id, 2);
    expect((await checkIn(token, ticket!.id)).status).toBe(200);

    const one = await call('GET', `${TICKETS}/${ticket!.id}?_include=history,checkInInfo`, { token });
    expectDeclared(getTicket, one);
    expect(one.body.data.history).toMatchObject({ totalCount: 2, count: 2 });
    expect(one.body.data.history.data[0]).toMatchObject({
      action: 'check_in',
      states: { processState: { from: 1, to: 2 } },
    });

    expectDeclared(
      listTickets,
      await call('GET', `${TICKETS}?event=${event.id}&_include=purchaser,checkInInfo`, { token }),
    );
    expectDeclared(checkInStats, await call('GET', `${TICKETS}/check-in-stats?events=${event.id}`, { token }));
  });

  it('GET /tickets/{id}/waivers, signed and unsigned, and the signing answer', async () => {
    const event = await seedEvent({ timezone: 'Europe/Berlin' });
    const typeId = event.ticketTypes[0]!.id;
    const signed = await createWaiver({
      eventId: event.id,
      title: 'Liability release',
      text: 'I take part at my own risk.',
    });
    await createWaiver({
      eventId: event.id,
      ticketTypeId: typeId,
      title: 'Course rules',
      text: 'I know the course rules.',
    });
    const [ticket] = await seedTickets(event, typeId, 1);

    const signing = await call('POST', `${TICKETS}/${ticket!.id}/sign-waivers`, {
      token,
      body: { waiverIds: [signed.id], signature: { type: 'text', text: 'Jane Doe' } },
    });
    expectDeclared(signWaivers, signing);

    const list = await call('GET', `${TICKETS}/${ticket!.id}/waivers`, { token });
    expectDeclared(waivers, list);
    expect(list.body.data.map((entry: { signedStatus: string }) => entry.signedStatus)).toEqual(['signed', 'unsigned']);
  });
});
