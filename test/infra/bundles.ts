import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type RouteRow, routes } from '#shared/routes';
import { deployedEntry, ENTRIES_DIR } from '../../infra/deployed-entry.ts';
import { FUNCTION_BUNDLE } from '../../infra/function-bundle.ts';
import { FUNCTIONS_DIR } from '../../infra/route-function.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * One esbuild run over every route (7-10 s here) for all the files of the worker (the infra project shares one module
 * graph, vitest.config.ts), however many tests read it: without code splitting, a bundle is the same whichever other
 * entries the run has, so a few rows' bundles are read from it.
 */
let everyRoute: Promise<ReadonlyMap<string, readonly string[]>> | undefined;

/**
 * What each row's function bundle is made of, as production bundles it (its deployed entry and
 * FUNCTION_BUNDLE): one esbuild run over the rows, nothing written. Keyed by handler
 * (`tickets/check-in`), each with the input paths esbuild kept.
 */
export async function bundleInputs(rows: readonly RouteRow[]): Promise<ReadonlyMap<string, readonly string[]>> {
  everyRoute ??= bundle(routes);
  const all = await everyRoute;
  if (!rows.every((row) => all.has(row.handler))) return bundle(rows);
  return new Map(rows.map((row) => [row.handler, all.get(row.handler)!]));
}

async function bundle(rows: readonly RouteRow[]): Promise<Map<string, string[]>> {
  const result = await build({
    entryPoints: rows.map((row) => deployedEntry(path.join(FUNCTIONS_DIR, `${row.handler}.ts`))),
    ...FUNCTION_BUNDLE,
    // The map says nothing about what is in a bundle.
    sourcemap: false,
    outdir: path.join(ROOT, '.local', 'bundle-inputs'),
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const entriesOfFunctions = path.relative(ROOT, path.join(ENTRIES_DIR, 'functions'));
  const inputs = new Map<string, string[]>();
  for (const output of Object.values(result.metafile.outputs)) {
    if (output.entryPoint)
      inputs.set(path.relative(entriesOfFunctions, output.entryPoint).replace(/\.ts$/, ''), Object.keys(output.inputs));
  }
  return inputs;
}
