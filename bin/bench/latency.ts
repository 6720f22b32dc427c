import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { RouteRow } from '#shared/routes';
import { API_PREFIX } from '#shared/api-prefix';
import { lambdaContext, matchRoute, toApiGatewayEvent } from '../local/lambda-http.ts';
import { installRecorder, recorded, replay, type Recording } from './replay.ts';
import { customerScenarios } from './scenarios-customers.ts';
import { orderScenarios } from './scenarios-orders.ts';
import { measureOlderTicketFilters, olderTicketScenarios } from './scenarios-older-tickets.ts';
import { scenarios as adminScenarios, seed, type BenchRequest, type Fixture } from './scenarios.ts';
import type { BenchRuns } from './settings.ts';
import { median, percentile } from './stats.ts';

/**
 * In-process handler latency against DynamoDB Local, next to the route's floor: the very
 * commands the handler sent, recorded and replayed bare on a twin table (replay.ts).
 * Imported only after bench.ts has put the stand-ins' endpoints and the config in
 * process.env: `shared/` reads both when its modules load.
 */
export interface LatencyResult {
  medianMs: number;
  p95Ms: number;
  /** The replays' (the floor's) figures. */
  rawMedianMs: number;
  rawP95Ms: number;
  /** e.g. `BatchGetItem+TransactWriteItems`, from the handler's requests. */
  calls: string;
  callsPerRequest: number;
}

const scenarios = { ...adminScenarios, ...customerScenarios, ...orderScenarios, ...olderTicketScenarios };

/** The handlers with a latency scenario (`--only` picks among them). */
export const scenarioNames = Object.keys(scenarios);

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

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

async function measureRoute(
  row: RouteRow,
  fixture: Fixture,
  { warmup, iterations }: BenchRuns,
): Promise<LatencyResult> {
  const { handler } = (await import(new URL(`../../functions/${row.handler}.ts`, import.meta.url).href)) as {
    handler: Handler;
  };
  const runs = warmup + iterations;
  const { request, beforePair } = await scenarios[row.handler]!(fixture, runs);

  const handlerMs: number[] = [];
  const rawMs: number[] = [];
  let handlerCalls: string[] = [];
  const viaHandler = async (i: number): Promise<Recording> => {
    // Building the event is API Gateway's work, so it stays outside the timed section.
    const { event, row: matched } = toEvent(request(i), fixture.token);
    const context = lambdaContext(event, matched);
    const { result, commands } = await recorded(async () => {
      const start = performance.now();
      const answer = await handler(event, context);
      return { answer, ms: performance.now() - start };
    });
    // A fast 4xx would flatter the figures: every measured request must succeed.
    if ((result.answer.statusCode ?? 200) >= 300) {
      throw new Error(`bench: ${row.method} ${row.path} answered ${result.answer.statusCode}: ${result.answer.body}`);
    }
    if (i >= warmup) handlerMs.push(result.ms);
    handlerCalls = commands.filter((command) => command.service === 'dynamodb').map((command) => command.name);
    return commands;
  };
  const viaReplay = async (i: number, commands: Recording) => {
    const { run, check } = replay(commands);
    const ms = await run();
    check();
    if (i >= warmup) rawMs.push(ms);
  };

  // Two requests, then their two replays (in order: the twin must see the table's writes
  // in the table's order), so each side follows itself and the other alike.
  for (let i = 0; i < runs; i += 2) {
    const pair = [i, i + 1].filter((k) => k < runs);
    await beforePair?.(i);
    const recordings: Recording[] = [];
    for (const k of pair) recordings.push(await viaHandler(k));
    for (const [n, k] of pair.entries()) await viaReplay(k, recordings[n]!);
  }

  return {
    medianMs: median(handlerMs),
    p95Ms: percentile(handlerMs, 95),
    rawMedianMs: median(rawMs),
    rawP95Ms: percentile(rawMs, 95),
    calls: label(handlerCalls),
    callsPerRequest: handlerCalls.length,
  };
}

/** Measures every row that touches the table and has a scenario; the others are left out of the map. */
export async function measureLatency(
  rows: readonly RouteRow[],
  runs: BenchRuns,
  log: (line: string) => void,
): Promise<Map<string, LatencyResult>> {
  installRecorder();
  const fixture = await seed();
  const results = new Map<string, LatencyResult>();
  for (const row of rows) {
    if (!row.uses.table || !scenarios[row.handler]) continue;
    log(`  ${row.method} ${row.path}`);
    results.set(row.handler, await measureRoute(row, fixture, runs));
    // The older list has one row but ten filters: each one's calls and items read, logged.
    if (row.handler === 'ticket/list') await measureOlderTicketFilters(fixture, log);
  }
  return results;
}
