import { describe, expect, it } from 'vitest';
import { routes } from '#shared/routes';
import { bundleInputs } from './bundles.ts';

/**
 * The photo decoders (jpeg-js, pngjs: about 70 KB minified) are in the upload route's
 * bundle only (README "Profile photos"). One esbuild run over the rows that touch the
 * photo bucket, no output written.
 */
describe('the photo decoders', () => {
  it('are bundled by POST /tickets/{id}/profile-photo and by no other photo-bucket function', async () => {
    const photoRows = routes.filter((row) => row.uses.photos);
    const decoders = new Map<string, boolean>();
    for (const [handler, inputs] of await bundleInputs(photoRows)) decoders.set(handler, inputs.some((input) => /node_modules\/(jpeg-js|pngjs)\//.test(input)));
    expect(Object.fromEntries(decoders)).toEqual(Object.fromEntries(photoRows.map((row) => [row.handler, row.handler === 'tickets/profile-photo'])));
  }, 60_000);
});
