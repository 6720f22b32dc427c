import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Bundle } from './bundle.ts';
import { BENCH_ENV, INIT_RUNS } from './settings.ts';
import { median } from './stats.ts';

const run = promisify(execFile);

/**
 * Times only the module's own work (load, parse, top-level code): Node's start-up and
 * the runtime's bootstrap cost the same for every function, so they would just dilute the ratio.
 */
const RUNNER = `
const start = performance.now();
await import(process.argv[2]);
const ms = performance.now() - start;
process.stdout.write(String(ms), () => process.exit(0));
`;

export interface InitResult {
  baselineMs: number;
  /** Median per handler module. */
  routes: Map<string, number>;
}

export async function measureInit(baseline: Bundle, routes: Map<string, Bundle>, dir: string): Promise<InitResult> {
  const runner = join(dir, 'measure-import.mjs');
  writeFileSync(runner, RUNNER);
  // Only the validated config and dummy AWS settings: no endpoint, since init makes no call.
  const env = { PATH: process.env.PATH ?? '', ...BENCH_ENV };
  const once = async (bundle: Bundle) => {
    const { stdout } = await run(process.execPath, [runner, pathToFileURL(bundle.file).href], { env, timeout: 30_000 });
    const ms = Number(stdout);
    if (!Number.isFinite(ms)) throw new Error(`${bundle.file}: the init runner printed "${stdout}"`);
    return ms;
  };

  // One unrecorded run each: the first read of a fresh file comes from disk, later ones from the page cache.
  for (const bundle of [baseline, ...routes.values()]) await once(bundle);

  // Sequential (parallel runs on 2 cores would measure contention), and each route run is
  // paired with a baseline run, in alternating order, so drift in machine load hits both alike.
  const baselineSamples: number[] = [];
  const samples = new Map<string, number[]>([...routes.keys()].map((handler) => [handler, []]));
  for (let i = 0; i < INIT_RUNS; i++) {
    for (const [index, [handler, bundle]] of [...routes].entries()) {
      const routeFirst = (i + index) % 2 === 0;
      const [first, second] = routeFirst ? [bundle, baseline] : [baseline, bundle];
      const a = await once(first);
      const b = await once(second);
      samples.get(handler)!.push(routeFirst ? a : b);
      baselineSamples.push(routeFirst ? b : a);
    }
  }
  return {
    baselineMs: median(baselineSamples),
    routes: new Map([...samples].map(([handler, values]) => [handler, median(values)])),
  };
}
