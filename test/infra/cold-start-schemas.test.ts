import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build, type Plugin } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { BENCH_ENV } from '../../bin/bench/settings.ts';
import { deployedEntry } from '../../infra/deployed-entry.ts';
import { FUNCTION_BUNDLE } from '../../infra/function-bundle.ts';
import { FUNCTIONS_DIR } from '../../infra/route-function.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);
const dir = mkdtempSync(path.join(tmpdir(), 'cold-start-schemas-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every zod schema and check is made by `$constructor`'s `init`: this counts each one the bundle builds. */
const COUNT_SCHEMAS: Plugin = {
  name: 'count-zod-schemas',
  setup(builder) {
    builder.onLoad({ filter: /zod\/v4\/core\/core\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const counted = source.replace(
        'function init(inst, def) {',
        'function init(inst, def) { globalThis.zodSchemasBuilt = (globalThis.zodSchemasBuilt ?? 0) + 1;',
      );
      if (counted === source) throw new Error("zod's $constructor changed: update the counter");
      return { contents: counted, loader: 'js' };
    });
  },
};

/** The zod schemas a route's production bundle builds when a cold start loads it (its init, before any request). */
async function schemasBuiltAtLoad(handler: string): Promise<number> {
  const outfile = path.join(dir, `${handler.replaceAll('/', '--')}.mjs`);
  await build({
    ...FUNCTION_BUNDLE,
    entryPoints: [deployedEntry(path.join(FUNCTIONS_DIR, `${handler}.ts`))],
    sourcemap: false,
    absWorkingDir: ROOT,
    outfile,
    logLevel: 'silent',
    plugins: [COUNT_SCHEMAS],
  });
  const script = `await import(${JSON.stringify(pathToFileURL(outfile).href)}); process.stdout.write(String(globalThis.zodSchemasBuilt ?? 0));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH ?? '', ...BENCH_ENV },
  });
  return Number(stdout);
}

/**
 * A cold start builds the schemas its route reads at once (the environment's, the keys', the route's own are built at
 * its first parse), not every schema of the modules it imports (shared/schema.ts: `z.lazy`). Ceilings a little above
 * what each builds (the environment's and the keys' schemas are about 350 of them), so that a module going back to
 * eager schemas fails here: at the median a route built 2,000 before, about 2.5 µs each in the bench's init times.
 */
const CEILINGS: Record<string, number> = {
  'auth/me': 550,
  'events/get': 700,
  'events/question-create': 680,
  'tickets/check-in-stats': 800,
  'my-account/reservation-create': 680,
};

describe('the schemas a cold start builds', () => {
  it.each(Object.entries(CEILINGS))(
    '%s: at most %i',
    async (handler, ceiling) => {
      const built = await schemasBuiltAtLoad(handler);
      expect(built).toBeGreaterThan(100);
      console.log(handler, built);
      expect(built).toBeLessThanOrEqual(ceiling);
    },
    60_000,
  );
});
