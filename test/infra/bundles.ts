import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { RouteRow } from '#shared/routes';
import { deployedEntry, ENTRIES_DIR } from '../../infra/deployed-entry.ts';
import { FUNCTIONS_DIR } from '../../infra/route-function.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * What each row's function bundle is made of, as production bundles it (its deployed entry,
 * ESM, node22, tree-shaken): one esbuild run over the rows, nothing written. Keyed by handler
 * (`tickets/check-in`), each with the input paths esbuild kept.
 */
export async function bundleInputs(rows: readonly RouteRow[]): Promise<Map<string, string[]>> {
  const result = await build({
    entryPoints: rows.map((row) => deployedEntry(path.join(FUNCTIONS_DIR, `${row.handler}.ts`))),
    outdir: path.join(ROOT, '.local', 'bundle-inputs'),
    write: false,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    mainFields: ['module', 'main'],
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
