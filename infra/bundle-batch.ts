import { copyFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { deployedEntry } from './deployed-entry.ts';
import { BUNDLE_FILE, FUNCTION_BUNDLE } from './function-bundle.ts';

/** Where every deployed function's handler module lives (routes and jobs alike). */
const FUNCTIONS_DIR = fileURLToPath(new URL('../functions', import.meta.url));

/**
 * Handler modules bundled in one esbuild run, the first time the bundle of any of them is asked for.
 *
 * Why: a synth bundles about 110 functions, which share most of their modules; built one by one, esbuild parses
 * and minifies those shared modules again for each (146 s for 103 functions here, beside other work), built
 * together once in 70 s. The bundles are byte-identical to one-by-one builds, and so are the assets' hashes
 * (test/infra/function-bundle.test.ts): the same options, and each bundle's folder sits beside CDK's own bundling
 * folders, so the source maps' relative paths are the same. Each folder is removed once copied, and the rest when the
 * process exits.
 */
export class BundleBatch {
  /** Each module's entry → the folder its bundle was built in, until copied (null: the run failed; undefined: not run yet). */
  private built: Map<string, string> | null | undefined;
  private entries: string[] | undefined;

  constructor(private readonly modules: () => string[]) {}

  /** Copies the bundle of `entry` (a deployed entry) into `outputDir`; false when it is not one of the batch's or the run failed. */
  copy(entry: string, outputDir: string): boolean {
    this.entries ??= this.modules().map((module) => deployedEntry(module));
    // Only an entry of the batch starts it (the bundle tests build entries of their own).
    if (!this.entries.includes(entry)) return false;
    if (this.built === undefined) this.built = this.build(this.entries, path.dirname(outputDir));
    const folder = this.built?.get(entry);
    if (!this.built || !folder) return false;
    for (const file of [BUNDLE_FILE, `${BUNDLE_FILE}.map`])
      copyFileSync(path.join(folder, file), path.join(outputDir, file));
    // CDK bundles an asset once per process (by its cache key); a second ask would build the entry alone.
    rmSync(folder, { recursive: true, force: true });
    this.built.delete(entry);
    return true;
  }

  /** Builds every module's bundle, each into a folder of its own in `parent` (where CDK makes its bundling folders). */
  private build(entries: string[], parent: string): Map<string, string> | null {
    const folders = entries.map((_, index) => `bundling-batch-${process.pid}-${index}`);
    const built = new Map(entries.map((entry, index) => [entry, path.join(parent, folders[index]!)]));
    process.once('exit', () => {
      for (const folder of built.values()) rmSync(folder, { recursive: true, force: true });
    });
    try {
      buildSync({
        ...FUNCTION_BUNDLE,
        entryPoints: entries.map((entry, index) => ({
          in: entry,
          out: `${folders[index]}/${path.parse(BUNDLE_FILE).name}`,
        })),
        outdir: parent,
        outExtension: { '.js': path.extname(BUNDLE_FILE) },
        absWorkingDir: path.resolve(FUNCTIONS_DIR, '..'),
        // A failed run is not reported: each function is then built alone, and its own error names its asset.
        logLevel: 'silent',
      });
      return built;
    } catch {
      return null;
    }
  }
}

/** Every handler module under functions/ (each `.ts` file there exports the `handler` a function runs). */
export const deployedFunctions = new BundleBatch(() =>
  readdirSync(FUNCTIONS_DIR, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .sort()
    .map((file) => path.join(FUNCTIONS_DIR, file)),
);
