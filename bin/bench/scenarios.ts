import { hashPassword } from '#shared/auth/passwords';
import { issueToken } from '#shared/identity/services/token-issuer';
import { epochSeconds } from '#shared/clock';
import { createAdministrator } from '#shared/identity/data/administrators';
import {
  createShippingMethods,
  deleteShippingMethods,
  listShippingMethods,
} from '#shared/selling/data/shipping-methods';
import { createEvent } from '#shared/events/data/event-creation';
import { eventListing } from '#shared/lists/event-listing';
import { createTicket } from '#shared/tickets/use-cases/create-ticket';
import { MAX_SHIPPING_METHODS, type NewShippingMethod } from '#shared/selling/domain/shipping-method';
import { PERMISSIONS } from '#shared/auth/permissions';

/**
 * One scenario per route: the requests its handler is measured with, and the fixtures
 * they need (made outside the timed section). The floor is not written here: it is the
 * commands the handler sent, replayed bare (bin/bench/replay.ts), so the difference is
 * exactly what the handler adds: middy, auth, validation, mapping, envelopes.
 */
export interface BenchRequest {
  method: string;
  /** Below API_PREFIX, with any query. */
  url: string;
  body?: unknown;
  /** Public routes carry no token. */
  anonymous?: boolean;
  /** The request's own token (a customer's, on the portal routes); default the fixture's administrator token. */
  token?: string;
}

export interface Prepared {
  /** The handler's i-th request (0-based; warm-up included). */
  request(i: number): BenchRequest;
  /**
   * Untimed work before the pair of requests starting at `i`, after the previous pair's replays: its writes reach the
   * table and its twin alike, so both stay the same.
   */
  beforePair?(i: number): Promise<void>;
}

export interface Fixture {
  token: string;
  admin: { id: number; login: string; password: string };
  /** Seeded shipping methods, more than a default page (25). */
  methods: number[];
}

export type Scenario = (fixture: Fixture, runs: number) => Promise<Prepared>;

/** Items per bulk request: a realistic small batch, well inside one transaction. */
export const BULK_SIZE = 10;
const SEEDED_METHODS = 30;

const sample = (n: number): NewShippingMethod => ({
  name: `Bench method ${n}`,
  description: 'Seeded by npm run bench',
  charge: 4.5,
  twoPlusCharge: 1,
  chargeType: 'per_ticket',
  hasETickets: false,
  requiresShippingInfo: true,
  allowInternational: false,
  hasBadges: false,
});
const samples = (from: number, count: number) => Array.from({ length: count }, (_, k) => sample(from + k));

/** Fresh methods for the destructive routes, created outside the timed section. */
const freshIds = async (count: number) => (await createShippingMethods(samples(0, count))).map((method) => method.id);

/** How many pairs of creating requests run between two clean-ups: MAX_SHIPPING_METHODS caps what may exist. */
const PAIRS_BETWEEN_CLEANUPS = 10;

/** Deletes every method the creating routes made (all but the seeded ones), so the next requests find room. */
async function removeCreatedMethods({ methods }: Fixture) {
  const seeded = new Set(methods);
  const page = await listShippingMethods({ limit: MAX_SHIPPING_METHODS, offset: 0 });
  const created = page.items.map((method) => method.id).filter((id) => !seeded.has(id));
  if (created.length > 0) await deleteShippingMethods(created);
}

/** Between every PAIRS_BETWEEN_CLEANUPS pairs, the methods created so far are deleted again. */
const cleanedUp = (fixture: Fixture) => async (i: number) => {
  if (i % (2 * PAIRS_BETWEEN_CLEANUPS) === 0) await removeCreatedMethods(fixture);
};

export async function seed(): Promise<Fixture> {
  const admin = { login: 'bench-admin@ticketing.bench', password: 'bench-admin-password' };
  const created = await createAdministrator({
    login: admin.login,
    email: admin.login,
    name: 'Bench Admin',
    permissions: [...PERMISSIONS],
    vendorUser: 0,
    passwordHash: await hashPassword(admin.password),
  });
  const token = await issueToken({
    kind: 'admin',
    id: created.id,
    login: created.login,
    permissions: [...PERMISSIONS],
    vendorUser: false,
    authTime: epochSeconds(),
  });
  return { token, admin: { ...admin, id: created.id }, methods: await freshIds(SEEDED_METHODS) };
}

const bulk = <T>(data: T[]) => ({ count: data.length, data });
const chunk = (ids: number[], i: number) => ids.slice(i * BULK_SIZE, (i + 1) * BULK_SIZE);

// ---- Tickets' fixtures -----------------------------------------------------------------

/** A fresh event (10 statistics shards, two roomy types) with `count` tickets of its first type, outside the timed section. */
async function ticketFixture(count: number) {
  const event = await createEvent(
    {
      title: 'Bench event',
      timezone: 'Europe/London',
      startsAt: '2027-06-01T08:00:00Z',
      ticketTypes: [
        { name: 'Bench GA', price: 10, total: 100_000 },
        { name: 'Bench VIP', price: 20, total: 100_000 },
      ],
    },
    eventListing,
  );
  const tickets: number[] = [];
  for (let start = 0; start < count; start += 10) {
    const batch = Array.from({ length: Math.min(10, count - start) }, () =>
      createTicket({ typeId: event.ticketTypes[0]!.id, partyMember: 'Bench' }),
    );
    tickets.push(...(await Promise.all(batch)).map((ticket) => ticket.id));
  }
  return { event, tickets };
}

