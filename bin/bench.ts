/**
 * `npm run bench`: what each route costs over the bare minimum a DynamoDB-backed Lambda
 * needs. Per row of the route table: bundle size and cold module init against a bare
 * DocumentClient bundle, and in-process handler latency against the same DynamoDB
 * commands sent raw (on DynamoDB Local). Prints a table, writes `.local/bench.json`.
 * A measurement, not a test: it exits 0 whatever the figures (non-zero only if it breaks).
 *
 * Order matters: bundles and init timings come first, before Java starts, so DynamoDB
 * Local's JIT and GC do not steal CPU from the timed child processes (2 cores).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { routes } from '#shared/routes';
import { bundleAll } from './bench/bundle.ts';
import { measureInit } from './bench/init.ts';
import { figures, summary, table, TARGETS, type BenchResults } from './bench/report.ts';
import { BENCH_ENV, BENCH_SIGNING_KEY, BENCH_SIGNING_STAGE, INIT_RUNS, ITERATIONS, ROOT, TABLE_NAME, WARMUP } from './bench/settings.ts';
import { startLocalServices } from './local/services.ts';
import { createTable } from './local/table.ts';

const log = (line: string) => console.error(line);
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;

/** Starts the stand-ins, measures every handler against raw calls, and always stops them (no orphaned java). */
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
    // The bench's fixed key (already in JWT_PUBLIC_KEYS) as the stand-in's signing key secret.
    const { initLocalSigningKeys } = await import('./keys/commands.ts');
    await initLocalSigningKeys(services, BENCH_SIGNING_STAGE, async () => ({ ...BENCH_SIGNING_KEY }));
    const { measureLatency } = await import('./bench/latency.ts');
    log(`Handler latency vs raw DynamoDB calls: ${WARMUP} warm-up + ${ITERATIONS} iterations each (${elapsed()})`);
    return await measureLatency(routes, log);
  } finally {
    await services.stop();
  }
}

// `npm run bench -- --scale`: the same requests at 1,000 and 100,000 tickets (bin/bench/scale.ts) instead.
if (process.argv.includes('--scale')) {
  const { runScale } = await import('./bench/scale.ts');
  await runScale();
  process.exit(0);
}

// `npm run bench -- --hostile`: the worst inputs a client can send, against `npm start` (bin/bench/hostile.ts).
if (process.argv.includes('--hostile')) {
  const { runHostile } = await import('./bench/hostile.ts');
  await runHostile();
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), 'ticketing-bench-'));
try {
  log(`Bundling ${routes.length} handlers and the baseline...`);
  const bundles = await bundleAll(routes, dir);

  log(`Timing module init: ${INIT_RUNS} fresh node processes per bundle, each paired with a baseline run... (${elapsed()})`);
  const init = await measureInit(bundles.baseline, bundles.routes, dir);

  log(`Starting the local services... (${elapsed()})`);
  const latency = await measureHandlers();

  const baseline = { bundleBytes: bundles.baseline.bytes, initMs: init.baselineMs };
  const results: BenchResults = {
    baseline,
    routes: routes.map((row) =>
      figures(row, { ...baseline, bundle: bundles.baseline }, bundles.routes.get(row.handler)!, init.routes.get(row.handler)!, latency.get(row.handler)),
    ),
  };

  console.log(`\n${table(results)}\n\n${summary(results)}`);
  mkdirSync(join(ROOT, '.local'), { recursive: true });
  const out = join(ROOT, '.local', 'bench.json');
  const json = { measuredAt: new Date().toISOString(), node: process.version, targets: TARGETS, initRuns: INIT_RUNS, iterations: ITERATIONS, ...results };
  // Timings to the microsecond are plenty (and keep the file readable).
  writeFileSync(out, `${JSON.stringify(json, (_, value) => (typeof value === 'number' ? Math.round(value * 1000) / 1000 : value), 2)}\n`);
  log(`\nWrote ${out} (${elapsed()} in all).`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
