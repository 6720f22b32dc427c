import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTicketingClient, type TicketingClient } from 'ticketing-api/client';
import type { CreatedEvent } from '#shared/events/domain/event';
import type { Ticket } from '#shared/tickets/domain/ticket';
import { placeOrder } from '../support/factories/orders.ts';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';
import { startApiServer, type ApiServer } from '../../bin/local/server.ts';
import { createAccount, PASSWORD as CUSTOMER_PASSWORD, verificationTokenFor } from '../support/customers.ts';
import { newAddress } from '../support/mail.ts';
import { makeAdmin } from '../support/staff.ts';

/**
 * The typed client (shared/client/, `ticketing-api/client`) over real HTTP against the
 * local server started in this worker: a staff member signs in with a password, lists an
 * event's tickets and checks one in; a customer signs in and reads their orders. Every
 * path, parameter and body below is checked by tsc against the generated types.
 */
const STAFF_PASSWORD = 'a-long-enough-password';

let api: ApiServer;
let baseUrl: string;
let event: CreatedEvent;
let tickets: Ticket[];
let staffLogin: string;

beforeAll(async () => {
  api = await startApiServer({ port: 0 });
  baseUrl = `${api.url}/api/v2`;
  staffLogin = (
    await makeAdmin({ permissions: ['tickets:read', 'checkin:scan', 'webhooks:manage'], password: STAFF_PASSWORD })
  ).login;
  event = await seedEvent({ title: 'Typed client night' });
  tickets = await seedTickets(event, event.ticketTypes[0]!.id, 3);
});

afterAll(() => api?.close());

/** A client signed in as the staff member (each test signs in itself: the tests run in any order). */
async function staffClient(): Promise<TicketingClient> {
  const { data } = await createTicketingClient({ baseUrl }).POST('/auth/legacy/login', {
    body: { login: staffLogin, password: STAFF_PASSWORD },
  });
  const token = data!.data.jwt;
  return createTicketingClient({ baseUrl, token: () => token });
}

