import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { readTicketRecord } from '#shared/tickets/data/ticket-records';
import { PROCESS_STATE } from '#shared/tickets/domain/ticket';
import { AUTH_COOKIE } from '#shared/http/cookies';
import { routeKey, routes, type RouteRow } from '#shared/routes';
import { isStageWide, PERMISSIONS } from '#shared/auth/permissions';
import { placeOrder } from '../support/factories/orders.ts';
import { seedEvent, seedTickets } from '../support/factories/tickets.ts';
import { call, type CallOptions, type CallResult } from '../support/api.ts';
import { newCustomer } from '../support/customers.ts';
import { ALLOWED_ORIGIN, PORTAL_ORIGIN } from '../support/env.ts';
import { PNG_BYTES } from '../support/images.ts';
import { form } from '../support/multipart.ts';
import {
  adminToken,
  customerToken,
  expiredToken,
  foreignToken,
  tamperedToken,
  unsignedToken,
} from '../support/tokens.ts';
import { handlerOf } from '../support/handlers.ts';
import { invoicePaidOrders } from '#shared/selling/use-cases/invoices';

/**
 * The auth matrix: every route of the table × every kind of caller. Each
 * cell's expectation is derived from the row (public / admin with or without a permission /
 * customer; whether it takes a ticket or event id; safe or unsafe method), not listed per
 * route; a cell that cannot apply says why in its name.
 */
const CALLERS = [
  'none',
  'tampered token',
  'unsigned (alg none) token',
  'expired token',
  'token signed with another key',
  'token for the other audience',
  'malformed Authorization header',
  'Basic Authorization header',
  'missing permission',
  'cookie from a foreign origin (CSRF)',
  'out-of-scope staff',
  'another customer',
] as const;
type Caller = (typeof CALLERS)[number];

/** An id no record has (below 2^53), for calls whose valid token reaches a handler that must change nothing. */
const NO_SUCH_ID = 9_007_199_254_740_000;
const EVIL_ORIGIN = 'https://evil.example';

/** What the matrix needs: staff limited to event B and a ticket of event A; customer X with private data, customer Y. */
interface World {
  ticketId: number;
  eventA: number;
  /** Event A's ticket type. */
  typeA: number;
  /** A subscription to event A's changes, made by unscoped staff. */
  webhookId: number;
  scoped: string;
  unscoped: string;
  x: {
    id: number;
    token: string;
    eventId: number;
    ticketId: number;
    reservationId: number;
    orderId: number;
    markers: string[];
  };
  y: { id: number; token: string };
}
let world: World;

beforeAll(async () => {
  const [eventA, eventB, privateEvent, publicEvent] = await Promise.all([
    seedEvent(),
    seedEvent(),
    seedEvent({ title: `Private ${randomUUID()}`, published: false }),
    seedEvent({ published: true }),
  ]);
  const [[ticket], x, y] = await Promise.all([
    seedTickets(eventA, eventA.ticketTypes[0]!.id, 1),
    newCustomer(),
    newCustomer(),
  ]);
  const [xOrder] = await Promise.all([
    placeOrder(privateEvent, x.id, [privateEvent.ticketTypes[0]!.id]),
    placeOrder(publicEvent, y.id, [publicEvent.ticketTypes[0]!.id]),
  ]);
  const tokenOf = (c: { id: number; email: string }) => customerToken(c.id, { email: c.email });
  const unscoped = await adminToken(PERMISSIONS, 727_273);
  const webhook = await call('POST', '/api/v2/webhooks', {
    token: unscoped,
    body: { url: 'http://127.0.0.1:9/hooks', events: ['ticket.updated'], eventIds: [eventA.id] },
  });
  const xToken = await tokenOf(x);
  // X's order invoiced, as the issuing consumer invoices a paid checkout's: X's invoice is X's alone.
  await invoicePaidOrders([xOrder.id]);
  const reservation = await call('POST', '/api/v2/my-account/reservations', {
    token: xToken,
    body: { eventId: publicEvent.id, lines: [{ typeId: publicEvent.ticketTypes[0]!.id, quantity: 1 }] },
  });
  world = {
    ticketId: ticket!.id,
    eventA: eventA.id,
    typeA: eventA.ticketTypes[0]!.id,
    webhookId: webhook.body.data.id,
    scoped: await adminToken(PERMISSIONS, 727_272, { eventScope: [eventB.id] }),
    unscoped,
    // What of X's may never reach Y: the address, the order's address, answers and payment reference, the private event.
    // Delimited, so customer 2's markers are not found inside customer 21's data.
    x: {
      id: x.id,
      token: xToken,
      eventId: privateEvent.id,
      ticketId: xOrder.ticketIds[0]!,
      reservationId: reservation.body.data.id,
      orderId: xOrder.id,
      markers: [x.email, `customer-${x.id}@`, `desk-${x.id}-`, privateEvent.title],
    },
    y: { id: y.id, token: await tokenOf(y) },
  };
});

