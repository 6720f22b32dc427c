import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { routes } from '#shared/routes';

const FUNCTIONS_DIR = fileURLToPath(new URL('../../functions', import.meta.url));

/**
 * The photo decoders (jpeg-js, pngjs: about 70 KB minified) are in the upload route's
 * bundle only (README "Profile photos"). One esbuild run over the rows that touch the
 * photo bucket, no output written.
 */
describe('the photo decoders', () => {
  it('are bundled by POST /tickets/{id}/profile-photo and by no other photo-bucket function', async () => {
    const photoRows = routes.filter((row) => row.uses.photos);
    const result = await build({
      entryPoints: photoRows.map((row) => path.join(FUNCTIONS_DIR, `${row.handler}.ts`)),
      outdir: path.join(FUNCTIONS_DIR, '..', '.local', 'photo-bundles'),
      write: false,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      mainFields: ['module', 'main'],
      metafile: true,
      logLevel: 'silent',
    });
    const decoders = new Map<string, boolean>();
    for (const output of Object.values(result.metafile.outputs)) {
      if (!output.entryPoint) continue;
      const handler = output.entryPoint.replace(/^.*functions\//, '').replace(/\.ts$/, '');
      decoders.set(handler, Object.keys(output.inputs).some((input) => /node_modules\/(jpeg-js|pngjs)\//.test(input)));
    }
    expect(Object.fromEntries(decoders)).toEqual(Object.fromEntries(photoRows.map((row) => [row.handler, row.handler === 'tickets/profile-photo'])));
  }, 60_000);
});
