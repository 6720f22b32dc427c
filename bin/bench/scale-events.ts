/**
 * `npm run bench -- --scale --events`: the events routes at 10, 1,000 and 10,000 events on the
 * platform (BENCH_EVENT_SIZES), in one table, measured at the small size, then again once the rest are seeded:
 * `GET /events` by default and with its filters (published in a start window, a title), `GET /events/{id}` of an event
 * of 50 ticket types, `PATCH /events/{id}`, `POST /events/{id}/ticket-types` and the parts' POST, PATCH and DELETE
 * (scale-event-parts.ts). The same figures as the other scale rows (scale.ts): p50/p99, DynamoDB calls, items read,
 * RCU per request. The platform's events are the portal rows' (bin/seed/events.ts: created and published through the
 * routes' use cases, batched); the measured ones are made by the events use case, as `POST /events` would.
 * Each size edits events of its own: the PATCH alternates a venue, the POSTs add types (or parts) one by one to an
 * event made without any (so every size walks the same 0 → 44, and compares the same reads).
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { lambdaContext, matchRoute, toApiGatewayEvent } from '../local/lambda-http.ts';
import { type DynamoTally, emptyTally, tallyDynamoCalls } from './dynamo-tally.ts';
import type { RunRow, ScaleFigures, ScaleRow } from './scale-figures.ts';
import { median, percentile } from './stats.ts';

const WARMUP = 4;
const ITERATIONS = 40;
const log = (line: string) => console.error(line);
type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;
type Sample = DynamoTally & { ms: number };

export const EVENT_SIZES = (process.env.BENCH_EVENT_SIZES ?? '10,1000,10000').split(',').map(Number);

export async function measureEvents(): Promise<ScaleRow[]> {
  const { db } = await import('#shared/data/client');
  const { issueToken } = await import('#shared/identity/services/token-issuer');
  const { epochSeconds } = await import('#shared/clock');
  const { API_PREFIX } = await import('#shared/api-prefix');
  const { PERMISSIONS } = await import('#shared/auth/permissions');
  const { seedPublishedEvents } = await import('../seed/events.ts');
  const { createEventFor } = await import('#shared/events/use-cases/create-event');
  const { createTicketTypeFor } = await import('#shared/events/use-cases/ticket-types');
  const { measureEventParts } = await import('./scale-event-parts.ts');

  let current: Sample = { ms: 0, ...emptyTally() };
  tallyDynamoCalls(db, () => current, 'benchEventsCounter');
  const admin = { id: 1, eventScope: undefined };
  const token = await issueToken({
    kind: 'admin',
    id: admin.id,
    login: 'bench-admin',
    permissions: [...PERMISSIONS],
    vendorUser: false,
    authTime: epochSeconds(),
  });
  let answer: unknown;
  const send = async (method: string, url: string, body?: unknown): Promise<Sample> => {
    const path = `${API_PREFIX}${url}`;
    const match = matchRoute(method, path.split('?')[0]!)!;
    const event = toApiGatewayEvent(
      {
        method,
        url: path,
        headers: {
          host: 'api.ticketing.bench',
          'user-agent': 'bench',
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: Buffer.from(body === undefined ? '' : JSON.stringify(body)),
        sourceIp: '127.0.0.1',
      },
      match,
    );
    const { handler } = (await import(new URL(`../../functions/${match.row.handler}.ts`, import.meta.url).href)) as {
      handler: Handler;
    };
    current = { ms: 0, ...emptyTally() };
    const start = performance.now();
    const result = await handler(event, lambdaContext(event, match.row));
    current.ms = performance.now() - start;
    if ((result.statusCode ?? 200) >= 300)
      throw new Error(`bench events: ${method} ${url} answered ${result.statusCode}: ${result.body}`);
    answer = result.body ? JSON.parse(result.body) : undefined;
    return current;
  };

  const figures = new Map<string, { route: string; sizes: Record<string, ScaleFigures> }>();
  const run: RunRow = async (row, route, size, request, answered) => {
    const samples: Sample[] = [];
    for (let i = 0; i < WARMUP + ITERATIONS; i++) {
      const sample = await send(...request(i));
      answered?.(answer);
      if (i >= WARMUP) samples.push(sample);
    }
    const mean = (pick: (s: Sample) => number) => samples.reduce((sum, s) => sum + pick(s), 0) / samples.length;
    const names = new Map<string, number>();
    for (const name of samples.at(-1)!.names) names.set(name, (names.get(name) ?? 0) + 1);
    const ms = samples.map((s) => s.ms);
    figures.set(row, {
      route,
      sizes: {
        ...figures.get(row)?.sizes,
        [String(size)]: {
          p50: median(ms),
          p99: percentile(ms, 99),
          calls: mean((s) => s.calls),
          itemsRead: mean((s) => s.itemsRead),
          rcu: mean((s) => s.rcu),
          wcu: mean((s) => s.wcu),
          names: [...names].map(([name, n]) => (n > 1 ? `${name}×${n}` : name)).join('+'),
        },
      },
    });
  };

  const now = Date.now();
  const from = new Date(now).toISOString();
  const to = new Date(now + 365 * 86_400_000).toISOString();
  let seeded = 0;
  for (const size of EVENT_SIZES) {
    if (size > seeded) {
      log(`  seeding ${(size - seeded).toLocaleString('en')} events...`);
      seeded += (await seedPublishedEvents(size - seeded, (done) => log(`    ${done.toLocaleString('en')} seeded`)))
        .events;
    }
    // One creation holds 43 types with their stock: the rest of an event of 50 are added one by one.
    const fresh = async (types: number) => {
      const typeBody = (t: number) => ({
        name: `Type ${t + 1}`,
        price: 10 + t,
        total: 100,
        description: '',
        grants: [],
      });
      const made = await createEventFor(admin, {
        title: `Bench ${size} ${types} types`,
        start: new Date(now + 30 * 86_400_000).toISOString(),
        timezone: 'Europe/Berlin',
        currency: 'EUR',
        ticketTypes: Array.from({ length: Math.min(types, 40) }, (_, t) => typeBody(t)),
      } as Parameters<typeof createEventFor>[1]);
      for (let t = 40; t < types; t++) await createTicketTypeFor(admin, made.id, typeBody(t));
      return made;
    };
    const [wide, edited, growing, parted] = [await fresh(50), await fresh(1), await fresh(0), await fresh(0)];
    log(`  events rows at ${size.toLocaleString('en')} events`);
    // Pages of 3: 10 events fill them as 10,000 do, so the rows compare the reads of a page, not pages of other sizes.
    await run('events default (pages of 3)', 'GET /events', size, () => ['GET', '/events?_limit=3']);
    await run('events published, start window (pages of 3)', 'GET /events', size, () => [
      'GET',
      `/events?published=true&fromStart=${from}&toStart=${to}&_limit=3`,
    ]);
    await run('events published title=Berlin% (page of 1)', 'GET /events', size, () => [
      'GET',
      `/events?published=true&title=${encodeURIComponent('Berlin%')}&_limit=1`,
    ]);
    await run('events/{id} of 50 types', 'GET /events/{id}', size, () => ['GET', `/events/${wide.id}`]);
    await run('PATCH events/{id} venue', 'PATCH /events/{id}', size, (i) => [
      'PATCH',
      `/events/${edited.id}`,
      { venue: `Venue ${i % 2}` },
    ]);
    await run('POST events/{id}/ticket-types (0 → 44 types)', 'POST /events/{id}/ticket-types', size, (i) => [
      'POST',
      `/events/${growing.id}/ticket-types`,
      { name: `Added ${i}`, price: 12, total: 50 },
    ]);
    await measureEventParts(run, size, parted.id, from);
  }
  const [small, large] = [String(EVENT_SIZES[0]), String(EVENT_SIZES.at(-1))];
  return [...figures].map(([row, { route, sizes }]) => ({
    row,
    route,
    sizes,
    ratio: sizes[large]!.p50 / sizes[small]!.p50,
  }));
}