// --- What the matrix derives from a row ---------------------------------------------------

const unsafe = (row: RouteRow) => row.method !== 'GET';
/** Ticket routes take the ticket as `{id}` or `{ticketId}` under /tickets or /ticket. */
const takesTicket = (row: RouteRow) => /^\/tickets?\/\{(id|ticketId)\}/.test(row.path);
/** Routes over event-scoped data: everything under /tickets and /ticket (README "Event-scoped staff"). */
const eventScoped = (row: RouteRow) => /^\/tickets?(\/|$)/.test(row.path);
/** The gate's rows name their event in the body (`POST /scans`) or the path (`GET /gate-lists/{eventId}`; README "The gate offline"). */
const onGate = (row: RouteRow) => /^\/(scans|gate-lists)(\/|$)/.test(row.path);
/** Webhook subscriptions name events: staff see and manage only those within their events (README "Webhooks"). */
const onWebhooks = (row: RouteRow) => row.path.startsWith('/webhooks');
/** The events routes: staff limited to some events read and edit only those, and create none (README "Where we differ from the spec"). */
const onEvents = (row: RouteRow) => /^\/events(\/|$)/.test(row.path);
/** Customer lists asked for everything they can show (the caller's own events, every expansion), so a leak would show. */
const CUSTOMER_QUERY: Record<string, string> = {
  'GET /my-account/event': 'return=orders',
  'GET /my-account/orders': 'includeTickets=true&includeTrans=true&includeAnswers=true',
};
/** The query parameter by which an event-scoped route without a ticket id names events (list filters, statistics). */
const EVENT_QUERY: Record<string, string> = {
  'GET /tickets': 'event',
  'GET /ticket': 'eventId',
  'GET /tickets/check-in-stats': 'events',
};

/** The path with each parameter filled: ticket ids, event ids, others. */
const urlOf = (row: RouteRow, ids: { ticket?: number; event?: number } = {}) =>
  `/api/v2${row.path.replace(/\{([^}]+)\}/g, (_all, name: string) =>
    String(
      /^(id|ticketId)$/.test(name) && eventScoped(row)
        ? (ids.ticket ?? NO_SUCH_ID)
        : name === 'eventId'
          ? (ids.event ?? NO_SUCH_ID)
          : name === 'bib'
            ? 'B-1'
            : NO_SUCH_ID,
    ),
  )}`;

/** A request an unscoped administrator could make on a ticket: the 404 then comes from the scope, not from validation. */
function validTicketRequest(row: RouteRow, ticketId: number): { url: string; options: CallOptions } {
  const url = urlOf(row, { ticket: ticketId });
  if (row.path.endsWith('/profile-photo') && row.method === 'POST') {
    const { body, contentType } = form([
      { name: 'file', filename: 'me.png', contentType: 'image/png', data: PNG_BYTES },
    ]);
    return { url, options: { body, headers: { 'content-type': contentType } } };
  }
  const bodies: Record<string, unknown> = {
    'PATCH /tickets/{id}': { data: { partyMember: 'Mallory' } },
    'POST /tickets/{id}/transfer': { attendee: { partyMember: 'Mallory' } },
    'POST /tickets/{id}/sign-waivers': { signature: { type: 'text', text: 'Mallory' } },
    'POST /ticket/{ticketId}/claim': { claimantEmail: 'mallory@test.local', claimantuserId: 'm' },
    'POST /ticket/{ticketId}/claimant': { claimantEmail: 'mallory@test.local' },
    'POST /ticket/{ticketId}/states': { processState: PROCESS_STATE.cancelled },
  };
  return { url, options: routeKey(row) in bodies ? { body: bodies[routeKey(row)] } : {} };
}

