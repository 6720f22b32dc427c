/**
 * `npm run load:onsale [-- --buyers 10000 --tickets 2000 --seconds 10 --networks 250 --concurrency 16
 * --seed 58 --max-minutes 10 --gate <2 × buyers, at most 4000>]`: the on-sale rush against the stack `npm start` runs
 * (`.local/stack.json`: the API and the Stripe stand-in, 127.0.0.1). Makes and publishes an event of
 * `--tickets` tickets in two types (three quarters and a quarter, 1-minute reservations), writes `--buyers`
 * accounts, then lets them arrive within `--seconds` (onsale-core.ts), waits for the lapse job and checks the
 * end state from the API's answers (onsale-verify.ts). Beside the rush, `--concurrency` gate clients check in
 * another event's `--gate` tickets through the same API (onsale-gate.ts; `--gate 0`: none): reservations and
 * check-ins a second over the same window. Prints reservations and checkouts a second, p50/p99,
 * writes `.local/onsale.json`, and exits 1 when a check fails (never for latency).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { STACK_FILE, useRunningStack } from '../local/running-stack.ts';

const { values } = parseArgs({
  options: {
    buyers: { type: 'string', default: '10000' },
    tickets: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '10' },
    networks: { type: 'string', default: '250' },
    concurrency: { type: 'string', default: '16' },
    seed: { type: 'string', default: '58' },
    'max-minutes': { type: 'string', default: '10' },
    gate: { type: 'string' },
  },
});
const bounds = {
  buyers: [1, 50_000],
  tickets: [4, 20_000],
  seconds: [1, 600],
  networks: [1, 5_000],
  concurrency: [1, 1_000],
  seed: [0, 2 ** 31 - 1],
  'max-minutes': [1, 60],
  gate: [0, 50_000],
} as const;
// The gate side's tickets, unless named: twice the buyers, at most 4,000 (written at about 27 a second against `npm
// start`, so a brief run stays brief and a full one keeps its gate busy through the rush).
values.gate ??= String(Math.min(4_000, 2 * Number(values.buyers)));
const numbers = {} as Record<keyof typeof bounds, number>;
for (const [name, [low, high]] of Object.entries(bounds) as [keyof typeof bounds, readonly [number, number]][]) {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < low || value > high) {
    console.error(`--${name} must be a whole number from ${low} to ${high} (got ${JSON.stringify(values[name])}).`);
    process.exit(2);
  }
  numbers[name] = value;
}

const log = (line: string) => console.error(line);
useRunningStack();
const stack = JSON.parse(readFileSync(STACK_FILE, 'utf8')) as {
  apiUrl: string;
  payments?: { baseUrl: string; webhookUrl: string; publishableKey: string };
};
if (!stack.payments) {
  console.error(`${STACK_FILE} names no Stripe stand-in (payments): restart npm start.`);
  process.exit(2);
}
const target = { apiUrl: stack.apiUrl, payments: stack.payments };
const { prepareOnSale } = await import('./onsale-setup.ts');
const { verifyOnSale } = await import('./onsale-verify.ts');
const { summarise } = await import('./onsale-summary.ts');
const { closeAgents } = await import('./onsale-http.ts');
const { prepareGateSide, runOnSaleBesideGate, sameWindow, verifyGateSide } = await import('./onsale-gate.ts');

const options = {
  buyers: numbers.buyers,
  tickets: numbers.tickets,
  seconds: numbers.seconds,
  networks: numbers.networks,
  concurrency: numbers.concurrency,
  seed: numbers.seed,
  maxMs: numbers['max-minutes'] * 60_000,
};
let exitCode = 1;
try {
  // The gate's tickets first: the stream's consumers of `npm start` list them while the buyers' accounts are written.
  if (numbers.gate)
    log(`Preparing the gate side: an event of ${numbers.gate} issued tickets, ${options.concurrency} gate clients...`);
  const gate = numbers.gate ? await prepareGateSide(options.concurrency, numbers.gate, log) : undefined;
  log(`Preparing against ${target.apiUrl}: an event of ${options.tickets} tickets, ${options.buyers} buyers...`);
  const prepared = await prepareOnSale(target, options, log);
  log(
    `Rush: ${options.buyers} buyers within ${options.seconds} s from ${options.networks} networks, ${options.concurrency} requests in flight at most${gate ? `; beside it ${gate.scanners} scanners and ${gate.rescanners} re-scanners at the gate of event ${gate.prepared.eventId}` : ''}`,
  );
  const { result, gate: gateRun } = await runOnSaleBesideGate(target, prepared, options, gate, log);
  log('Waiting for the lapse job and Stripe’s deliveries, then checking the API’s answers...');
  const failures = [
    ...(gateRun ? await verifyGateSide(target, gateRun) : []),
    ...(await verifyOnSale(target, prepared, result, log)),
  ];
  const summary = summarise(result);
  const window = gateRun ? sameWindow(result, gateRun) : undefined;
  console.log(
    [
      `On-sale rush, event ${prepared.eventId}: ${options.buyers} buyers for ${options.tickets} tickets within ${options.seconds} s; ${(result.elapsedMs / 1000).toFixed(1)} s in all`,
      ...summary.lines,
      ...(window?.lines ?? ['  no gate rush beside it (--gate 0)']),
      failures.length
        ? `CHECKS FAILED:\n${failures.map((line) => `  - ${line}`).join('\n')}`
        : `  checks hold: 0 oversold, sold = active tickets = soldTickets, nothing held, every succeeded payment one paid order or one refund, no duplicate, no 5xx, refusals only 409 and 429 with Retry-After${gateRun ? '; the gate rush: counters exact, no double admission, every re-scan refused already_checked_in' : ''}`,
    ].join('\n'),
  );
  mkdirSync('.local', { recursive: true });
  const out = join('.local', 'onsale.json');
  writeFileSync(
    out,
    `${JSON.stringify({ measuredAt: new Date().toISOString(), node: process.version, options, ...summary.figures, sameWindow: window?.figures ?? null, outcomes: result.outcomes, failures }, null, 2)}\n`,
  );
  log(`Wrote ${out}.`);
  exitCode = failures.length ? 1 : 0;
} catch (error) {
  console.error(error);
} finally {
  closeAgents();
}
process.exit(exitCode);
