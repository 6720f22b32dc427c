import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { advanceClock, resetClock } from '#shared/clock';
import { createEvent } from '#shared/events/data/event-creation';
import { eventListing } from '#shared/lists/event-listing';
import type { CreatedEvent } from '#shared/events/domain/event';
import type { Order } from '#shared/selling/domain/order';
import type { Ticket } from '#shared/tickets/domain/ticket';
import { API_PREFIX } from '#shared/api-prefix';
import { placeOrder } from '../../test/support/factories/orders.ts';
import { updateTicket } from '#shared/tickets/use-cases/edit-ticket';
import { lambdaContext, matchRoute, toApiGatewayEvent } from '../local/lambda-http.ts';
import { seedTickets } from '../../test/support/factories/tickets.ts';
import { recorded } from './replay.ts';
import type { BenchRequest, Fixture, Scenario } from './scenarios.ts';

/**
 * `GET /ticket` in the shape of `scenarios` (bin/bench/scenarios.ts): the measured
 * scenario is the integrations' poll, `updatedFrom=<last sync>`, with CHANGED tickets
 * changed since out of TICKETS.
 * `measureOlderTicketFilters` then sends one request per filter and reports the
 * DynamoDB calls and the items they answered (the OpenAPI description of GET /ticket).
 */
const TICKETS = 300;
const CHANGED = 20;
/** The poll's window: a far-future hour of the one clock, so the bench's other tickets stay out of it. */
const SYNC_FROM = Date.UTC(2400, 0, 1);
const CUSTOMER_ID = 525_252;

interface ListFixture {
  event: CreatedEvent;
  tickets: Ticket[];
  order: Order;
}
let prepared: Promise<ListFixture> | undefined;

function listFixture(): Promise<ListFixture> {
  prepared ??= (async () => {
    const event = await createEvent(
      {
        title: 'Bench older list',
        timezone: 'Europe/London',
        startsAt: '2031-06-01T08:00:00Z',
        ticketTypes: [
          { name: 'Bench GA', price: 10, total: 100_000 },
          { name: 'Bench VIP', price: 25, total: 100_000 },
        ],
        waveTimes: [{ name: 'Bench wave', startTime: '2031-06-01T08:00:00Z', capacity: 1000 }],
      },
      eventListing,
    );
    const tickets = await seedTickets(event, event.ticketTypes[0]!.id, TICKETS);
    const order = await placeOrder(
      event,
      CUSTOMER_ID,
      event.ticketTypes.map((type) => type.id),
      { emailAddress: 'bench-older@ticketing.bench' },
    );
    // CHANGED tickets changed one second apart in the window (the clock moved, then put back).
    try {
      for (let n = 0; n < CHANGED; n++) {
        resetClock();
        advanceClock(SYNC_FROM + (n + 1) * 1000 - Date.now());
        await updateTicket(tickets[n * 7]!.id, { partyMember: `Synced ${n}` }, { kind: 'system' });
      }
    } finally {
      resetClock();
    }
    return { event, tickets, order };
  })();
  return prepared;
}

const syncFrom = new Date(SYNC_FROM).toISOString();

export const olderTicketScenarios: Record<string, Scenario> = {
  // The poll: the update shards' Queries at once, each `Limit`ed, reading only what changed.
  'ticket/list': async () => {
    await listFixture();
    return {
      request: (): BenchRequest => ({ method: 'GET', url: `/ticket?updatedFrom=${syncFrom}` }),
    };
  },
};

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** One request per filter through the handler: its DynamoDB calls and the items they answered, one line each. */
export async function measureOlderTicketFilters(fixture: Fixture, log: (line: string) => void): Promise<void> {
  const { event, tickets, order } = await listFixture();
  const type = event.ticketTypes[0]!.id;
  const requests: [string, string][] = [
    ['barcode', `barcode=${tickets[5]!.barcode}`],
    ['orderId', `orderId=${order.id}`],
    ['customerId', `customerId=${CUSTOMER_ID}`],
    [`updatedFrom (poll, ${CHANGED} changed)`, `updatedFrom=${syncFrom}`],
    ['updatedFrom, _limit=5', `updatedFrom=${syncFrom}&_limit=5`],
    ['eventId (alone, page 1)', `eventId=${event.id}`],
    ['eventId + purchasedFrom', `eventId=${event.id}&purchasedFrom=2000-01-01`],
    ['typeId', `typeId=${type}`],
    ['eventId + search', `eventId=${event.id}&search=synced`],
    [
      'orderId + all 7 expansions',
      `orderId=${order.id}&_include=costs,refundProtect,change,promoter,waveTime,waivers,user`,
    ],
  ];
  const { handler } = (await import(new URL('../../functions/ticket/list.ts', import.meta.url).href)) as {
    handler: Handler;
  };
  for (const [name, query] of requests) {
    const url = `${API_PREFIX}/ticket?${query}`;
    const match = matchRoute('GET', url.split('?')[0]!)!;
    const headers = { host: 'api.ticketing.bench', 'user-agent': 'bench', authorization: `Bearer ${fixture.token}` };
    const event = toApiGatewayEvent(
      { method: 'GET', url, headers, body: Buffer.alloc(0), sourceIp: '127.0.0.1' },
      match,
    );
    const { result, commands } = await recorded(() => handler(event, lambdaContext(event, match.row)));
    const calls = commands.map((command) => command.name);
    const items = commands.reduce((sum, command) => sum + command.items, 0);
    if ((result.statusCode ?? 200) >= 300)
      throw new Error(`bench: GET /ticket?${query} answered ${result.statusCode}: ${result.body}`);
    const counts = new Map<string, number>();
    for (const call of calls) counts.set(call, (counts.get(call) ?? 0) + 1);
    const label = [...counts].map(([call, n]) => (n > 1 ? `${call}×${n}` : call)).join('+');
    log(
      `    GET /ticket ${name}: ${calls.length} calls (${label}), ${items} items read, ${JSON.parse(result.body ?? '{}').count} answered`,
    );
  }
}