/** The request a row gets when only authentication is under test: no ids that exist, an empty JSON body on unsafe methods. */
const bareOptions = (row: RouteRow, options: CallOptions = {}): CallOptions =>
  unsafe(row) ? { body: {}, ...options } : options;
const send = (row: RouteRow, options: CallOptions = {}, url = urlOf(row)) =>
  call(row.method, url, bareOptions(row, options));

/** The credentials each caller brings to a row. */
async function credentialsFor(row: RouteRow, caller: Caller): Promise<CallOptions> {
  const audience = row.auth.kind === 'customer' ? 'customer' : 'admin';
  switch (caller) {
    case 'none':
      return {};
    case 'tampered token':
      return { token: await tamperedToken() };
    case 'unsigned (alg none) token':
      return { token: unsignedToken() };
    case 'expired token':
      return { token: await expiredToken(audience) };
    case 'token signed with another key':
      return { token: await foreignToken() };
    case 'token for the other audience':
      return { token: audience === 'admin' ? world.y.token : await adminToken() };
    case 'malformed Authorization header':
      return { headers: { authorization: 'Bearer not a jwt' } };
    case 'Basic Authorization header':
      return { headers: { authorization: 'Basic YWRtaW46YWRtaW4=' } };
    case 'missing permission': {
      const needed = row.auth.kind === 'admin' ? row.auth.permission : undefined;
      return { token: await adminToken(needed ? PERMISSIONS.filter((p) => p !== needed) : []) };
    }
    case 'cookie from a foreign origin (CSRF)':
      return {
        cookies: [`${AUTH_COOKIE}=${audience === 'admin' ? await adminToken() : await customerToken()}`],
        headers: { origin: EVIL_ORIGIN, 'x-requested-with': 'fetch' },
      };
    case 'out-of-scope staff':
      return { token: world.scoped };
    case 'another customer':
      return { token: world.y.token };
  }
}

const isProblem = (response: CallResult, status: number) => {
  expect(response.status, response.raw).toBe(status);
  expect(response.headers['content-type']).toBe('application/problem+json');
};
const unchangedTicket = async (work: () => Promise<void>) => {
  const before = await readTicketRecord(world.ticketId);
  await work();
  expect(await readTicketRecord(world.ticketId)).toEqual(before);
};
const leaksNothingOfX = (response: CallResult) => {
  for (const marker of world.x.markers) expect(response.raw, marker).not.toContain(marker);
};

type Cell = { says: string; check: () => Promise<void> } | { notApplicable: string };

