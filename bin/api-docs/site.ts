import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { DOCS_PATHS } from '../../infra/api-docs-site.ts';

/**
 * The API's documentation files: the OpenAPI document, a page rendering it with Redoc,
 * and Redoc's standalone bundle from npm (its one CDN image removed), all served from our own origin (no CDN, no web
 * fonts), so the page works offline. The same files are answered by the local server
 * (bin/local/docs.ts) and deployed into the front ends' buckets (infra/api-docs.ts), at the
 * paths infra/api-docs-site.ts names. Building the document itself (bin/openapi/) is the
 * caller's business.
 */

export interface DocsFile {
  /** URL path, e.g. `/api/v2/openapi.json`; the bucket key is the same without the leading slash. */
  path: string;
  contentType: string;
  body: Buffer;
}

const require = createRequire(import.meta.url);
const redocBundle = () => require.resolve('redoc/bundles/redoc.standalone.js');

/** The files for a document (an OpenAPI object as `buildOpenApi` returns it). */
export function docsFiles(document: Record<string, unknown>): DocsFile[] {
  const bundle = redocBundle();
  const title = (document.info as { title?: unknown } | undefined)?.title;
  return [
    {
      path: DOCS_PATHS.document,
      contentType: 'application/json',
      body: Buffer.from(`${JSON.stringify(document, null, 2)}\n`),
    },
    {
      path: DOCS_PATHS.pageFile,
      contentType: 'text/html; charset=utf-8',
      body: Buffer.from(docsPage(typeof title === 'string' ? title : 'API')),
    },
    {
      path: DOCS_PATHS.bundle,
      contentType: 'text/javascript; charset=utf-8',
      body: Buffer.from(offlineBundle(readFileSync(bundle, 'utf8'))),
    },
    // The bundle's first line points at its licence file: served beside it.
    {
      path: DOCS_PATHS.bundleLicence,
      contentType: 'text/plain; charset=utf-8',
      body: readFileSync(`${bundle}.LICENSE.txt`),
    },
  ];
}

/**
 * Redoc's menu footer shows its logo from Redocly's CDN, unconditionally: the one fetch
 * the bundle makes on its own. The logo becomes an empty `data:` image, which fails to
 * render, and Redoc then drops the <img> (its onError); the "API docs by Redocly" link stays.
 * Exactly one occurrence, so a Redoc upgrade that moves it fails here, not silently online.
 */
export const REDOC_CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';

function offlineBundle(source: string): string {
  const parts = source.split(`"${REDOC_CDN_LOGO}"`);
  if (parts.length !== 2)
    throw new Error(
      `redoc.standalone.js: expected one "${REDOC_CDN_LOGO}", found ${parts.length - 1}; review bin/api-docs/site.ts`,
    );
  return parts.join('"data:,"');
}

/**
 * Absolute paths, so the page works at `/docs` and `/docs/` alike. Redoc's options as
 * attributes: no host name (the document's server is the relative `/api/v2`), 2xx answers
 * expanded, and the search kept (its worker is a blob).
 */
function docsPage(title: string): string {
  const text = escapeHtml(title);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${text} · reference</title>
</head>
<body>
<redoc spec-url="${DOCS_PATHS.document}" hide-hostname="true" expand-responses="200,201" path-in-middle-panel="true"></redoc>
<noscript>${text}: this page needs JavaScript; the document itself is at <a href="${DOCS_PATHS.document}">${DOCS_PATHS.document}</a>.</noscript>
<script src="${DOCS_PATHS.bundle}"></script>
</body>
</html>
`;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
