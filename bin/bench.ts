/**
 * `npm run bench`: what each route costs over the floor of the fixed stack. Per row of the
 * route table: bundle size and cold module init (CPU time) against its floor (a
 * DocumentClient, middy, a zod parse and a jose verify, plus one command of each other
 * service the row uses: bin/bench/bundle.ts), and in-process handler latency against the
 * the very DynamoDB commands it sent, replayed raw (on DynamoDB Local: bin/bench/replay.ts). Prints a table, writes `.local/bench.json`.
 * A measurement, not a test: it exits 0 whatever the figures (non-zero only if it breaks).
 * `--help` lists the flags (which routes, how many runs; `--scale`, `--hostile`, `--heat`).
 *
 * Order matters: bundles and init timings come first, before Java starts, so DynamoDB
 * Local's JIT and GC do not steal CPU from the timed child processes (2 cores).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { routes } from '#shared/routes';
import { bundleAll } from './bench/bundle.ts';
import { measureInit } from './bench/init.ts';
import { DEFAULT_TARGET } from './bench/heat-figures.ts';
import { figures, summary, table, TARGETS, type BenchResults } from './bench/report.ts';
import {
  BENCH_ENV,
  BENCH_SIGNING_KEY,
  BENCH_SIGNING_STAGE,
  DEFAULT_RUNS,
  ROOT,
  TABLE_NAME,
  TWIN_TABLE_NAME,
  type BenchRuns,
} from './bench/settings.ts';
import { startLocalServices } from './local/services.ts';
import { createTable } from './local/table.ts';

// A stadium's event: its types get the stock shards an on-sale's rate needs (one per 100 tickets, at most 64).
const HEAT_DEFAULTS = { buyers: 16, tickets: 50_000, seconds: 5, ...DEFAULT_TARGET };
const usage = `Usage: npm run bench -- [options]
  (no option)          every route: bundle and init against its floor, handler latency against its replayed commands
  --only <handlers>    only these routes (handler modules, comma-separated: shipping-method/get,tickets/list)
  --init-runs <n>      fresh node processes per bundle for the init timing (default ${DEFAULT_RUNS.initRuns})
  --warmup <n>         unrecorded requests per route before the measured ones (default ${DEFAULT_RUNS.warmup})
  --iterations <n>     measured requests per route, each replayed once (default ${DEFAULT_RUNS.iterations})
  --scale              the requests at 1,000 and 100,000 tickets instead (bin/bench/scale.ts)
    --sizes <a,b>      the scale's event sizes (BENCH_SCALE_SIZES; default 1000,100000)
    --rows <parts>     only the scale's ticket rows whose names contain one of these parts (BENCH_SCALE_ROWS; no portal rows)
    --portal           the scale's portal rows only
    --events           the scale's events-routes rows only, at 10, 1,000 and 10,000 events (BENCH_EVENT_SIZES; --sizes sets them)
  --hostile            the worst inputs a client can send, against \`npm start\` (bin/bench/hostile.ts)
  --heat               two events selling at once, every write recorded and scaled to the target (bin/bench/heat.ts)
    --buyers <n>       buyers per event, each holding 2 tickets, checking out and paying (default ${HEAT_DEFAULTS.buyers})
    --tickets <n>      tickets per event, three quarters and a quarter in two types (default ${HEAT_DEFAULTS.tickets})
    --holds-per-second <n>   the target's holds a second per event (default ${HEAT_DEFAULTS.holdsPerSecond})
    --orders-per-second <n>  the target's paid orders of 2 tickets a second per event (default ${HEAT_DEFAULTS.ordersPerSecond})
  --help               this text`;
const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    'init-runs': { type: 'string' },
    warmup: { type: 'string' },
    iterations: { type: 'string' },
    scale: { type: 'boolean' },
    sizes: { type: 'string' },
    rows: { type: 'string' },
    portal: { type: 'boolean' },
    events: { type: 'boolean' },
    hostile: { type: 'boolean' },
    heat: { type: 'boolean' },
    buyers: { type: 'string' },
    tickets: { type: 'string' },
    'holds-per-second': { type: 'string' },
    'orders-per-second': { type: 'string' },
    help: { type: 'boolean' },
  },
});
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const count = (flag: string, value: string | undefined, fallback: number, least: number) => {
  const n = value === undefined ? fallback : Number(value);
  if (Number.isInteger(n) && n >= least) return n;
  console.error(`--${flag} takes a whole number of at least ${least}.\n${usage}`);
  process.exit(2);
};
const runs: BenchRuns = {
  initRuns: count('init-runs', values['init-runs'], DEFAULT_RUNS.initRuns, 1),
  warmup: count('warmup', values.warmup, DEFAULT_RUNS.warmup, 0),
  iterations: count('iterations', values.iterations, DEFAULT_RUNS.iterations, 1),
};
const only = values.only?.split(',').map((name) => name.trim());
const unknown = only?.filter((name) => !routes.some((row) => row.handler === name)) ?? [];
if (unknown.length) {
  console.error(`--only: no route has the handler ${unknown.join(', ')}.\n${usage}`);
  process.exit(2);
}
const measured = only ? routes.filter((row) => only.includes(row.handler)) : routes;

const log = (line: string) => console.error(line);
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;

/** Starts the stand-ins, measures the handlers against their replayed calls, and always stops them (no orphaned java). */
async function measureHandlers() {
  const services = await startLocalServices();
  try {
    // Before anything from shared/ loads: config and the SDK read the environment then.
    // The stand-ins' region and credentials win over the dummy ones.
    Object.assign(process.env, BENCH_ENV, services.env);
    // The customers' pool in cognito-local (and where its mail links point), before any handler loads.
    const { customerBenchEnv } = await import('./bench/scenarios-customers.ts');
    Object.assign(process.env, await customerBenchEnv(services));
    await createTable(TABLE_NAME);
    await createTable(TWIN_TABLE_NAME);
    // The bench's fixed key (already in JWT_PUBLIC_KEYS) as the stand-in's signing key secret.
    const { initLocalSigningKeys } = await import('./keys/commands.ts');
    await initLocalSigningKeys(services, BENCH_SIGNING_STAGE, async () => ({ ...BENCH_SIGNING_KEY }));
    const { measureLatency } = await import('./bench/latency.ts');
    log(
      `Handler latency vs its DynamoDB commands replayed raw: ${runs.warmup} warm-up + ${runs.iterations} iterations each (${elapsed()})`,
    );
    return await measureLatency(measured, runs, log);
  } finally {
    await services.stop();
  }
}