/** The expectation of one cell, from the row alone. */
function cell(row: RouteRow, caller: Caller): Cell {
  const kind = row.auth.kind;
  const as = async () => credentialsFor(row, caller);

  if (kind === 'public' && caller === 'cookie from a foreign origin (CSRF)' && unsafe(row)) {
    return {
      says: '403 csrf_rejected: a foreign page may not drive a login or reset (login CSRF); our own origins and Origin-less clients are answered',
      check: async () => {
        const foreign = await send(row, await as());
        isProblem(foreign, 403);
        expect(foreign.body.error).toBe('csrf_rejected');
        const [anonymous, own] = [await send(row), await send(row, { headers: { origin: ALLOWED_ORIGIN } })];
        expect(own.status).toBe(anonymous.status);
        expect(anonymous.body?.error).not.toBe('csrf_rejected');
      },
    };
  }
  if (kind === 'public') {
    return {
      says: 'answered exactly as an anonymous caller (a public row ignores credentials)',
      check: async () => {
        const [anonymous, withCredentials] = [await send(row), await send(row, await as())];
        expect(withCredentials.status).toBe(anonymous.status);
        expect(withCredentials.status).toBeLessThan(500);
      },
    };
  }

  const credentialFailure = ![
    'missing permission',
    'cookie from a foreign origin (CSRF)',
    'out-of-scope staff',
  ].includes(caller);
  if (kind === 'admin' && row.auth.signOut && credentialFailure) {
    return {
      says: 'answered as signed out, never 401 (a logout works whatever the token): as anonymous, the cookie cleared',
      check: async () => {
        const [anonymous, withCredentials] = [await send(row), await send(row, await as())];
        expect(withCredentials.status).toBe(anonymous.status);
        expect(withCredentials.status).not.toBe(401);
        if (withCredentials.status === 200) expect(withCredentials.cookies.join()).toMatch(/Max-Age=0/);
      },
    };
  }

  switch (caller) {
    case 'none':
      return {
        says: '401 with a Bearer challenge',
        check: async () => {
          const response = await send(row);
          isProblem(response, 401);
          expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
        },
      };
    case 'missing permission': {
      if (kind === 'customer')
        return {
          notApplicable:
            'customer rows need no permission: the caller\'s own data is the limit (see "another customer")',
        };
      if (!row.auth.permission) {
        return {
          says: 'any administrator: a token without permissions is answered as one with all of them',
          check: async () => {
            const [none, all] = [await send(row, await as()), await send(row, { token: await adminToken() })];
            expect(none.status).toBe(all.status);
          },
        };
      }
      const needed = row.auth.permission;
      return {
        says: `403 naming "${needed}"`,
        check: async () => {
          const response = await send(row, await as());
          isProblem(response, 403);
          expect(response.body.detail).toContain(needed);
        },
      };
    }
    case 'cookie from a foreign origin (CSRF)':
      if (!unsafe(row)) {
        return {
          says: 'a safe method: answered, but with no CORS grant, so the foreign page cannot read it',
          check: async () => {
            const response = await send(row, await as());
            expect(response.body?.error).not.toBe('csrf_rejected');
            expect(response.headers['access-control-allow-origin']).toBeUndefined();
          },
        };
      }
      return {
        says: '403 csrf_rejected (also without the custom header, and from the other front end)',
        check: async () => {
          const credentials = await as();
          const foreign = await send(row, credentials);
          isProblem(foreign, 403);
          expect(foreign.body.error).toBe('csrf_rejected');
          const [own, other] = kind === 'admin' ? [ALLOWED_ORIGIN, PORTAL_ORIGIN] : [PORTAL_ORIGIN, ALLOWED_ORIGIN];
          expect((await send(row, { cookies: credentials.cookies, headers: { origin: own } })).status).toBe(403);
          const otherFrontEnd = await send(row, {
            cookies: credentials.cookies,
            headers: { origin: other, 'x-requested-with': 'fetch' },
          });
          expect(otherFrontEnd.body.error).toBe('csrf_rejected');
        },
      };
    case 'out-of-scope staff':
      if (kind === 'customer')
        return {
          says: '401: a staff token is the other audience',
          check: async () => isProblem(await send(row, await as()), 401),
        };
      return scopeCell(row);
    case 'another customer':
      if (kind === 'admin')
        return {
          says: '401: a customer token is the other audience',
          check: async () => isProblem(await send(row, await as()), 401),
        };
      return otherCustomerCell(row);
    default:
      return { says: '401', check: async () => isProblem(await send(row, await as()), 401) };
  }
}

