import { statSync } from 'node:fs';
import { join } from 'node:path';
import { build, type BuildOptions } from 'esbuild';
import type { RouteRow } from '#shared/routes';
import { ROOT } from './settings.ts';

export interface Bundle {
  /** The `.mjs` file; `.mjs` so Node loads it as ESM from a temp dir without a package.json. */
  file: string;
  bytes: number;
  /** Output bytes per npm package (`(project)` for our own code), to explain a size. */
  packages: Record<string, number>;
}

/**
 * The production bundling of infra/route-function.ts (NodejsFunction): ESM, minified,
 * everything bundled (AWS SDK included), the createRequire banner for CommonJS deps that
 * require() Node built-ins. Differences, on purpose: target node20 (the Node that runs
 * this bench) and no source map (it would not count towards the code Lambda loads).
 */
const PRODUCTION: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  minify: true,
  target: 'node20',
  sourcemap: false,
  mainFields: ['module', 'main'],
  banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
  logLevel: 'error',
  absWorkingDir: ROOT,
};

/**
 * The floor every function pays: a DocumentClient created at module scope and one
 * GetCommand. A route's bundle and init time are judged against this.
 */
const BASELINE_SOURCE = `
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const handler = async (event: { pathParameters?: { id?: string } }) => {
  const { Item } = await db.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { PK: String(event.pathParameters?.id), SK: 'X' } }));
  return { statusCode: Item ? 200 : 404, body: JSON.stringify(Item ?? null) };
};
`;

async function bundleOne(options: BuildOptions, outfile: string): Promise<Bundle> {
  const { metafile } = await build({ ...PRODUCTION, ...options, outfile, metafile: true });
  const packages: Record<string, number> = {};
  for (const output of Object.values(metafile.outputs)) {
    for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? '(project)';
      packages[name] = (packages[name] ?? 0) + bytesInOutput;
    }
  }
  return { file: outfile, bytes: statSync(outfile).size, packages };
}

/** Bundles the baseline and every route's handler into `dir`, in parallel (esbuild is fast). */
export async function bundleAll(rows: readonly RouteRow[], dir: string): Promise<{ baseline: Bundle; routes: Map<string, Bundle> }> {
  const [baseline, ...bundles] = await Promise.all([
    bundleOne({ stdin: { contents: BASELINE_SOURCE, loader: 'ts', resolveDir: ROOT, sourcefile: 'baseline.ts' } }, join(dir, 'baseline.mjs')),
    ...rows.map((row) =>
      bundleOne({ entryPoints: [join(ROOT, 'functions', `${row.handler}.ts`)] }, join(dir, `${row.handler.replaceAll('/', '--')}.mjs`)),
    ),
  ]);
  return { baseline: baseline!, routes: new Map(rows.map((row, index) => [row.handler, bundles[index]!])) };
}
