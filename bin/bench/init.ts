import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Bundle, Bundles } from './bundle.ts';
import { BENCH_ENV } from './settings.ts';
import { median } from './stats.ts';

const run = promisify(execFile);

/**
 * Times only the module's own work (load, parse, top-level code), in CPU time (user +
 * system) so that a busy machine's waits do not count: Node's start-up and the runtime's
 * bootstrap cost the same for every function, so they would just dilute the ratio.
 */
const RUNNER = `
const start = process.cpuUsage();
await import(process.argv[2]);
const used = process.cpuUsage(start);
process.stdout.write(String((used.user + used.system) / 1000), () => process.exit(0));
`;

export interface InitResult {
  /** Median per floor (all its paired runs). */
  floors: Map<string, number>;
  /** Per handler: its median, and the median of the floor runs paired with it. */
  routes: Map<string, { ms: number; floorMs: number }>;
}

export async function measureInit(
  { floors, routes, floorOf }: Bundles,
  dir: string,
  initRuns: number,
): Promise<InitResult> {
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
  for (const bundle of [...floors.values(), ...routes.values()]) await once(bundle);

  // Sequential (parallel runs on 2 cores would measure contention), and each route run is
  // paired with a run of its floor, in alternating order, so drift in machine load hits both alike.
  const floorSamples = new Map<string, number[]>([...floors.keys()].map((name) => [name, []]));
  const samples = new Map<string, { route: number[]; floor: number[] }>(
    [...routes.keys()].map((handler) => [handler, { route: [], floor: [] }]),
  );
  for (let i = 0; i < initRuns; i++) {
    for (const [index, [handler, bundle]] of [...routes].entries()) {
      const floorName = floorOf.get(handler)!;
      const routeFirst = (i + index) % 2 === 0;
      const [first, second] = routeFirst ? [bundle, floors.get(floorName)!] : [floors.get(floorName)!, bundle];
      const a = await once(first);
      const b = await once(second);
      const [routeMs, floorMs] = routeFirst ? [a, b] : [b, a];
      samples.get(handler)!.route.push(routeMs);
      samples.get(handler)!.floor.push(floorMs);
      floorSamples.get(floorName)!.push(floorMs);
    }
  }
  return {
    floors: new Map([...floorSamples].map(([name, values]) => [name, median(values)])),
    routes: new Map(
      [...samples].map(([handler, { route, floor }]) => [handler, { ms: median(route), floorMs: median(floor) }]),
    ),
  };
}