describe('the typed client', () => {
  it('signs staff in with a password (POST /auth/legacy/login) and sends the token as a bearer', async () => {
    const { data, error, response } = await createTicketingClient({ baseUrl }).POST('/auth/legacy/login', {
      body: { login: staffLogin, password: STAFF_PASSWORD },
    });
    expect(error, JSON.stringify(error)).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data!.data.user).toMatchObject({
      login: staffLogin,
      permissions: ['tickets:read', 'checkin:scan', 'webhooks:manage'],
    });
    // A function: the client asks for the current token before each request.
    const token = data!.data.jwt;
    const staff = createTicketingClient({ baseUrl, token: () => token });
    expect((await staff.GET('/tickets', { params: { query: { event: String(event.id) } } })).response.status).toBe(200);

    const wrong = await createTicketingClient({ baseUrl }).POST('/auth/legacy/login', {
      body: { login: staffLogin, password: 'not-the-password' },
    });
    expect(wrong.response.status).toBe(401);
    expect(wrong.data).toBeUndefined();
  });

  it("lists an event's tickets (GET /tickets) and checks one in (POST /tickets/{id}/check-in)", async () => {
    const staff = await staffClient();
    const list = await staff.GET('/tickets', { params: { query: { event: String(event.id), _limit: '10' } } });
    expect(list.response.status).toBe(200);
    expect(list.data!.data.map((ticket) => ticket.id).sort()).toEqual(tickets.map((ticket) => ticket.id).sort());

    const id = String(tickets[0]!.id);
    const admitted = await staff.POST('/tickets/{id}/check-in', { params: { path: { id } } });
    expect(admitted.response.status).toBe(200);
    expect(admitted.data!.data).toMatchObject({ id: tickets[0]!.id, eventId: event.id });

    const again = await staff.POST('/tickets/{id}/check-in', { params: { path: { id } } });
    expect(again.response.status).toBe(409);
    expect(again.error).toMatchObject({ status: 409 });
  });

  it("downloads the event's admission list (GET /gate-lists/{eventId}) and scans a barcode (POST /scans)", async () => {
    const staff = await staffClient();
    const eventId = String(event.id);
    const list = await staff.GET('/gate-lists/{eventId}', { params: { path: { eventId } } });
    expect(list.response.status).toBe(200);
    const entry = list.data!.data.find((item) => item.ticketId === tickets[1]!.id)!;
    expect(entry).toMatchObject({ barcode: tickets[1]!.barcode, state: 'admittable' });

    const scan = { id: randomUUID(), barcode: entry.barcode, scannedAt: new Date().toISOString() };
    const scanned = await staff.POST('/scans', { body: { eventId: event.id, scans: [scan] } });
    expect(scanned.response.status).toBe(200);
    expect(scanned.data!.data).toEqual([{ id: scan.id, result: 'admitted', ticketId: tickets[1]!.id }]);

    const since = await staff.GET('/gate-lists/{eventId}', {
      params: { path: { eventId }, query: { changedSince: list.data!.watermark } },
    });
    expect(since.data!.data.find((item) => item.ticketId === tickets[1]!.id)?.state).toBe('checked_in');
  });

  it('subscribes a webhook (POST /webhooks), pings it (POST /webhooks/{id}/ping), lists and redelivers its deliveries', async () => {
    const staff = await staffClient();
    // Nothing listens on 127.0.0.1:9: the ping is recorded, its attempt fails, and it waits for a retry.
    const created = await staff.POST('/webhooks', {
      body: { url: 'http://127.0.0.1:9/typed-client', events: ['ticket.checked_in'], eventIds: [event.id] },
    });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    expect(created.data!.data.secret).toMatch(/^whsec_/);
    const id = String(created.data!.data.id);
    const ping = await staff.POST('/webhooks/{id}/ping', { params: { path: { id } } });
    expect(ping.data!.data).toMatchObject({ type: 'webhook.ping', status: 'pending', attempts: 1, lastStatus: null });
    const listed = await staff.GET('/webhooks/{id}/deliveries', { params: { path: { id }, query: { _limit: '5' } } });
    expect(listed.data!.data.map((delivery) => delivery.id)).toEqual([ping.data!.data.id]);
    // The ping waits for its retry: a redelivery of its range leaves it to that (POST …/deliveries/redeliver).
    const range = {
      from: new Date(Date.now() - 60_000).toISOString(),
      to: new Date(Date.now() + 60_000).toISOString(),
    };
    const redelivered = await staff.POST('/webhooks/{id}/deliveries/redeliver', {
      params: { path: { id } },
      body: range,
    });
    expect(redelivered.response.status, JSON.stringify(redelivered.error)).toBe(202);
    expect(redelivered.data!.data).toEqual({ queued: 0, alreadyQueued: 1, refused: 0, next: null });
    expect((await staff.DELETE('/webhooks/{id}', { params: { path: { id } } })).response.status).toBe(204);
  });

  it('signs a customer in (PUT /my-account) and reads their orders (GET /my-account/orders)', async () => {
    const email = newAddress('client');
    const created = await createAccount({ email, password: CUSTOMER_PASSWORD, name: 'Client Customer' });
    expect(created.status, created.raw).toBe(201);
    const customerId = created.body.data.id as number;
    // An event of its own: the ticket sold here must not join the staff test's list of `event`.
    const concert = await seedEvent({ title: 'Typed client concert' });
    const order = await placeOrder(concert, customerId, [concert.ticketTypes[0]!.id]);

    const signedIn = await createTicketingClient({ baseUrl }).PUT('/my-account', {
      body: { login: email, password: CUSTOMER_PASSWORD, emailVerificationToken: await verificationTokenFor(email) },
    });
    expect(signedIn.response.status, JSON.stringify(signedIn.error)).toBe(200);
    const customer = createTicketingClient({ baseUrl, token: signedIn.data!.data.token });

    const orders = await customer.GET('/my-account/orders', { params: { query: { includeTickets: 'true' } } });
    expect(orders.response.status).toBe(200);
    expect(orders.data!.data.map((entry) => entry.id)).toEqual([String(order.id)]);
    expect(orders.data!.data[0]!.tickets).toHaveLength(1);
    // The portal's lists are walked by `next` (typed), passed back as `_cursor`.
    const first = await customer.GET('/my-account/event', { params: { query: { return: 'orders', _limit: '1' } } });
    expect(first.data!.next).toBeNull();
    const next: string | null = first.data!.next;
    const estimate: true | undefined = first.data!.totalCountIsEstimate;
    expect([next, estimate]).toEqual([null, undefined]);
    const past = await customer.GET('/my-account/orders', { params: { query: { _offset: '1000', _cursor: 'x' } } });
    expect(past.response.status).toBe(400);
    // The staff token is not a customer's: the other audience.
    const staff = await staffClient();
    expect((await staff.GET('/my-account/orders')).response.status).toBe(401);
  });

  it('sends the cookie and X-Requested-With, and no Authorization, in cookie mode (browsers)', async () => {
    const seen: Request[] = [];
    const browserLike = createTicketingClient({
      baseUrl,
      cookie: true,
      fetch: (request) => {
        seen.push(request.clone());
        return fetch(request);
      },
    });
    const { response } = await browserLike.POST('/auth/refresh');
    // No cookie in Node's fetch: the API answers as to a signed-out browser.
    expect(response.status).toBe(401);
    expect(seen[0]!.credentials).toBe('same-origin');
    expect(seen[0]!.headers.get('x-requested-with')).toBe('fetch');
    expect(seen[0]!.headers.get('authorization')).toBeNull();
  });
});