/** Staff limited to event B, on an administrator row. */
function scopeCell(row: RouteRow): Cell {
  const withScope = (options: CallOptions): CallOptions => ({ ...options, token: world.scoped });
  if (onWebhooks(row)) return webhookScopeCell(row);
  if (onGate(row)) return gateScopeCell(row);
  if (onEvents(row)) return eventsScopeCell(row);
  if (row.auth.kind === 'admin' && row.auth.permission && isStageWide(row.auth.permission))
    return stageWideScopeCell(row, row.auth.permission);
  if (routeKey(row) === 'GET /orders/export')
    return {
      says: '404 "Event <id> not found." for the export of another event (unscoped staff: 200)',
      check: async () => {
        const url = `${urlOf(row)}?event=${world.eventA}`;
        const limited = await call(row.method, url, { token: world.scoped });
        isProblem(limited, 404);
        expect(limited.body.detail).toBe(`Event ${world.eventA} not found.`);
        expect((await call(row.method, url, { token: world.unscoped })).status).toBe(200);
      },
    };
  if (!eventScoped(row)) {
    return {
      says: 'no event data here: answered as unscoped staff',
      check: async () => {
        const [limited, unlimited] = [
          await send(row, { token: world.scoped }),
          await send(row, { token: world.unscoped }),
        ];
        expect(limited.status).toBe(unlimited.status);
      },
    };
  }
  if (takesTicket(row)) {
    return {
      says: '404 "Ticket <id> not found." for a ticket of another event; the ticket is unchanged',
      check: () =>
        unchangedTicket(async () => {
          const { url, options } = validTicketRequest(row, world.ticketId);
          const response = await call(row.method, url, withScope(options));
          isProblem(response, 404);
          expect(response.body.detail).toBe(`Ticket ${world.ticketId} not found.`);
          // The ticket is there for unscoped staff: the 404 is the scope's (reads only: a write would change the ticket).
          if (!unsafe(row)) expect((await call(row.method, url, { token: world.unscoped })).status).toBe(200);
        }),
    };
  }
  const filter = EVENT_QUERY[routeKey(row)];
  if (filter === 'events') {
    return {
      says: '404 "Event <id> not found." for statistics of another event',
      check: async () => {
        const response = await call(row.method, `${urlOf(row)}?${filter}=${world.eventA}`, { token: world.scoped });
        isProblem(response, 404);
        expect(response.body.detail).toBe(`Event ${world.eventA} not found.`);
      },
    };
  }
  if (filter) {
    return {
      says: 'a list filtered on another event is an empty page',
      check: async () => {
        const url = `${urlOf(row)}?${filter}=${world.eventA}`;
        const [limited, unlimited] = [
          await call(row.method, url, { token: world.scoped }),
          await call(row.method, url, { token: world.unscoped }),
        ];
        expect(limited.status, limited.raw).toBe(200);
        expect(limited.body.data).toEqual([]);
        expect(unlimited.body.data.map((ticket: { id: number }) => ticket.id)).toContain(world.ticketId);
      },
    };
  }
  if (row.path.endsWith('/bulk-delete')) {
    return {
      says: 'a bulk change reports a ticket of another event as not found, and changes nothing',
      check: () =>
        unchangedTicket(async () => {
          const response = await call(row.method, urlOf(row), { token: world.scoped, body: { ids: [world.ticketId] } });
          expect(response.status, response.raw).toBe(200);
          expect(response.body.data).toEqual([
            { id: world.ticketId, status: 'error', error: `Ticket ${world.ticketId} not found.` },
          ]);
        }),
    };
  }
  throw new Error(`${routeKey(row)}: an event-scoped row the matrix cannot classify; say how it takes its event`);
}

/** Staff limited to event B, on a row whose permission reaches every event (README "Event-scoped staff"). */
function stageWideScopeCell(row: RouteRow, permission: string): Cell {
  return {
    says: `403 naming "${permission}" as stage-wide, before anything is read or changed (unscoped staff: not refused)`,
    check: async () => {
      const [limited, unlimited] = [
        await send(row, { token: world.scoped }),
        await send(row, { token: world.unscoped }),
      ];
      isProblem(limited, 403);
      expect(limited.body.detail).toContain(`"${permission}" permission is stage-wide`);
      expect(unlimited.status).not.toBe(403);
    },
  };
}

