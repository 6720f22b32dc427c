/**
 * `npm run bench -- --scale`: does a request cost the same in an event of 1,000 tickets as
 * in one of 100,000? Seeds both events in one table (bin/seed/scale.ts), then sends each
 * row's requests to the real handlers in-process, alternating the two events, and reports
 * per row and size: p50/p99, DynamoDB calls, items read and consumed capacity per request
 * (ReturnConsumedCapacity TOTAL, added to every command by a client middleware), and the
 * ratio p50@large / p50@small (goal ≤ 1.2). Prints a table, writes `.local/bench-scale.json`.
 * Sizes: BENCH_SCALE_SIZES (default `1000,100000`); rows: BENCH_SCALE_ROWS (names' parts, comma-separated; default all,
 * and then without the portal rows).
 */
import { type DynamoTally, emptyTally, tallyDynamoCalls } from './dynamo-tally.ts';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { lambdaContext, matchRoute, toApiGatewayEvent } from '../local/lambda-http.ts';
import { startLocalServices } from '../local/services.ts';
import { createTable } from '../local/table.ts';
import { BENCH_ENV, BENCH_SIGNING_KEY, BENCH_SIGNING_STAGE, ROOT, TABLE_NAME } from './settings.ts';
import { median, percentile } from './stats.ts';
import { label, SCALE_GOAL, type ScaleFigures, type ScaleRow, table } from './scale-figures.ts';
import type { ScaleEvent, ScaleRequest } from './scale-rows.ts';

const WARMUP = 20;
const ITERATIONS = 100;
const log = (line: string) => console.error(line);

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;
interface Sample extends DynamoTally {
  ms: number;
}
export async function runScale(): Promise<void> {
  const sizes = (process.env.BENCH_SCALE_SIZES ?? '1000,100000').split(',').map(Number);
  const services = await startLocalServices();
  try {
    Object.assign(process.env, BENCH_ENV, services.env);
    await createTable(TABLE_NAME);
    const { initLocalSigningKeys } = await import('../keys/commands.ts');
    await initLocalSigningKeys(services, BENCH_SIGNING_STAGE, async () => ({ ...BENCH_SIGNING_KEY }));
    if (process.argv.includes('--events')) return await eventsOnly();
    const portalOnly = process.argv.includes('--portal');
    const rows = portalOnly ? [] : await measure(sizes);
    // The customer portal's lists at 50 and 5,000 published events (bin/bench/scale-portal.ts), after the ticket rows;
    // not when only some ticket rows are re-measured (their 5,000 events would take longer than the rows).
    const { measurePortal, PORTAL_SIZES } = await import('./scale-portal.ts');
    const portal = portalOnly || !process.env.BENCH_SCALE_ROWS ? await measurePortal() : [];
    const out = join(ROOT, '.local', portalOnly ? 'bench-scale-portal.json' : 'bench-scale.json');
    if (rows.length) console.log(`\n${table(rows, sizes)}\n`);
    if (portal.length) console.log(`\n${table(portal, PORTAL_SIZES)}\n`);
    rows.push(...portal);
    const over = rows.filter((row) => row.ratio > SCALE_GOAL);
    console.log(
      over.length
        ? `Over ${SCALE_GOAL}x: ${over.map((row) => `${row.row} ${row.ratio.toFixed(2)}x`).join('; ')}.`
        : `Every row within ${SCALE_GOAL}x.`,
    );
    mkdirSync(join(ROOT, '.local'), { recursive: true });
    const round = (_: string, value: unknown) => (typeof value === 'number' ? Math.round(value * 1000) / 1000 : value);
    writeFileSync(
      out,
      `${JSON.stringify({ measuredAt: new Date().toISOString(), node: process.version, sizes, warmup: WARMUP, iterations: ITERATIONS, goal: SCALE_GOAL, rows }, round, 2)}\n`,
    );
    log(`Wrote ${out}.`);
  } finally {
    await services.stop();
  }
}

