import { describe, expect, it } from 'vitest';
import { routes } from '#shared/routes';
import { bundleInputs } from './bundles.ts';

/**
 * Only the routes that need a heavy module bundle it: the photo decoders (jpeg-js, pngjs:
 * about 70 KB minified, README "Profile photos") and the multipart parser are in the
 * upload route's bundle only. One esbuild run per test, no output written.
 */
describe('the photo decoders', () => {
  it('are bundled by POST /tickets/{id}/profile-photo and by no other photo-bucket function', async () => {
    const photoRows = routes.filter((row) => row.uses.photos);
    const decoders = new Map<string, boolean>();
    for (const [handler, inputs] of await bundleInputs(photoRows)) decoders.set(handler, inputs.some((input) => /node_modules\/(jpeg-js|pngjs)\//.test(input)));
    expect(Object.fromEntries(decoders)).toEqual(Object.fromEntries(photoRows.map((row) => [row.handler, row.handler === 'tickets/profile-photo'])));
  }, 60_000);
});

describe('the multipart parser', () => {
  it('is bundled only by the route that takes a form (the photo upload): JSON routes do not carry it', async () => {
    const carriers = [...(await bundleInputs(routes))].filter(([, inputs]) => inputs.some((input) => input.endsWith('shared/http/multipart.ts'))).map(([handler]) => handler);
    expect(carriers).toEqual(['tickets/profile-photo']);
  }, 120_000);
});
