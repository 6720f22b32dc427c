import { BatchGetCommand, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { hashPassword } from '#shared/auth/passwords';
import { issueToken } from '#shared/services/token-issuer';
import { epochSeconds } from '#shared/clock';
import { createAdministrator } from '#shared/data/administrators';
import { db } from '#shared/data/client';
import { countDelta } from '#shared/data/counters';
import { keys } from '#shared/data/keys';
import { keyCondition } from '#shared/data/key-conditions';
import { createShippingMethods } from '#shared/data/shipping-methods';
import { ticketChangeActions, type ExtraAction } from '#shared/lists/writes';
import { fromTicketItem } from '#shared/data/ticket-records';
import { createEvent } from '#shared/data/events';
import { STATS_SHARDS } from '#shared/data/stats-shards';
import { createTicket } from '#shared/use-cases/tickets/create-ticket';
import type { NewShippingMethod, ShippingMethod } from '#shared/domain/shipping-method';
import { historyEntry } from '#shared/domain/ticket-history';
import { PERMISSIONS } from '#shared/auth/permissions';
import { rawGuardedLogin } from './raw-login-guard.ts';
import { TABLE_NAME as TableName } from './settings.ts';

/**
 * One scenario per route: a request for the handler, and the same DynamoDB commands the
 * repository sends for it, made raw on the same `db` client. The raw side is copied from
 * shared/data/* by hand on purpose (not by calling the repository), so the difference is
 * exactly what the handler adds: middy, auth, validation, mapping, envelopes. The bench
 * checks that both sides send the same command sequence.
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
  /** The i-th raw repetition. */
  raw(i: number): Promise<unknown>;
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
const METHOD_COUNT = 'SHIPPING_METHOD';
const METHOD_SEQUENCE = 'SHIPPING_METHOD';

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

// ---- The raw commands, as shared/data/* sends them ----------------------------------

const methodItem = (method: ShippingMethod) => ({
  ...keys.shippingMethod(method.id),
  ...keys.shippingMethodIndexes(method.id),
  entity: 'ShippingMethod',
  nameSearch: method.name.toLowerCase(),
  ...method,
});

/** counters.allocateIds */
async function allocate(count: number): Promise<number> {
  const { Attributes } = await db.send(
    new UpdateCommand({
      TableName,
      Key: keys.sequence(METHOD_SEQUENCE),
      UpdateExpression: 'ADD #value :count',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':count': count },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(Attributes?.value) - count + 1;
}

/** shipping-methods.createShippingMethods (one chunk) */
async function rawCreate(inputs: NewShippingMethod[]) {
  const first = await allocate(inputs.length);
  const stamp = new Date().toISOString();
  await db.send(
    new TransactWriteCommand({
      TransactItems: [
        ...inputs.map((input, k) => ({
          Put: {
            TableName,
            Item: methodItem({ ...input, id: first + k, created: stamp, updated: stamp }),
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        })),
        countDelta(METHOD_COUNT, inputs.length),
      ],
    }),
  );
}

/** shipping-methods.readShippingMethods (no unprocessed keys locally) */
const rawBatchGet = (ids: number[]) =>
  db.send(new BatchGetCommand({ RequestItems: { [TableName]: { Keys: ids.map((id) => keys.shippingMethod(id)) } } }));

/** shipping-methods.deleteShippingMethods */
async function rawDelete(ids: number[]) {
  await rawBatchGet(ids);
  await db.send(
    new TransactWriteCommand({
      TransactItems: [
        ...ids.map((id) => ({
          Delete: { TableName, Key: keys.shippingMethod(id), ConditionExpression: 'attribute_exists(PK)' },
        })),
        countDelta(METHOD_COUNT, -ids.length),
      ],
    }),
  );
}

/** shipping-methods.updateShippingMethod: the patch's fields, `updated`, and `nameSearch` when the name changes. */
function rawUpdate(id: number, patch: Record<string, unknown>) {
  const changes: Record<string, unknown> = { ...patch, updated: new Date().toISOString() };
  if (typeof patch.name === 'string') changes.nameSearch = patch.name.toLowerCase();
  const entries = Object.entries(changes);
  return db.send(
    new UpdateCommand({
      TableName,
      Key: keys.shippingMethod(id),
      UpdateExpression: `SET ${entries.map((_, k) => `#f${k} = :v${k}`).join(', ')}`,
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: Object.fromEntries(entries.map(([name], k) => [`#f${k}`, name])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], k) => [`:v${k}`, value])),
      ReturnValues: 'ALL_NEW',
    }),
  );
}

const bulk = <T>(data: T[]) => ({ count: data.length, data });
const chunk = (ids: number[], i: number) => ids.slice(i * BULK_SIZE, (i + 1) * BULK_SIZE);

// ---- Tickets: fixtures and the raw commands, as shared/data/ticket-*.ts send them -------

/** A fresh event (10 statistics shards, two roomy types) with `count` tickets of its first type, outside the timed section. */
async function ticketFixture(count: number) {
  const event = await createEvent({
    title: 'Bench event',
    timezone: 'Europe/London',
    startsAt: '2027-06-01T08:00:00Z',
    ticketTypes: [
      { name: 'Bench GA', price: 10, total: 100_000 },
      { name: 'Bench VIP', price: 20, total: 100_000 },
    ],
  });
  const tickets: number[] = [];
  for (let start = 0; start < count; start += 10) {
    const batch = Array.from({ length: Math.min(10, count - start) }, () =>
      createTicket({ typeId: event.ticketTypes[0]!.id, partyMember: 'Bench' }),
    );
    tickets.push(...(await Promise.all(batch)).map((ticket) => ticket.id));
  }
  return { event, tickets };
}

/** data/ticket-records.readTicketRecord */
async function rawReadTicket(id: number) {
  const { Item } = await db.send(new GetCommand({ TableName, Key: keys.ticket(id), ConsistentRead: true }));
  return Item!;
}

type RawChange = { before: Record<string, unknown> | null; after: Record<string, unknown> };

/**
 * data/ticket-changes.commitTicketChanges: the same TransactItems, built by its pure
 * `ticketChangeActions` (ticket, history, list and search entries, positions, statistics,
 * `sold`), sent directly: the handler's side differs by what it reads, decides and answers.
 */
function rawCommit(changes: RawChange[], extra: Record<string, unknown>[] = []) {
  const at = new Date().toISOString();
  const ticketChanges = changes.map(({ before, after }) => {
    const [from, to] = [before ? fromTicketItem(before) : null, fromTicketItem(after)];
    return {
      before: from,
      after: to,
      history: historyEntry(from, to, { actor: { kind: 'admin', id: 1 }, action: 'edit', at }),
    };
  });
  const actions = extra.map((action) => ({ action: action as ExtraAction['action'] }));
  return db.send(new TransactWriteCommand({ TransactItems: ticketChangeActions(ticketChanges, actions) }));
}

/** use-cases/tickets/check-in: one read, one transaction (ticket, history entry, statistics shard, scan record). */
async function rawCheckIn(id: number, adminId: number) {
  const item = await rawReadTicket(id);
  const scan = { eventId: Number(item.eventId), scannedTimestamp: new Date().toISOString(), adminId };
  await rawCommit(
    [{ before: item, after: { ...item, processState: 2, checkIn: scan, updated: scan.scannedTimestamp } }],
    [
      {
        Put: {
          TableName,
          Item: {
            ...keys.scanRecord(id, scan.scannedTimestamp, 'bench'),
            entity: 'Scan',
            ticketId: id,
            ...scan,
            outcome: 'admitted',
          },
        },
      },
    ],
  );
}

/** use-cases/tickets/edit-ticket.deleteTicket: one read, one transaction (ticket, history entry, type `sold`, statistics `sold`). */
async function rawDeleteTicket(id: number) {
  const item = await rawReadTicket(id);
  await rawCommit([{ before: item, after: { ...item, deleted: 1, updated: new Date().toISOString() } }]);
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
    raw: () =>
      rawGuardedLogin(`raw-admin:${admin.login}`, () =>
        db.send(
          new QueryCommand({
            TableName,
            ...keyCondition(keys.administratorByLogin(admin.login)),
            Limit: 1,
          }),
        ),
      ),
  }),

  'auth/me': async ({ admin }) => ({
    request: () => ({ method: 'GET', url: '/auth/me' }),
    raw: () => db.send(new GetCommand({ TableName, Key: keys.administrator(admin.id) })),
  }),

  // The count read starts first and runs alongside the Query, as listShippingMethods does.
  'shipping-method/list': async () => ({
    request: () => ({ method: 'GET', url: '/shipping-method' }),
    raw: async () => {
      const total = db.send(new GetCommand({ TableName, Key: keys.count(METHOD_COUNT) }));
      await db.send(
        new QueryCommand({
          TableName,
          ...keyCondition(keys.shippingMethodList),
          Limit: 25,
        }),
      );
      await total;
    },
  }),

  'shipping-method/get': async ({ methods }) => ({
    request: () => ({ method: 'GET', url: `/shipping-method/${methods[0]}` }),
    raw: () => db.send(new GetCommand({ TableName, Key: keys.shippingMethod(methods[0]!) })),
  }),

  'shipping-method/create': async () => ({
    request: (i) => ({ method: 'POST', url: '/shipping-method', body: sample(i) }),
    raw: (i) => rawCreate([sample(i)]),
  }),

  'shipping-method/update': async ({ methods }) => ({
    request: (i) => ({
      method: 'PATCH',
      url: `/shipping-method/${methods[0]}`,
      body: { name: `Renamed ${i}`, charge: i },
    }),
    raw: (i) => rawUpdate(methods[0]!, { name: `Renamed ${i}`, charge: i }),
  }),

  'shipping-method/delete': async (_, runs) => {
    const ids = await freshIds(2 * runs);
    return {
      request: (i) => ({ method: 'DELETE', url: `/shipping-method/${ids[i]}` }),
      raw: (i) => rawDelete([ids[runs + i]!]),
    };
  },

  'shipping-method/bulk-read': async ({ methods }) => {
    const ids = methods.slice(0, BULK_SIZE);
    return {
      request: () => ({ method: 'POST', url: '/shipping-method/bulk-read', body: bulk(ids) }),
      raw: () => rawBatchGet(ids),
    };
  },

  'shipping-method/bulk-create': async () => ({
    request: (i) => ({
      method: 'POST',
      url: '/shipping-method/bulk-create',
      body: bulk(samples(i * BULK_SIZE, BULK_SIZE)),
    }),
    raw: (i) => rawCreate(samples(i * BULK_SIZE, BULK_SIZE)),
  }),

  // Each item is its own conditional UpdateItem, all in parallel (bulkUpdate's Promise.all).
  'shipping-method/bulk-update': async ({ methods }) => {
    const ids = methods.slice(0, BULK_SIZE);
    return {
      request: (i) => ({
        method: 'POST',
        url: '/shipping-method/bulk-update',
        body: bulk(ids.map((id) => ({ id, data: { charge: i } }))),
      }),
      raw: (i) => Promise.all(ids.map((id) => rawUpdate(id, { charge: i }))),
    };
  },

  'shipping-method/bulk-delete': async (_, runs) => {
    const ids = await freshIds(2 * runs * BULK_SIZE);
    return {
      request: (i) => ({ method: 'POST', url: '/shipping-method/bulk-delete', body: bulk(chunk(ids, i)) }),
      raw: (i) => rawDelete(chunk(ids, runs + i)),
    };
  },

  // One consistent GetItem.
  'tickets/get': async () => {
    const { tickets } = await ticketFixture(1);
    return {
      request: () => ({ method: 'GET', url: `/tickets/${tickets[0]}` }),
      raw: () => rawReadTicket(tickets[0]!),
    };
  },

  // The maintained count (BatchGetItem of the event's shards) alongside one Query of a
  // page of the event's list entries (30 tickets, default page 25), then their tickets.
  'tickets/list': async () => {
    const { event } = await ticketFixture(30);
    return {
      request: () => ({ method: 'GET', url: `/tickets?event=${event.id}` }),
      raw: async () => {
        const total = db.send(
          new BatchGetCommand({
            RequestItems: {
              [TableName]: {
                Keys: Array.from({ length: STATS_SHARDS }, (_, shard) => keys.eventStats(event.id, shard)),
                ProjectionExpression: 'listed',
              },
            },
          }),
        );
        const { Items = [] } = await db.send(
          new QueryCommand({
            TableName,
            ...keyCondition(keys.eventTickets(event.id)),
            Limit: 25,
          }),
        );
        // The page's tickets, from their list entries.
        await db.send(
          new BatchGetCommand({
            RequestItems: { [TableName]: { Keys: Items.map((entry) => keys.ticket(Number(entry.ticketId))) } },
          }),
        );
        await total;
      },
    };
  },

  // One BatchGetItem of the two events' 20 statistics shards.
  'tickets/check-in-stats': async () => {
    const [one, two] = [await ticketFixture(5), await ticketFixture(5)];
    const events = [one.event.id, two.event.id];
    return {
      request: () => ({ method: 'GET', url: `/tickets/check-in-stats?events=${events.join(',')}` }),
      raw: () =>
        db.send(
          new BatchGetCommand({
            RequestItems: {
              [TableName]: {
                Keys: events.flatMap((eventId) =>
                  Array.from({ length: STATS_SHARDS }, (_, shard) => keys.eventStats(eventId, shard)),
                ),
              },
            },
          }),
        ),
    };
  },

  // One GetItem, one TransactWriteItems: each run admits a fresh ticket.
  'tickets/check-in': async ({ admin }, runs) => {
    const { tickets } = await ticketFixture(2 * runs);
    return {
      request: (i) => ({ method: 'POST', url: `/tickets/${tickets[i]}/check-in` }),
      raw: (i) => rawCheckIn(tickets[runs + i]!, admin.id),
    };
  },

  // One GetItem, one TransactWriteItems (only the ticket: no state moves).
  'tickets/update': async () => {
    const { tickets } = await ticketFixture(1);
    return {
      request: (i) => ({
        method: 'PATCH',
        url: `/tickets/${tickets[0]}`,
        body: { data: { partyMember: `Bench ${i}`, price: i } },
      }),
      raw: async (i) => {
        const item = await rawReadTicket(tickets[0]!);
        await rawCommit([
          { before: item, after: { ...item, partyMember: `Bench ${i}`, price: i, updated: new Date().toISOString() } },
        ]);
      },
    };
  },

  'tickets/delete': async (_, runs) => {
    const { tickets } = await ticketFixture(2 * runs);
    return {
      request: (i) => ({ method: 'DELETE', url: `/tickets/${tickets[i]}` }),
      raw: (i) => rawDeleteTicket(tickets[runs + i]!),
    };
  },

  // Each id on its own: GetItem + TransactWriteItems per ticket.
  'tickets/bulk-delete': async (_, runs) => {
    const { tickets } = await ticketFixture(2 * runs * BULK_SIZE);
    return {
      request: (i) => ({ method: 'POST', url: '/tickets/bulk-delete', body: { ids: chunk(tickets, i) } }),
      raw: async (i) => {
        for (const id of chunk(tickets, runs + i)) await rawDeleteTicket(id);
      },
    };
  },

  // Type lookup (GSI1 Query), id allocation alongside the ticket read, one transaction:
  // original transferred, new ticket, `sold` of both types and both statistics shards.
  'tickets/transfer': async (_, runs) => {
    const { event, tickets } = await ticketFixture(2 * runs);
    const to = event.ticketTypes[1];
    return {
      request: (i) => ({ method: 'POST', url: `/tickets/${tickets[i]}/transfer`, body: { typeId: to!.id } }),
      raw: async (i) => {
        const id = tickets[runs + i]!;
        await db.send(
          new QueryCommand({
            TableName,
            ...keyCondition(keys.ticketTypeById(to!.id), { equals: keys.ticketTypeSort }),
          }),
        );
        const allocated = db.send(
          new UpdateCommand({
            TableName,
            Key: keys.sequence('TICKET'),
            UpdateExpression: 'ADD #value :count',
            ExpressionAttributeNames: { '#value': 'value' },
            ExpressionAttributeValues: { ':count': 1 },
            ReturnValues: 'UPDATED_NEW',
          }),
        );
        const item = await rawReadTicket(id);
        const newId = Number((await allocated).Attributes?.value);
        const stamp = new Date().toISOString();
        const created = {
          ...item,
          id: newId,
          typeId: to!.id,
          barcode: `BENCH${newId}`,
          transferredFrom: id,
          created: stamp,
          updated: stamp,
          version: 0,
        };
        await rawCommit([
          { before: item, after: { ...item, transferState: 'transferred', transferredTo: newId, updated: stamp } },
          { before: null, after: created },
        ]);
      },
    };
  },
};