/** Staff limited to event B, on a gate row: event A is 404 as an unknown event, and nothing is scanned. */
function gateScopeCell(row: RouteRow): Cell {
  if (row.method === 'GET')
    return {
      says: '404 "Event <id> not found." for the admission list of another event (unscoped staff: 200)',
      check: async () => {
        const url = urlOf(row, { event: world.eventA });
        const limited = await call(row.method, url, { token: world.scoped });
        isProblem(limited, 404);
        expect(limited.body.detail).toBe(`Event ${world.eventA} not found.`);
        expect((await call(row.method, url, { token: world.unscoped })).status).toBe(200);
      },
    };
  return {
    says: '404 "Event <id> not found." for scans at another event; its ticket is not admitted',
    check: () =>
      unchangedTicket(async () => {
        const { barcode } = (await readTicketRecord(world.ticketId))!;
        const scans = [{ id: randomUUID(), barcode, scannedAt: new Date().toISOString() }];
        const response = await call(row.method, urlOf(row), {
          token: world.scoped,
          body: { eventId: world.eventA, scans },
        });
        isProblem(response, 404);
        expect(response.body.detail).toBe(`Event ${world.eventA} not found.`);
      }),
  };
}

/** Staff limited to event B, on an events row: event A is not theirs to read or change, and they create no event. */
function eventsScopeCell(row: RouteRow): Cell {
  if (routeKey(row) === 'POST /events')
    return {
      says: '403: staff limited to some events create none',
      check: async () => {
        const body = { title: 'Mallory fest', start: '2400-01-01T00:00:00Z', timezone: 'UTC', currency: 'EUR' };
        isProblem(await call(row.method, '/api/v2/events', { token: world.scoped, body }), 403);
      },
    };
  if (routeKey(row) === 'GET /events')
    return {
      says: 'the list holds only their own events',
      check: async () => {
        const response = await call(row.method, '/api/v2/events?_limit=100', { token: world.scoped });
        expect(response.status).toBe(200);
        expect(response.body.data.map((event: { id: number }) => event.id)).not.toContain(world.eventA);
      },
    };
  const bodies: Record<string, unknown> = {
    'PATCH /events/{id}': { venue: 'Mallory Hall' },
    'POST /events/{id}/ticket-types': { name: 'Mallory', price: 1, total: 1 },
    'PATCH /events/{id}/ticket-types/{typeId}': { name: 'Mallory' },
    'POST /events/{id}/teams': { name: 'Mallory' },
    'PATCH /events/{id}/teams/{teamId}': { name: 'Mallory' },
    'POST /events/{id}/wave-times': { name: 'Mallory', startTime: '2400-01-01T00:00:00Z', capacity: 1 },
    'PATCH /events/{id}/wave-times/{waveId}': { name: 'Mallory' },
    'POST /events/{id}/questions': { text: 'Mallory?' },
    'PATCH /events/{id}/questions/{questionId}': { text: 'Mallory?' },
    'POST /events/{id}/waivers': { title: 'Mallory', text: 'Mallory' },
    'PATCH /events/{id}/waivers/{waiverId}': { title: 'Mallory' },
    'POST /events/{id}/promo-codes': { code: 'MALLORY', percentOff: 100 },
    'PATCH /events/{id}/promo-codes/{codeId}': { percentOff: 100 },
  };
  return {
    says: '404 "Event <id> not found." for another event; the event is unchanged',
    check: async () => {
      const url = `/api/v2${row.path
        .replace('{id}', String(world.eventA))
        .replace('{typeId}', String(world.typeA))
        .replace(/\{(teamId|waveId|questionId|waiverId|codeId)\}/, '1')}`;
      const read = () => call('GET', `/api/v2/events/${world.eventA}`, { token: world.unscoped });
      const before = await read();
      const body = bodies[routeKey(row)];
      const response = await call(row.method, url, { token: world.scoped, ...(body ? { body } : {}) });
      isProblem(response, 404);
      expect(response.body.detail).toBe(`Event ${world.eventA} not found.`);
      expect((await read()).body).toEqual(before.body);
    },
  };
}

