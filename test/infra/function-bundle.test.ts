import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { App, AssetStaging, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployedEntryFile } from '../../infra/deployed-entry.ts';
import { BUNDLE_FILE, BUNDLE_HANDLER } from '../../infra/function-bundle.ts';
import { BundleBatch } from '../../infra/bundle-batch.ts';
import { bundledCode, PROJECT_ROOT } from '../../infra/function-defaults.ts';

/**
 * The functions' code, bundled for real (the other infra tests skip bundling): two handlers in one stack, each
 * function's asset built from its own module, loaded and called as Lambda would.
 */
const FIXTURES = fileURLToPath(new URL('./fixtures/bundles', import.meta.url));

let outdir: string;
beforeAll(() => {
  outdir = mkdtempSync(path.join(tmpdir(), 'function-bundle-'));
});
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

/** Synthesises one stack of the named handler modules, bundling them; returns each function's asset directory. */
function synthesise(name: string, modules: Record<string, string>, batch?: BundleBatch): Record<string, string> {
  const app = new App({ outdir: path.join(outdir, name) });
  const stack = new Stack(app, 'Bundles');
  for (const [id, module] of Object.entries(modules))
    new LambdaFunction(stack, id, {
      runtime: Runtime.NODEJS_22_X,
      handler: BUNDLE_HANDLER,
      code: bundledCode(module, batch),
    });
  app.synth();
  const functions = Template.fromStack(stack).findResources('AWS::Lambda::Function');
  return Object.fromEntries(
    Object.keys(modules).map((id) => {
      const [logicalId, resource] = Object.entries(functions).find(([logical]) => logical.startsWith(id))!;
      expect(resource.Properties.Handler, logicalId).toBe('index.handler');
      const key: string = resource.Properties.Code.S3Key;
      return [id, path.join(outdir, name, `asset.${key.replace(/\.zip$/, '')}`)];
    }),
  );
}

describe('a function bundle', () => {
  let assets: Record<string, string>;
  beforeAll(() => {
    assets = synthesise('two', {
      First: path.join(FIXTURES, 'first.ts'),
      Second: path.join(FIXTURES, 'second.ts'),
    });
  });

  it("is each function's own module: two handlers, two assets, each answering as its module does", async () => {
    expect(assets.First).not.toBe(assets.Second);
    const answers: Record<string, unknown> = {};
    for (const [id, dir] of Object.entries(assets)) {
      const bundle = (await import(pathToFileURL(path.join(dir, BUNDLE_FILE)).href)) as Record<string, unknown>;
      expect(Object.keys(bundle), id).toEqual(['handler']);
      answers[id] = await (bundle.handler as () => Promise<unknown>)();
    }
    expect(answers).toEqual({
      First: { statusCode: 200, body: 'first' },
      Second: { statusCode: 200, body: 'second' },
    });
  });

  it('is one minified ESM file with its source map, which names the handler module', () => {
    const code = readFileSync(path.join(assets.Second!, BUNDLE_FILE), 'utf8');
    expect(code).toContain('createRequire');
    expect(code).not.toContain('left out of the bundle');
    expect(code.split('\n').length).toBeLessThan(10);
    const map = JSON.parse(readFileSync(path.join(assets.Second!, `${BUNDLE_FILE}.map`), 'utf8')) as {
      sources: string[];
    };
    expect(map.sources.some((source) => source.endsWith('test/infra/fixtures/bundles/second.ts'))).toBe(true);
  });

  it('is the same bundle, byte for byte and by asset hash, when the functions are built in one run (a synth builds every function under functions/ so)', () => {
    const modules = { First: path.join(FIXTURES, 'first.ts'), Second: path.join(FIXTURES, 'second.ts') };
    // CDK stages an asset once per process by its cache key: forget the first synth's, so this one bundles.
    AssetStaging.clearAssetHashCache();
    const batched = synthesise('batched', modules, new BundleBatch(() => Object.values(modules)));
    for (const id of Object.keys(modules)) {
      expect(path.basename(batched[id]!), id).toBe(path.basename(assets[id]!));
      for (const file of [BUNDLE_FILE, `${BUNDLE_FILE}.map`])
        expect(readFileSync(path.join(batched[id]!, file)), `${id} ${file}`).toEqual(
          readFileSync(path.join(assets[id]!, file)),
        );
    }
    expect(readdirSync(path.join(outdir, 'batched')).filter((file) => file.startsWith('bundling-'))).toEqual([]);
  });

  it('fails the synth naming the function when its module does not build, and stages nothing for it', () => {
    // In the project (a deployed entry is written beside the project's modules, under .local/entries), git-ignored.
    const scratch = path.join(PROJECT_ROOT, '.local', `function-bundle-test-${process.pid}`);
    const broken = path.join(scratch, 'broken.ts');
    mkdirSync(scratch, { recursive: true });
    writeFileSync(broken, "export { handler } from './no-such-module.ts';\n");
    try {
      // esbuild prints the error too ("Could not resolve"), as a synth would.
      expect(() => synthesise('broken', { Broken: broken })).toThrow(/Failed to bundle asset Bundles\/Broken\/Code/);
      // In a batch too: its failed run builds each module alone, and the broken one fails naming its asset.
      AssetStaging.clearAssetHashCache();
      const batch = new BundleBatch(() => [broken, path.join(FIXTURES, 'first.ts')]);
      expect(() =>
        synthesise('broken-batch', { First: path.join(FIXTURES, 'first.ts'), Broken: broken }, batch),
      ).toThrow(/Failed to bundle asset Bundles\/Broken\/Code/);
      expect(existsSync(path.join(outdir, 'broken', 'Bundles.template.json'))).toBe(false);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
      rmSync(path.dirname(deployedEntryFile(broken)), { recursive: true, force: true });
    }
  });
});
