import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { clientTypesSource } from '../../bin/api-docs/client-types.ts';
import { docsFiles, REDOC_CDN_LOGO } from '../../bin/api-docs/site.ts';
import { DOCS_CSP, DOCS_PATHS } from '../../infra/api-docs-site.ts';
import { buildOpenApi } from '../../bin/openapi/document.ts';
import { loadRouteOperations } from '../../bin/openapi/load-routes.ts';
import { routes } from '#shared/routes';

/**
 * The documentation files built from the document (served locally and deployed), and the
 * typed client's types as `npm run build:client` generates them from it.
 */
let document: Record<string, unknown>;

beforeAll(async () => {
  document = buildOpenApi(await loadRouteOperations());
}, 60_000);

describe('the typed client types (shared/client/openapi-types.ts, built by npm run build:client)', () => {
  it('type every path and operation of the current document', async () => {
    const source = await clientTypesSource(document);
    const paths = Object.keys(document.paths as Record<string, unknown>);
    for (const path of paths) expect(source, path).toContain(`${JSON.stringify(path)}: {`);
    const operationIds = Object.values(
      document.paths as Record<string, Record<string, { operationId?: string }>>,
    ).flatMap((item) =>
      Object.values(item).flatMap((operation) => (operation.operationId ? [operation.operationId] : [])),
    );
    // The spec's 55 and ours (POST /my-account/claim).
    expect(operationIds).toHaveLength(routes.length);
    for (const id of operationIds) expect(source, id).toContain(`    ${id}: {`);
  }, 30_000);
});

describe('the typed client (shared/client/index.ts)', () => {
  it('bundles for a browser with openapi-fetch and its own types only: no server code', async () => {
    const { metafile } = await build({
      entryPoints: [fileURLToPath(new URL('../../shared/client/index.ts', import.meta.url))],
      bundle: true,
      write: false,
      platform: 'browser',
      format: 'esm',
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(metafile.inputs);
    expect(inputs.filter((input) => !input.startsWith('node_modules/openapi-fetch/'))).toEqual([
      'shared/client/index.ts',
    ]);
  });
});

describe('the documentation files', () => {
  it('are the document, the page and the Redoc bundle from npm (offline), each with its content type', () => {
    const files = docsFiles(document);
    expect(files.map((file) => [file.path, file.contentType])).toEqual([
      ['/api/v2/openapi.json', 'application/json'],
      ['/api/v2/docs/index.html', 'text/html; charset=utf-8'],
      ['/api/v2/docs/redoc.standalone.js', 'text/javascript; charset=utf-8'],
      ['/api/v2/docs/redoc.standalone.js.LICENSE.txt', 'text/plain; charset=utf-8'],
    ]);
    expect(JSON.parse(files[0]!.body.toString())).toEqual(document);
    const redoc = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');
    // Redoc's bundle, but for its CDN logo, which would be the page's one request elsewhere.
    const served = files[2]!.body.toString();
    expect(served).toBe(readFileSync(redoc, 'utf8').replace(`"${REDOC_CDN_LOGO}"`, '"data:,"'));
    expect(served).not.toContain('cdn.redoc.ly');
  });

  it('has a page that loads only same-origin files, with no inline script', () => {
    const page = docsFiles(document)
      .find((file) => file.path === DOCS_PATHS.pageFile)!
      .body.toString();
    expect(page).toContain(`<redoc spec-url="${DOCS_PATHS.document}"`);
    expect(page).toContain(`<script src="${DOCS_PATHS.bundle}"></script>`);
    expect(page).not.toMatch(/https?:\/\//);
    expect(page.match(/<script/g)).toHaveLength(1);
    expect(page).toContain(`<title>${(document.info as { title: string }).title} · reference</title>`);
  });

  it('has a CSP that allows our own origin only (plus inline styles, data: images and a blob: worker for Redoc)', () => {
    expect(DOCS_CSP).toContain("default-src 'none'");
    expect(DOCS_CSP).toContain("script-src 'self';");
    expect(DOCS_CSP).not.toMatch(/https?:|unsafe-eval|\*/);
  });
});
