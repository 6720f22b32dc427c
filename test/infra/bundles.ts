import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { RouteRow } from '#shared/routes';
import { deployedEntry, ENTRIES_DIR } from '../../infra/deployed-entry.ts';
import { FUNCTION_BUNDLE } from '../../infra/function-bundle.ts';
import { FUNCTIONS_DIR } from '../../infra/route-function.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** One esbuild run per list of rows in a file (all routes: 7-10 s here), however many of its tests read it. */
const built = new WeakMap<readonly RouteRow[], Promise<ReadonlyMap<string, readonly string[]>>>();

/**
 * What each row's function bundle is made of, as production bundles it (its deployed entry and
 * FUNCTION_BUNDLE): one esbuild run over the rows, nothing written. Keyed by handler
 * (`tickets/check-in`), each with the input paths esbuild kept.
 */
export function bundleInputs(rows: readonly RouteRow[]): Promise<ReadonlyMap<string, readonly string[]>> {
  let inputs = built.get(rows);
  if (!inputs) {
    inputs = bundle(rows);
    built.set(rows, inputs);
  }
  return inputs;
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
