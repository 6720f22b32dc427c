import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { issueToken } from '#shared/services/token-issuer';
import { epochSeconds } from '#shared/clock';
import { db } from '#shared/data/client';
import { createEvent } from '#shared/data/events';
import { keys } from '#shared/data/keys';
import { keyCondition } from '#shared/data/key-conditions';
import { STATS_SHARDS } from '#shared/data/stats-shards';
import type { CreatedEvent } from '#shared/domain/event';
import { createOrder } from '#shared/use-cases/portal/create-order';
import type { BenchRequest, Scenario } from './scenarios.ts';
import { TABLE_NAME as TableName } from './settings.ts';

/**
 * The portal's list routes, in the shape of `scenarios` (bin/bench/scenarios.ts): a
 * request for the handler and the same DynamoDB commands sent raw, copied by hand from
 * shared/data/{orders,customer-events}.ts. Their requests carry a customer token
 * (`token`): the bench's fixture token is an administrator's, which these routes refuse.
 * latency.ts merges these with the others.
 */

const CUSTOMER_ID = 424_242;
const ORDERS = 30;
/** What a first page of 25 reads of each of its sources: the page and one more (shared/data/merged-walk.ts). */
const PAGE_READ = 26;
/** A start window of its own, so other published events stay out of the measured Query. */
const WINDOW = { from: Date.UTC(2031, 0, 1) / 1000, to: Date.UTC(2031, 1, 1) / 1000 };
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

const benchEvent = (day: number, published: boolean) =>
  createEvent({
    title: `Bench portal event ${day}`,
    timezone: 'Europe/London',
    startsAt: iso(WINDOW.from + day * 86_400),
    published,
    venue: 'Bench Arena',
    ticketTypes: [
      { name: 'Bench GA', price: 10, total: 100_000 },
      { name: 'Bench VIP', price: 25, total: 100_000 },
    ],
  });

let fixture: Promise<{ token: string; events: CreatedEvent[] }> | undefined;

/** Six published events and two hidden ones, and ORDERS two-ticket orders of the customer over them (outside the timed section). */
function portalFixture() {
  fixture ??= (async () => {
    const events: CreatedEvent[] = [];
    for (let day = 1; day <= 8; day++) events.push(await benchEvent(day, day <= 6));
    for (let n = 0; n < ORDERS; n++) {
      const event = events[n % events.length]!;
      await createOrder({
        customerId: CUSTOMER_ID,
        eventId: event.id,
        emailAddress: 'bench-customer@ticketing.bench',
        purchaser: 'Bench Customer',
        tickets: event.ticketTypes.map((type) => ({
          typeId: type.id,
          partyMember: 'Bench',
          partyMemberLastName: `Runner ${n}`,
        })),
        transactions: [{ amount: 35, processor: 'stripe', reference: `ch_bench_${n}`, time: new Date().toISOString() }],
      });
    }
    const token = await issueToken({
      kind: 'customer',
      id: CUSTOMER_ID,
      email: 'bench-customer@ticketing.bench',
      authTime: epochSeconds(),
    });
    return { token, events };
  })();
  return fixture;
}

const chunks = <T>(items: T[], size: number) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
const batchGet = (keyList: Record<string, unknown>[], extra: Record<string, unknown> = {}) =>
  Promise.all(
    chunks(keyList, 100).map((Keys) =>
      db.send(new BatchGetCommand({ RequestItems: { [TableName]: { Keys, ...extra } } })),
    ),
  );

const LISTING_FIELDS = [
  'id',
  'title',
  'timezone',
  'startsAt',
  'capacity',
  'created',
  'venue',
  'venueAddress',
  'description',
  'shortDescription',
  'category',
  'ordering',
  'location',
  'sefUrl',
  'smallPic',
  'largePic',
  'cutOff',
  'onSaleDate',
  'publishedDate',
  'published',
  'hideDate',
  'hideTime',
];
const projection = {
  ProjectionExpression: LISTING_FIELDS.map((_, i) => `#f${i}`).join(', '),
  ExpressionAttributeNames: Object.fromEntries(LISTING_FIELDS.map((field, i) => [`#f${i}`, field])),
};

export const orderScenarios: Record<string, Scenario> = {
  // A page of 25 orders with their tickets: one Query of GSI1 (newest first), then one
  // BatchGetItem of the page's 50 tickets and the customer's counts (totalCount).
  'my-account/orders': async () => {
    const { token } = await portalFixture();
    return {
      request: (): BenchRequest => ({ method: 'GET', url: '/my-account/orders?includeTickets=true', token }),
      raw: async () => {
        const { Items = [] } = await db.send(
          new QueryCommand({
            TableName,
            ...keyCondition(keys.customerOrders(CUSTOMER_ID)),
            ScanIndexForward: false,
            Limit: 25,
          }),
        );
        const ticketIds = Items.flatMap((item) => item.ticketIds as number[]);
        await batchGet([...ticketIds.map((id) => keys.ticket(id)), keys.orderCounts(CUSTOMER_ID)]);
      },
    };
  },

  // The published events of the window and the customer's unpublished linked events (by start) in
  // parallel, those batch-read, then the page's statistics shards (8 events × 10 shards).
  'my-account/events': async () => {
    const { token } = await portalFixture();
    return {
      request: (): BenchRequest => ({
        method: 'GET',
        url: `/my-account/event?fromEventStart=${WINDOW.from}&toEventStart=${WINDOW.to}`,
        token,
      }),
      raw: async () => {
        const [published, links] = await Promise.all([
          db.send(
            new QueryCommand({
              TableName,
              ...keyCondition(keys.publishedEvents, keys.timeRange({ from: iso(WINDOW.from), to: iso(WINDOW.to) })),
              ...projection,
              Limit: PAGE_READ,
            }),
          ),
          db.send(
            new QueryCommand({
              TableName,
              ...keyCondition(
                keys.customerPrivateEvents(CUSTOMER_ID),
                keys.timeRange({ from: iso(WINDOW.from), to: iso(WINDOW.to) }),
              ),
              ProjectionExpression: 'eventId',
              Limit: PAGE_READ,
            }),
          ),
        ]);
        const linkedIds = (links.Items ?? []).map((item) => Number(item.eventId));
        await batchGet(
          linkedIds.map((id) => keys.event(id)),
          {
            ProjectionExpression: `PK, SK, ${projection.ProjectionExpression}`,
            ExpressionAttributeNames: projection.ExpressionAttributeNames,
          },
        );
        const eventIds = [...new Set([...(published.Items ?? []).map((item) => Number(item.id)), ...linkedIds])].slice(
          0,
          25,
        );
        const shardKeys = eventIds.flatMap((eventId) =>
          Array.from({ length: STATS_SHARDS }, (_, shard) => keys.eventStats(eventId, shard)),
        );
        await batchGet(shardKeys, {
          ProjectionExpression: 'PK, SK, #sold',
          ExpressionAttributeNames: { '#sold': 'sold' },
        });
      },
    };
  },
};
