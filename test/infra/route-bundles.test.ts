import { describe, expect, it } from 'vitest';
import { routes } from '#shared/routes';
import { bundleInputs } from './bundles.ts';

/**
 * Only the routes that need a heavy module bundle it: the photo decoders (jpeg-js, pngjs:
 * about 70 KB minified, the OpenAPI description of the upload) and the multipart parser (our
 * middleware, @middy/http-multipart-body-parser and busboy) are in the upload route's bundle only. One esbuild run per test, no output written.
 */
describe('the photo decoders', () => {
  it('are bundled by POST /tickets/{id}/profile-photo and by no other photo-bucket function', async () => {
    const photoRows = routes.filter((row) => row.uses.photos);
    const decoders = new Map<string, boolean>();
    for (const [handler, inputs] of await bundleInputs(photoRows))
      decoders.set(
        handler,
        inputs.some((input) => /node_modules\/(jpeg-js|pngjs)\//.test(input)),
      );
    expect(Object.fromEntries(decoders)).toEqual(
      Object.fromEntries(photoRows.map((row) => [row.handler, row.handler === 'tickets/profile-photo'])),
    );
  }, 60_000);
});

describe('the multipart parser', () => {
  it('is bundled only by the route that takes a form (the photo upload): JSON routes do not carry it', async () => {
    const bundles = await bundleInputs(routes);
    for (const part of [
      'shared/http/multipart-form.ts',
      'node_modules/@middy/http-multipart-body-parser/',
      'node_modules/@fastify/busboy/',
    ]) {
      const carriers = [...bundles]
        .filter(([, inputs]) => inputs.some((input) => input.includes(part)))
        .map(([handler]) => handler);
      expect(carriers, part).toEqual(['tickets/profile-photo']);
    }
  }, 120_000);
});

describe('the PDF writer', () => {
  // pdf-lib, its standard-font metrics and pako are about 400 KB minified, qrcode (with its pngjs) about 60 KB:
  // 950 KB for the ticket PDF's function against 460 KB for a customer read like GET /my-account/upgrades/{ticketId}.
  it("is bundled only by the routes that answer a PDF: the printable ticket and the invoices (the buyer's and staff's)", async () => {
    const bundles = await bundleInputs(routes);
    for (const part of ['node_modules/pdf-lib/', 'node_modules/@pdf-lib/']) {
      const carriers = [...bundles]
        .filter(([, inputs]) => inputs.some((input) => input.includes(part)))
        .map(([handler]) => handler);
      expect(carriers.sort(), part).toEqual(['my-account/order-invoice', 'my-account/ticket-pdf', 'orders/invoice']);
    }
  }, 120_000);
});

describe('the success answers', () => {
  it('stay out of every deployed bundle: the entry exports only `handler`, and only the docs and tests read `answer`', async () => {
    const all = await bundleInputs(routes);
    expect(all.size).toBe(routes.length);
    const carriers = [...all]
      .filter(([, inputs]) => inputs.some((input) => input.endsWith('shared/http/answers.ts')))
      .map(([handler]) => handler);
    expect(carriers).toEqual([]);
  }, 120_000);
});

describe('the AWS SDK clients', () => {
  /**
   * Each client beside DynamoDB's, and the row `uses` that calls for it (shared/routes.ts).
   * Secrets Manager: every function reads the origin-verify secret (shared/http/origin-verify.ts).
   */
  const CLIENTS: [string, (row: (typeof routes)[number]) => boolean][] = [
    ['client-secrets-manager', () => true],
    ['client-s3', (row) => !!row.uses.photos],
    ['client-sesv2', (row) => !!row.uses.email],
    ['client-cognito-identity-provider', (row) => !!(row.uses.identityProvider || row.uses.customerIdentity)],
  ];

  it('are each only in the bundles of rows that use that service (a sign-in row that only builds a hosted UI URL carries no Cognito client)', async () => {
    const bundles = await bundleInputs(routes);
    for (const [client, uses] of CLIENTS) {
      const carriers = [...bundles]
        .filter(([, inputs]) => inputs.some((input) => input.includes(`node_modules/@aws-sdk/${client}/`)))
        .map(([handler]) => handler);
      const users = routes.filter(uses).map((row) => row.handler);
      expect(
        carriers.filter((handler) => !users.includes(handler)),
        client,
      ).toEqual([]);
      // Every row that manages users or sends mail calls its client.
      if (client !== 'client-cognito-identity-provider') expect(carriers.sort(), client).toEqual(users.sort());
    }
    const managers = routes.filter(
      (row) => row.uses.customerIdentity === 'manage-users' || row.uses.identityProvider === 'manage-users',
    );
    expect(managers.length).toBeGreaterThan(0);
    for (const row of managers)
      expect(
        bundles.get(row.handler)!.some((input) => input.includes('client-cognito-identity-provider')),
        row.handler,
      ).toBe(true);
  }, 120_000);
});

describe('the metrics library', () => {
  it('is bundled only where a use case records a business metric (the gate and the logins), not by every route', async () => {
    const carriers = [...(await bundleInputs(routes))]
      .filter(([, inputs]) => inputs.some((input) => input.includes('node_modules/@aws-lambda-powertools/metrics/')))
      .map(([handler]) => handler);
    expect(carriers).toContain('tickets/check-in');
    expect(carriers).toContain('auth/legacy-login');
    expect(carriers).toContain('my-account/login');
    expect(carriers).not.toContain('tickets/get');
    expect(carriers).not.toContain('shipping-method/list');
    expect(carriers.length).toBeLessThan(10);
  }, 120_000);
});
