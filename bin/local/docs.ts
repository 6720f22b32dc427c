import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DOCS_CSP, DOCS_PAGE_ALIASES, DOCS_PATHS } from '../../infra/api-docs-site.ts';
import { docsFiles, type DocsFile } from '../api-docs/site.ts';

/**
 * The documentation files on the local server, as the deployed front ends serve them from
 * their bucket (infra/api-docs.ts): `/api/v2/openapi.json`, the Redoc page at
 * `/api/v2/docs` and its bundle, with `Cache-Control: no-cache`, a strong ETag and 304 for
 * `If-None-Match`. These are files, not API routes: they are not in shared/routes.ts.
 *
 * The document is built once per process, on the first request for one of these paths:
 * building it imports every handler (about 2 s), which servers started by tests that never
 * ask for the docs should not pay.
 */
interface Served extends DocsFile {
  etag: string;
}

let files: Promise<Map<string, Served>> | undefined;

function load(): Promise<Map<string, Served>> {
  files ??= (async () => {
    // Imported here, not at the top: the module graph of every handler.
    const [{ buildOpenApi }, { loadRouteOperations }] = await Promise.all([
      import('../openapi/document.ts'),
      import('../openapi/load-routes.ts'),
    ]);
    const byPath = new Map<string, Served>();
    for (const file of docsFiles(buildOpenApi(await loadRouteOperations()))) {
      byPath.set(file.path, { ...file, etag: `"${createHash('sha256').update(file.body).digest('base64url')}"` });
    }
    const page = byPath.get(DOCS_PATHS.pageFile)!;
    for (const alias of DOCS_PAGE_ALIASES) byPath.set(alias, page);
    return byPath;
  })();
  files.catch(() => (files = undefined));
  return files;
}

const KNOWN = new Set<string>([DOCS_PATHS.document, DOCS_PATHS.bundle, DOCS_PATHS.bundleLicence, ...DOCS_PAGE_ALIASES]);

/** True for the paths this module answers (the server hands them over before route matching). */
export const isDocsPath = (pathname: string): boolean => KNOWN.has(pathname);

/** Answers a documentation path (see isDocsPath): GET and HEAD, else 405. */
export async function serveDocs(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
  const headers: Record<string, string> = {
    'Cache-Control': 'no-cache',
    'Content-Security-Policy': DOCS_CSP,
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
  };
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res
      .writeHead(405, { ...headers, Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' })
      .end('Method not allowed');
    return;
  }
  const file = (await load()).get(pathname)!;
  headers.ETag = file.etag;
  if (matches(req.headers['if-none-match'], file.etag)) {
    res.writeHead(304, headers).end();
    return;
  }
  res.writeHead(200, { ...headers, 'Content-Type': file.contentType, 'Content-Length': String(file.body.length) });
  res.end(req.method === 'HEAD' ? undefined : file.body);
}

/** `If-None-Match`: `*` or a list of entity tags, compared weakly (RFC 9110 13.1.2). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}