/** Staff limited to event B, on a webhook row: event A's subscription is not theirs to see, change or send. */
function webhookScopeCell(row: RouteRow): Cell {
  // The world is made in beforeAll, after the cells are named: read it when a check runs.
  const url = () =>
    `/api/v2${row.path.replace('{id}', String(world.webhookId)).replace('{deliveryId}', '0000000000000-ping-00000000')}`;
  const read = () => call('GET', `/api/v2/webhooks/${world.webhookId}`, { token: world.unscoped });
  if (routeKey(row) === 'POST /webhooks')
    return {
      says: "400 naming eventIds for a subscription to another event's changes",
      check: async () => {
        const body = { url: 'http://127.0.0.1:9/hooks', events: ['ticket.updated'], eventIds: [world.eventA] };
        const response = await call(row.method, url(), { token: world.scoped, body });
        isProblem(response, 400);
        expect(response.body.errors.map((e: { path: string }) => e.path)).toEqual(['body.eventIds']);
      },
    };
  if (routeKey(row) === 'GET /webhooks')
    return {
      says: "the list leaves out another event's subscription",
      check: async () => {
        const ids = async (token: string) =>
          (await call('GET', `${url()}?_limit=100`, { token })).body.data.map((w: { id: number }) => w.id);
        expect(await ids(world.scoped)).not.toContain(world.webhookId);
        expect(await ids(world.unscoped)).toContain(world.webhookId);
      },
    };
  return {
    says: `404 "Webhook <id> not found." for another event's subscription, which stays as it was`,
    check: async () => {
      const before = (await read()).body;
      const response = await call(row.method, url(), withBody(row, { token: world.scoped }));
      isProblem(response, 404);
      expect(response.body.detail).toBe(`Webhook ${world.webhookId} not found.`);
      expect((await read()).body).toEqual(before);
    },
  };
}

const withBody = (row: RouteRow, options: CallOptions): CallOptions =>
  row.method === 'PATCH'
    ? { ...options, body: { description: 'Mallory' } }
    : row.path.endsWith('/redeliver')
      ? { ...options, body: { from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date().toISOString() } }
      : bareOptions(row, options);

/** Customer Y, on a customer row, reaching for X's data. */
function otherCustomerCell(row: RouteRow): Cell {
  const param = /\{(\w+)\}/.exec(row.path)?.[1];
  if (param) {
    // A reservation's `{id}`, an order's `{id}` (its invoice): X's own.
    const reservation = row.path.startsWith('/my-account/reservations/') && param === 'id';
    const order = row.path.startsWith('/my-account/orders/') && param === 'id';
    if (param !== 'eventId' && param !== 'ticketId' && !reservation && !order)
      throw new Error(`${routeKey(row)}: a customer row with {${param}}: say whose data it names`);
    const named = reservation ? 'reservation' : order ? 'order' : param === 'eventId' ? 'private event' : 'ticket';
    // Read when the check runs: the cells are built before the world is.
    const theirId = () =>
      reservation
        ? world.x.reservationId
        : order
          ? world.x.orderId
          : param === 'eventId'
            ? world.x.eventId
            : world.x.ticketId;
    return {
      says: `404 for another customer's ${named} (whose owner gets 200)`,
      check: async () => {
        const url = `/api/v2${row.path.replace(`{${param}}`, String(theirId()))}`;
        // The checkout takes its attendees (X's reservation holds one ticket); its owner reaches it (checks it out,
        // or is told what it lacks or that the DELETE row's cell released it): anything but the 404.
        const checkout = row.path.endsWith('/checkout');
        const body = checkout
          ? { attendees: [{ firstName: 'Xen', lastName: 'Owner', email: 'x@example.com' }] }
          : undefined;
        const theirs = await call(row.method, url, { token: world.y.token, ...(body ? { body } : {}) });
        isProblem(theirs, 404);
        leaksNothingOfX(theirs);
        const own = await call(row.method, url, { token: world.x.token, ...(body ? { body } : {}) });
        if (checkout) expect(own.status, own.raw).not.toBe(404);
        else expect(own.status, own.raw).toBe(200);
      },
    };
  }
  return {
    says: "only the caller's own data: nothing of another customer's in the answer, and their account unchanged",
    check: async () => {
      const before = (await call('GET', '/api/v2/my-account', { token: world.x.token })).body;
      // Unsafe rows get the other customer's address where they take one (a body naming whose data to touch).
      const body = row.path.endsWith('/email')
        ? { email: world.x.markers[0], type: 'account_details' }
        : { primary: '1 Own Lane' };
      const query = CUSTOMER_QUERY[routeKey(row)] ? `?${CUSTOMER_QUERY[routeKey(row)]}` : '';
      const response = await call(row.method, `${urlOf(row)}${query}`, {
        token: world.y.token,
        ...(unsafe(row) ? { body } : {}),
      });
      expect(response.status, response.raw).toBeLessThan(500);
      leaksNothingOfX(response);
      expect((await call('GET', '/api/v2/my-account', { token: world.x.token })).body).toEqual(before);
    },
  };
}