const USAGE = `Usage: npm run bench [-- --scale | --hostile | --help]
  (nothing)  bundle size, cold-start init and warm latency of every route against its floor (6-14 minutes on 2 cores;
             .local/bench.json)
  --scale    each request on the real handlers in events of 1,000 and 100,000 tickets (.local/bench-scale.json)
  --hostile  the worst inputs a client can send, against the stack \`npm start\` runs
  --heat     two events selling at once, every write priced and scaled to the on-sale target (.local/heat.json)`;
if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}

// `npm run bench -- --scale`: the same requests at 1,000 and 100,000 tickets (bin/bench/scale.ts) instead.
if (values.scale) {
  if (values.sizes) process.env[values.events ? 'BENCH_EVENT_SIZES' : 'BENCH_SCALE_SIZES'] = values.sizes;
  if (values.rows) process.env.BENCH_SCALE_ROWS = values.rows;
  const { runScale } = await import('./bench/scale.ts');
  await runScale();
  process.exit(0);
}

// `npm run bench -- --heat`: two events on sale at once, their writes scaled to the target (bin/bench/heat.ts).
if (values.heat) {
  const { runHeat } = await import('./bench/heat.ts');
  await runHeat({
    buyers: count('buyers', values.buyers, HEAT_DEFAULTS.buyers, 1),
    tickets: count('tickets', values.tickets, HEAT_DEFAULTS.tickets, 8),
    seconds: HEAT_DEFAULTS.seconds,
    holdsPerSecond: count('holds-per-second', values['holds-per-second'], HEAT_DEFAULTS.holdsPerSecond, 1),
    ordersPerSecond: count('orders-per-second', values['orders-per-second'], HEAT_DEFAULTS.ordersPerSecond, 1),
  });
  process.exit(0);
}

// `npm run bench -- --hostile`: the worst inputs a client can send, against `npm start` (bin/bench/hostile.ts).
if (values.hostile) {
  const { runHostile } = await import('./bench/hostile.ts');
  await runHostile();
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), 'ticketing-bench-'));
try {
  log(`Bundling ${measured.length} handlers and their floors...`);
  const bundles = await bundleAll(measured, dir);

  log(
    `Timing module init: ${runs.initRuns} fresh node processes per bundle, each paired with a run of its floor... (${elapsed()})`,
  );
  const init = await measureInit(bundles, dir, runs.initRuns);

  log(`Starting the local services... (${elapsed()})`);
  const latency = await measureHandlers();

  const floorOf = (handler: string) => ({
    name: bundles.floorOf.get(handler)!,
    bundle: bundles.floors.get(bundles.floorOf.get(handler)!)!,
  });
  const results: BenchResults = {
    floors: [...bundles.floors].map(([name, bundle]) => ({
      name,
      bundleBytes: bundle.bytes,
      initMs: init.floors.get(name)!,
    })),
    routes: measured.map((row) =>
      figures(
        row,
        floorOf(row.handler),
        bundles.routes.get(row.handler)!,
        init.routes.get(row.handler)!,
        latency.get(row.handler),
      ),
    ),
  };

  console.log(`\n${table(results)}\n\n${summary(results)}`);
  mkdirSync(join(ROOT, '.local'), { recursive: true });
  const out = join(ROOT, '.local', 'bench.json');
  const json = {
    measuredAt: new Date().toISOString(),
    node: process.version,
    targets: TARGETS,
    ...runs,
    ...results,
  };
  // Timings to the microsecond are plenty (and keep the file readable).
  writeFileSync(
    out,
    `${JSON.stringify(json, (_, value) => (typeof value === 'number' ? Math.round(value * 1000) / 1000 : value), 2)}\n`,
  );
  log(`\nWrote ${out} (${elapsed()} in all).`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