// ---- Per route (keyed by handler module) --------------------------------------------

export const scenarios: Record<string, Scenario> = {
  // The login guard around administrators.findAdministratorByLogin, then scrypt (which dominates).
  'auth/legacy-login': async ({ admin }) => ({
    request: () => ({
      method: 'POST',
      url: '/auth/legacy/login',
      body: { login: admin.login, password: admin.password },
      anonymous: true,
    }),
  }),

  'auth/me': async () => ({ request: () => ({ method: 'GET', url: '/auth/me' }) }),

  // The count read alongside the Query of a page.
  'shipping-method/list': async () => ({ request: () => ({ method: 'GET', url: '/shipping-method' }) }),

  'shipping-method/get': async ({ methods }) => ({
    request: () => ({ method: 'GET', url: `/shipping-method/${methods[0]}` }),
  }),

  'shipping-method/create': async (fixture) => ({
    request: (i) => ({ method: 'POST', url: '/shipping-method', body: sample(i) }),
    beforePair: cleanedUp(fixture),
  }),

  'shipping-method/update': async ({ methods }) => ({
    request: (i) => ({
      method: 'PATCH',
      url: `/shipping-method/${methods[0]}`,
      body: { name: `Renamed ${i}`, charge: i },
    }),
  }),

  'shipping-method/delete': async (_, runs) => {
    const ids = await freshIds(runs);
    return { request: (i) => ({ method: 'DELETE', url: `/shipping-method/${ids[i]}` }) };
  },

  'shipping-method/bulk-read': async ({ methods }) => {
    const ids = methods.slice(0, BULK_SIZE);
    return { request: () => ({ method: 'POST', url: '/shipping-method/bulk-read', body: bulk(ids) }) };
  },

  'shipping-method/bulk-create': async (fixture) => ({
    request: (i) => ({
      method: 'POST',
      url: '/shipping-method/bulk-create',
      body: bulk(samples(i * BULK_SIZE, BULK_SIZE)),
    }),
    beforePair: cleanedUp(fixture),
  }),

  // Each item is its own conditional UpdateItem, all in parallel.
  'shipping-method/bulk-update': async ({ methods }) => {
    const ids = methods.slice(0, BULK_SIZE);
    return {
      request: (i) => ({
        method: 'POST',
        url: '/shipping-method/bulk-update',
        body: bulk(ids.map((id) => ({ id, data: { charge: i } }))),
      }),
    };
  },

  // Each pair's methods are made just before it: every run's at once would pass MAX_SHIPPING_METHODS.
  'shipping-method/bulk-delete': async () => {
    let ids: number[] = [];
    return {
      beforePair: async () => {
        ids = await freshIds(2 * BULK_SIZE);
      },
      request: (i) => ({ method: 'POST', url: '/shipping-method/bulk-delete', body: bulk(chunk(ids, i % 2)) }),
    };
  },

  // One consistent GetItem.
  'tickets/get': async () => {
    const { tickets } = await ticketFixture(1);
    return { request: () => ({ method: 'GET', url: `/tickets/${tickets[0]}` }) };
  },

  // A page of the event's list (30 tickets, default page 25) alongside its maintained count.
  'tickets/list': async () => {
    const { event } = await ticketFixture(30);
    return { request: () => ({ method: 'GET', url: `/tickets?event=${event.id}` }) };
  },

  // The two events' statistics shards.
  'tickets/check-in-stats': async () => {
    const [one, two] = [await ticketFixture(5), await ticketFixture(5)];
    const events = [one.event.id, two.event.id];
    return { request: () => ({ method: 'GET', url: `/tickets/check-in-stats?events=${events.join(',')}` }) };
  },

  // Each run admits a fresh ticket.
  'tickets/check-in': async (_, runs) => {
    const { tickets } = await ticketFixture(runs);
    return { request: (i) => ({ method: 'POST', url: `/tickets/${tickets[i]}/check-in` }) };
  },

  // A change of plain fields: no state moves.
  'tickets/update': async () => {
    const { tickets } = await ticketFixture(1);
    return {
      request: (i) => ({
        method: 'PATCH',
        url: `/tickets/${tickets[0]}`,
        body: { data: { partyMember: `Bench ${i}`, price: i } },
      }),
    };
  },

  'tickets/delete': async (_, runs) => {
    const { tickets } = await ticketFixture(runs);
    return { request: (i) => ({ method: 'DELETE', url: `/tickets/${tickets[i]}` }) };
  },

  'tickets/bulk-delete': async (_, runs) => {
    const { tickets } = await ticketFixture(runs * BULK_SIZE);
    return { request: (i) => ({ method: 'POST', url: '/tickets/bulk-delete', body: { ids: chunk(tickets, i) } }) };
  },

  // Each run transfers a fresh ticket to the event's second type.
  'tickets/transfer': async (_, runs) => {
    const { event, tickets } = await ticketFixture(runs);
    const to = event.ticketTypes[1]!;
    return { request: (i) => ({ method: 'POST', url: `/tickets/${tickets[i]}/transfer`, body: { typeId: to.id } }) };
  },
};