// --- The walk ------------------------------------------------------------------------------

describe.each(routes.map((row) => [routeKey(row), row] as const))('%s', (_key, row) => {
  it('is built from its own row', async () => {
    expect((await handlerOf(row)).routeKey).toBe(routeKey(row));
  });

  it('answers CORS for its own front end(s) only', async () => {
    // Each audience's routes accept only its own front end (shared/http/cors.ts); public rows both.
    const own =
      row.auth.kind === 'admin'
        ? [ALLOWED_ORIGIN]
        : row.auth.kind === 'customer'
          ? [PORTAL_ORIGIN]
          : [ALLOWED_ORIGIN, PORTAL_ORIGIN];
    const foreign = [EVIL_ORIGIN, ...[ALLOWED_ORIGIN, PORTAL_ORIGIN].filter((origin) => !own.includes(origin))];
    for (const origin of own) {
      const response = await send(row, { headers: { origin } });
      expect(response.headers['access-control-allow-origin'], origin).toBe(origin);
      if (row.auth.kind !== 'public') expect(response.headers['access-control-allow-credentials']).toBe('true');
    }
    for (const origin of foreign) {
      const response = await send(row, { headers: { origin } });
      expect(response.headers['access-control-allow-origin'], origin).toBeUndefined();
      expect(response.headers.vary).toContain('Origin');
    }
  });

  for (const caller of CALLERS) {
    const expectation = cell(row, caller);
    if ('notApplicable' in expectation) {
      it(`${caller}: not applicable: ${expectation.notApplicable}`, () => expect(row.auth.kind).toBe('customer'));
    } else {
      it(`${caller}: ${expectation.says}`, expectation.check);
    }
  }
});

it("the other customer's markers are live: their owner sees them in their own orders and events", async () => {
  const orders = await call('GET', `/api/v2/my-account/orders?${CUSTOMER_QUERY['GET /my-account/orders']}`, {
    token: world.x.token,
  });
  const events = await call('GET', `/api/v2/my-account/event?${CUSTOMER_QUERY['GET /my-account/event']}`, {
    token: world.x.token,
  });
  const account = await call('GET', '/api/v2/my-account', { token: world.x.token });
  for (const marker of world.x.markers.slice(1, 3)) expect(orders.raw, marker).toContain(marker);
  expect(events.raw).toContain(world.x.markers[3]);
  expect(account.raw).toContain(world.x.markers[0]);
});

it('has an expectation for every route and every kind of caller', () => {
  // The spec's 55 and ours: POST /my-account/claim and sign-up, the buyer's shipping methods and an event's questions, the ticket PDF, the ten webhook routes, the gate's two, the twenty-one events routes and an event's four promo-code routes and its sales figures, the three reservation routes and the checkout, Stripe's webhook, the staff's five order routes with the export, and the invoices' three (test/unit/routes.test.ts names them).
  expect(routes).toHaveLength(111);
  for (const row of routes) for (const caller of CALLERS) expect(cell(row, caller)).toBeDefined();
});
