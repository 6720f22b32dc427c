/**
 * `npm run bench -- --scale` (its portal rows; `-- --scale --portal` runs only these): the
 * customer portal's lists at 50 and at 5,000 published events, in one table (the published
 * index is one per table), measured at 50, then again once 4,950 more events are seeded: the
 * event list's default query, a title wildcard, a search, a deep page by `next`; and
 * `GET /my-account/orders` of a customer with 2,000 orders against one with 50, alternating.
 * Same figures as the ticket rows (scale.ts): p50/p99, DynamoDB calls, items read, RCU.
 */
import { type DynamoTally, emptyTally, tallyDynamoCalls } from './dynamo-tally.ts';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { lambdaContext, matchRoute, toApiGatewayEvent } from '../local/lambda-http.ts';
import { median, percentile } from './stats.ts';
import type { ScaleFigures, ScaleRow } from './scale-figures.ts';

const WARMUP = 10;
const ITERATIONS = 60;
const log = (line: string) => console.error(line);
type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;
interface Sample extends DynamoTally {
  ms: number;
  body: Record<string, unknown>;
}

export const PORTAL_SIZES = [50, 5000];

export async function measurePortal(): Promise<ScaleRow[]> {
  const { db } = await import('#shared/data/client');
  const { issueToken } = await import('#shared/identity/services/token-issuer');
  const { epochSeconds } = await import('#shared/clock');
  const { API_PREFIX } = await import('#shared/api-prefix');
  const { seedPublishedEvents } = await import('../seed/events.ts');
  const { allocateIds } = await import('#shared/data/counters');
  const { commitNewOrder } = await import('#shared/selling/data/orders');
  const { newOrder } = await import('#shared/selling/domain/order');
  const { getEvent, listTicketTypes } = await import('#shared/events/data/events');

  let current: Sample = { ms: 0, ...emptyTally(), body: {} };
  tallyDynamoCalls(db, () => current, 'benchPortalCounter');
  const send = async (url: string, token: string): Promise<Sample> => {
    const path = `${API_PREFIX}${url}`;
    const match = matchRoute('GET', path.split('?')[0]!)!;
    const event = toApiGatewayEvent(
      {
        method: 'GET',
        url: path,
        headers: { host: 'api.ticketing.bench', 'user-agent': 'bench', authorization: `Bearer ${token}` },
        body: Buffer.from(''),
        sourceIp: '127.0.0.1',
      },
      match,
    );
    const { handler } = (await import(new URL(`../../functions/${match.row.handler}.ts`, import.meta.url).href)) as {
      handler: Handler;
    };
    current = { ms: 0, ...emptyTally(), body: {} };
    const start = performance.now();
    const result = await handler(event, lambdaContext(event, match.row));
    current.ms = performance.now() - start;
    if ((result.statusCode ?? 200) >= 300)
      throw new Error(`bench portal: ${url} answered ${result.statusCode}: ${result.body}`);
    current.body = JSON.parse(String(result.body));
    return current;
  };
  const customerToken = (id: number) =>
    issueToken({ kind: 'customer', id, email: `bench-${id}@example.test`, authTime: epochSeconds() });

  // Two customers: 2,000 orders and 50, over two seeded events.
  const [big, small] = [9_100_001, 9_100_002];
  const tokens = {
    big: await customerToken(big),
    small: await customerToken(small),
    any: await customerToken(9_100_003),
  };
  let seeded = await seedPublishedEvents(PORTAL_SIZES[0]!);
  const orderEvents = [await getEvent(seeded.first), await getEvent(seeded.last)];
  const typeOf = new Map(
    await Promise.all(orderEvents.map(async (e) => [e.id, (await listTicketTypes(e.id))[0]!.id] as const)),
  );
  for (const [customerId, count] of [
    [big, 2000],
    [small, 50],
  ] as const) {
    const first = await allocateIds('ORDER', count);
    for (let start = 0; start < count; start += 50)
      await Promise.all(
        Array.from({ length: Math.min(50, count - start) }, (_, i) => {
          const n = start + i;
          const event = orderEvents[n % 2]!;
          const at = new Date(Date.UTC(2026, 0, 1) + n * 3_600_000).toISOString();
          return commitNewOrder(
            newOrder({
              id: first + n,
              customerId,
              eventId: event.id,
              at,
              status: 'active',
              emailAddress: `bench-${customerId}@example.test`,
              purchaser: 'Bench Buyer',
              lines: [{ typeId: typeOf.get(event.id)! }],
              grandTotal: 25,
              transactions: [],
            }),
            event,
          );
        }),
      );
  }

  const eventRows = (): [string, () => string][] => [
    ['my-account/event default', () => '/my-account/event'],
    // Pages of 3 at both sizes: at 50 events only 4 titles start with Berlin (one city of 16), so a default page of 25
    // would compare a page of 4 with one of 25 (each match costs its 10 statistics shards), not the filter's read.
    [
      'my-account/event title=Berlin% (pages of 3)',
      () => `/my-account/event?title=${encodeURIComponent('Berlin%')}&_limit=3`,
    ],
    ['my-account/event search=marathon', () => '/my-account/event?search=marathon'],
  ];
  const figures = new Map<string, Record<string, ScaleFigures>>();
  const record = (row: string, size: number, samples: Sample[]) => {
    const mean = (pick: (s: Sample) => number) => samples.reduce((sum, s) => sum + pick(s), 0) / samples.length;
    const names = new Map<string, number>();
    for (const name of samples.at(-1)!.names) names.set(name, (names.get(name) ?? 0) + 1);
    figures.set(row, {
      ...figures.get(row),
      [String(size)]: {
        p50: median(samples.map((s) => s.ms)),
        p99: percentile(
          samples.map((s) => s.ms),
          99,
        ),
        calls: mean((s) => s.calls),
        itemsRead: mean((s) => s.itemsRead),
        rcu: mean((s) => s.rcu),
        wcu: 0,
        names: [...names].map(([name, n]) => (n > 1 ? `${name}×${n}` : name)).join('+'),
      },
    });
  };
  const run = async (row: string, size: number, url: () => Promise<string> | string, token: string) => {
    const samples: Sample[] = [];
    for (let i = 0; i < WARMUP + ITERATIONS; i++) {
      const sample = await send(await url(), token);
      if (i >= WARMUP) samples.push(sample);
    }
    record(row, size, samples);
  };
  // A deep page: the default list walked by `next` to its 40th page of 25 (the 1,000th event), then that page.
  const deepCursor = async () => {
    let next: unknown = null;
    for (let page = 0; page < 40; page++) {
      const body = (
        await send(`/my-account/event${next ? `?_cursor=${encodeURIComponent(String(next))}` : ''}`, tokens.any)
      ).body;
      if (!body.next) break;
      next = body.next;
    }
    return `/my-account/event?_cursor=${encodeURIComponent(String(next))}`;
  };
  for (const size of PORTAL_SIZES) {
    if (size > seeded.events) {
      log(`  seeding ${(size - seeded.events).toLocaleString('en')} more published events...`);
      const more = await seedPublishedEvents(size - seeded.events);
      seeded = { ...seeded, events: seeded.events + more.events };
    }
    log(`  portal rows at ${size} published events`);
    for (const [row, url] of eventRows()) await run(row, size, url, tokens.any);
    const deep = await deepCursor();
    await run('my-account/event deep page by next', size, () => deep, tokens.any);
  }
  // Orders: the customer with 2,000 against the one with 50, the same rows, alternating.
  log('  portal orders rows (50 and 2,000 orders)');
  const orderRows: [string, string][] = [
    ['my-account/orders default (50 vs 2,000 orders)', '/my-account/orders'],
    ['my-account/orders includeTickets, event', `/my-account/orders?includeTickets=true&event=${orderEvents[0]!.id}`],
  ];
  for (const [row, url] of orderRows) {
    const samples = { big: [] as Sample[], small: [] as Sample[] };
    for (let i = 0; i < WARMUP + ITERATIONS; i++)
      for (const who of i % 2 ? (['big', 'small'] as const) : (['small', 'big'] as const)) {
        const sample = await send(url, tokens[who]);
        if (i >= WARMUP) samples[who].push(sample);
      }
    record(row, PORTAL_SIZES[0]!, samples.small);
    record(row, PORTAL_SIZES[1]!, samples.big);
  }
  return [...figures].map(([row, sizes]) => ({
    row,
    route: row.startsWith('my-account/orders') ? 'GET /my-account/orders' : 'GET /my-account/event',
    sizes,
    ratio: sizes[String(PORTAL_SIZES[1])]!.p50 / sizes[String(PORTAL_SIZES[0])]!.p50,
  }));
}