/** `--scale --events`: the events routes' rows alone (bin/bench/scale-events.ts), to `.local/bench-scale-events.json`. */
async function eventsOnly(): Promise<void> {
  const { measureEvents, EVENT_SIZES } = await import('./scale-events.ts');
  const rows = await measureEvents();
  console.log(`\n${table(rows, EVENT_SIZES)}\n`);
  const out = join(ROOT, '.local', 'bench-scale-events.json');
  mkdirSync(join(ROOT, '.local'), { recursive: true });
  writeFileSync(
    out,
    `${JSON.stringify({ measuredAt: new Date().toISOString(), sizes: EVENT_SIZES, rows }, null, 2)}\n`,
  );
  log(`Wrote ${out}.`);
}

async function measure(sizes: number[]): Promise<ScaleRow[]> {
  // After the environment is set: shared/ reads it when its modules load.
  const { db } = await import('#shared/data/client');
  const { issueToken } = await import('#shared/identity/services/token-issuer');
  const { epochSeconds } = await import('#shared/clock');
  const { PERMISSIONS } = await import('#shared/auth/permissions');
  const { readTicketRecords } = await import('#shared/tickets/data/ticket-records');
  const { PROCESS_STATE } = await import('#shared/tickets/domain/ticket');
  const { seedScale } = await import('../seed/scale.ts');
  const { GRANTED_GATE_ROW, GRANTING_EVENTS, ticketRows } = await import('./scale-rows.ts');

  let current: Sample = { ms: 0, ...emptyTally() };
  tallyDynamoCalls(db, () => current, 'benchScaleCounter');

  const adminToken = await issueToken({
    kind: 'admin',
    id: 1,
    login: 'bench-admin',
    permissions: [...PERMISSIONS],
    vendorUser: false,
    authTime: epochSeconds(),
  });
  const events: ScaleEvent[] = [];
  for (const size of sizes) {
    log(`Seeding ${size.toLocaleString('en')} tickets...`);
    const started = performance.now();
    let shown = 0;
    const seeded = await seedScale({
      tickets: size,
      onProgress: (written) => {
        if (written - shown >= 10_000 || written === size)
          log(
            `  ${written.toLocaleString('en')} (${Math.round(written / ((performance.now() - started) / 1000))} tickets/s)`,
          );
        if (written - shown >= 10_000) shown = written;
      },
    });
    log(`  seeded event ${seeded.eventId} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    // Open tickets for the check-ins, distinct per request; a customer with the most orders for the portal rows.
    const ids = Array.from({ length: Math.min(size, 3000) }, (_, i) => seeded.ticketIds.first + i);
    const records = [...(await readTicketRecords(ids)).values()].sort((a, b) => a.id - b.id);
    const open = records.filter((record) => record.processState === PROCESS_STATE.active).map((record) => record.id);
    const customer = seeded.customers.reduce((a, b) => (b.orders > a.orders ? b : a));
    const customerToken = await issueToken({
      kind: 'customer',
      id: customer.id,
      email: `seed-customer-${customer.id}@example.test`,
      authTime: epochSeconds(),
    });
    const scopedToken = await issueToken({
      kind: 'admin',
      id: 2,
      login: 'bench-scoped',
      permissions: [...PERMISSIONS],
      vendorUser: false,
      authTime: epochSeconds(),
      eventScope: [seeded.eventId],
    });
    const email = records[Math.floor(records.length / 2)]!.emailAddress!;
    const emailPrefix = email.slice(0, email.indexOf('@') + 1);
    events.push({
      size,
      seeded,
      open,
      customer,
      customerToken,
      scopedToken,
      emailPrefix,
      changes: { from: '', to: '' },
    });
  }

  // The sync rows read what changed after every event was seeded: the PATCH and check-in rows' changes, alike for both sizes.
  const since = new Date().toISOString();
  const send = async (request: ScaleRequest): Promise<Sample> => {
    const { API_PREFIX } = await import('#shared/api-prefix');
    const url = `${API_PREFIX}${request.url}`;
    const match = matchRoute(request.method, url.split('?')[0]!)!;
    const headers: Record<string, string> = {
      host: 'api.ticketing.bench',
      'user-agent': 'bench',
      authorization: `Bearer ${request.token}`,
    };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const event = toApiGatewayEvent(
      {
        method: request.method,
        url,
        headers,
        body: Buffer.from(request.body === undefined ? '' : JSON.stringify(request.body)),
        sourceIp: '127.0.0.1',
      },
      match,
    );
    const { handler } = (await import(new URL(`../../functions/${match.row.handler}.ts`, import.meta.url).href)) as {
      handler: Handler;
    };
    const context = lambdaContext(event, match.row);
    current = { ms: 0, ...emptyTally() };
    const start = performance.now();
    const result = await handler(event, context);
    current.ms = performance.now() - start;
    if ((result.statusCode ?? 200) >= 300)
      throw new Error(`bench --scale: ${request.method} ${request.url} answered ${result.statusCode}: ${result.body}`);
    return current;
  };

  // Before the window row: 50 changes to each event's tickets, spread over it, one event after the other, so each
  // window holds its own 50 (made then, so no earlier row's change moves a ticket out of it).
  const prepare: Record<string, () => Promise<void>> = {
    // Seeded here, not with the events: only a run that measures the row pays for them, and no earlier row sees them.
    [GRANTED_GATE_ROW]: async () => {
      const { seedGrantingEvents } = await import('../seed/scale-grants.ts');
      for (const e of events) {
        log(`    seeding ${GRANTING_EVENTS.count} more events granting event ${e.seeded.accessEventId}`);
        await seedGrantingEvents(e.seeded.accessEventId!, GRANTING_EVENTS.count, GRANTING_EVENTS.tickets);
      }
    },
    '/ticket?updatedFrom&updatedTo, 50 changes': async () => {
      for (const e of events) {
        const { first, last } = e.seeded.ticketIds;
        e.changes.from = new Date().toISOString();
        for (let k = 0; k < 50; k++)
          await send({
            method: 'PATCH',
            url: `/tickets/${first + Math.floor(((last - first) * k) / 50)}`,
            token: adminToken,
            body: { data: { partyMemberCompany: `Sync ${k}` } },
          });
        e.changes.to = new Date().toISOString();
      }
    },
  };

  // BENCH_SCALE_ROWS=a,b: only the rows whose name contains one of these (re-measuring a few rows).
  const only = process.env.BENCH_SCALE_ROWS?.split(',').filter(Boolean);
  const table = events.map((e) =>
    ticketRows(e, adminToken, since).filter(([row]) => !only || only.some((part) => row.includes(part))),
  );
  const results: ScaleRow[] = [];
  for (let r = 0; r < table[0]!.length; r++) {
    const [row, first] = table[0]![r]!;
    log(`  ${row}`);
    await prepare[row]?.();
    const samples = events.map(() => [] as Sample[]);
    const lastNames = events.map(() => '');
    for (let i = 0; i < WARMUP + ITERATIONS; i++) {
      // Alternate which size goes first, so neither always follows the other's cache effects.
      const order = i % 2 ? [...events.keys()].reverse() : [...events.keys()];
      for (const k of order) {
        const sample = await send(table[k]![r]![1](i));
        if (i >= WARMUP) samples[k]!.push(sample);
        lastNames[k] = label(sample.names);
      }
    }
    const sizesOut: Record<string, ScaleFigures> = {};
    events.forEach((e, k) => {
      const list = samples[k]!;
      const mean = (pick: (s: Sample) => number) => list.reduce((sum, s) => sum + pick(s), 0) / list.length;
      const ms = list.map((s) => s.ms);
      sizesOut[String(e.size)] = {
        p50: median(ms),
        p99: percentile(ms, 99),
        calls: mean((s) => s.calls),
        itemsRead: mean((s) => s.itemsRead),
        rcu: mean((s) => s.rcu),
        wcu: mean((s) => s.wcu),
        names: lastNames[k]!,
      };
    });
    const small = sizesOut[String(events[0]!.size)]!;
    const large = sizesOut[String(events.at(-1)!.size)]!;
    results.push({
      row,
      route: `${first(0).method} ${first(0).url.split('?')[0]!.replace(/\/\d+/g, '/{id}')}`,
      sizes: sizesOut,
      ratio: large.p50 / small.p50,
    });
  }
  return results;
}
