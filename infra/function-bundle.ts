import type { BuildOptions } from 'esbuild';

/**
 * How every deployed function is bundled (route functions, webhook functions, the migration runner): one ESM file
 * for Node.js 22 with everything in it, the AWS SDK included (resolving the runtime's copy measured 1.6x slower
 * init), minified, with a source map (the functions run with --enable-source-maps). The CDK asset
 * (infra/function-defaults.ts), the bundle tests (test/infra/bundles.ts) and the bench (bin/bench/bundle.ts) all
 * build from these options, so what they measure is what ships.
 */
export const FUNCTION_BUNDLE = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: true,
  sourcemap: true,
  mainFields: ['module', 'main'],
  // Some CommonJS dependencies call require() for Node built-ins; ESM has none.
  banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
} as const satisfies BuildOptions;

/** The bundle's file in the function's code, and the handler Lambda calls in it (the entry's `handler` export). */
export const BUNDLE_FILE = 'index.mjs';
export const BUNDLE_HANDLER = 'index.handler';
