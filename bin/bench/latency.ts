import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { db } from '#shared/data/client';
import type { RouteRow } from '#shared/routes';
import { API_PREFIX } from '#shared/api-prefix';
import { lambdaContext, matchRoute, toApiGatewayEvent } from '../local/lambda-http.ts';
import { customerScenarios } from './scenarios-customers.ts';
import { orderScenarios } from './scenarios-orders.ts';
import { measureOlderTicketFilters, olderTicketScenarios } from './scenarios-older-tickets.ts';
import { scenarios as adminScenarios, seed, type BenchRequest, type Fixture } from './scenarios.ts';
import { ITERATIONS, WARMUP } from './settings.ts';
import { median, percentile } from './stats.ts';

/**
 * In-process handler latency against DynamoDB Local, next to the same commands sent raw.
 * Imported only after bench.ts has put the stand-ins' endpoints and the config in
 * process.env: `shared/` reads both when its modules load.
 */
export interface LatencyResult {
  medianMs: number;
  p95Ms: number;
  rawMedianMs: number;
  rawP95Ms: number;
  /** e.g. `BatchGetItem+TransactWriteItems`, from the handler's requests. */
  calls: string;
  callsPerRequest: number;
  /** The raw side's sequence, when it differs from the handler's (a scenario bug). */
  rawCalls?: string;
}

const scenarios = { ...adminScenarios, ...customerScenarios, ...orderScenarios, ...olderTicketScenarios };

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

// Every command any code sends on the shared client, in order; read and cleared per request.
// `initialize` is the first step, so a command counts even if it fails or is retried later.
let sent: string[] = [];
db.middlewareStack.add(
  (next, context) => (args) => {
    sent.push((context.commandName ?? '?').replace(/Command$/, ''));
    return next(args);
  },
  { step: 'initialize', name: 'benchCallCounter' },
);

/** `Query+GetItem`, with repeats folded: `UpdateItem×10`. */
function label(names: string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].map(([name, n]) => (n > 1 ? `${name}×${n}` : name)).join('+') || 'none';
}

function toEvent(request: BenchRequest, token: string): { event: APIGatewayProxyEventV2; row: RouteRow } {
  const url = `${API_PREFIX}${request.url}`;
  const match = matchRoute(request.method, url.split('?')[0]!);
  if (!match) throw new Error(`bench: no route for ${request.method} ${url}`);
  const headers: Record<string, string> = { host: 'api.ticketing.bench', 'user-agent': 'bench' };
  if (!request.anonymous) headers.authorization = `Bearer ${request.token ?? token}`;
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  const body = Buffer.from(request.body === undefined ? '' : JSON.stringify(request.body));
  return {
    event: toApiGatewayEvent({ method: request.method, url, headers, body, sourceIp: '127.0.0.1' }, match),
    row: match.row,
  };
}

/** Times one call; returns ms and the DynamoDB commands it sent. */
async function timed(work: () => Promise<unknown>): Promise<{ ms: number; calls: string[] }> {
  sent = [];
  const start = performance.now();
  await work();
  const ms = performance.now() - start;
  return { ms, calls: sent };
}

async function measureRoute(row: RouteRow, fixture: Fixture): Promise<LatencyResult> {
  const { handler } = (await import(new URL(`../../functions/${row.handler}.ts`, import.meta.url).href)) as {
    handler: Handler;
  };
  const runs = WARMUP + ITERATIONS;
  const { request, raw } = await scenarios[row.handler]!(fixture, runs);

  const handlerMs: number[] = [];
  const rawMs: number[] = [];
  let handlerCalls: string[] = [];
  let rawCalls: string[] = [];
  const viaHandler = async (i: number) => {
    // Building the event is API Gateway's work, so it stays outside the timed section.
    const { event, row: matched } = toEvent(request(i), fixture.token);
    const context = lambdaContext(event, matched);
    let result: APIGatewayProxyStructuredResultV2 | undefined;
    const sample = await timed(async () => (result = await handler(event, context)));
    // A fast 4xx would flatter the figures: every measured request must succeed.
    if (!result || (result.statusCode ?? 200) >= 300) {
      throw new Error(`bench: ${row.method} ${row.path} answered ${result?.statusCode}: ${result?.body}`);
    }
    if (i >= WARMUP) handlerMs.push(sample.ms);
    handlerCalls = sample.calls;
  };
  const viaRaw = async (i: number) => {
    const sample = await timed(() => raw(i));
    if (i >= WARMUP) rawMs.push(sample.ms);
    rawCalls = sample.calls;
  };

  // Alternate which side goes first, so neither always follows the other's cache effects.
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      await viaHandler(i);
      await viaRaw(i);
    } else {
      await viaRaw(i);
      await viaHandler(i);
    }
  }

  const calls = label(handlerCalls);
  return {
    medianMs: median(handlerMs),
    p95Ms: percentile(handlerMs, 95),
    rawMedianMs: median(rawMs),
    rawP95Ms: percentile(rawMs, 95),
    calls,
    callsPerRequest: handlerCalls.length,
    ...(label(rawCalls) !== calls ? { rawCalls: label(rawCalls) } : {}),
  };
}

/** Measures every row that touches the table and has a scenario; the others are left out of the map. */
export async function measureLatency(
  rows: readonly RouteRow[],
  log: (line: string) => void,
): Promise<Map<string, LatencyResult>> {
  const fixture = await seed();
  const results = new Map<string, LatencyResult>();
  for (const row of rows) {
    if (!row.uses.table || !scenarios[row.handler]) continue;
    log(`  ${row.method} ${row.path}`);
    results.set(row.handler, await measureRoute(row, fixture));
    // The older list has one row but ten filters: each one's calls and items read, logged.
    if (row.handler === 'ticket/list') await measureOlderTicketFilters(fixture, log);
  }
  return results;
}
