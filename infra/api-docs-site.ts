import { API_PREFIX } from '#shared/api-prefix';

/**
 * Where the API's documentation lives on a front end and the CSP it is served with: the
 * deployed docs (infra/api-docs.ts) route and protect these paths, the build
 * (bin/api-docs/site.ts) writes its files at them, and the local server (bin/local/docs.ts)
 * answers them alike. Plain constants, no CDK: the local server imports this module too.
 */

/** Where the files are, as URL paths and as keys below the bucket (without the leading slash). */
export const DOCS_PATHS = {
  document: `${API_PREFIX}/openapi.json`,
  page: `${API_PREFIX}/docs`,
  /**
   * The page as stored: S3 guesses content types from the extension, and a key `docs`
   * next to a `docs/` folder cannot be a file in the asset directory. Requests for the
   * page (`/docs`, `/docs/`) are rewritten to it (CloudFront Function; the local server alike).
   */
  pageFile: `${API_PREFIX}/docs/index.html`,
  bundle: `${API_PREFIX}/docs/redoc.standalone.js`,
  bundleLicence: `${API_PREFIX}/docs/redoc.standalone.js.LICENSE.txt`,
} as const;

/** The URL paths answered with the page. */
export const DOCS_PAGE_ALIASES = [DOCS_PATHS.page, `${DOCS_PATHS.page}/`, DOCS_PATHS.pageFile] as const;

/**
 * The page's Content-Security-Policy: our own origin only. Redoc needs inline styles
 * (styled-components writes <style> elements), `data:` images (its icons) and a `blob:`
 * worker (the search index); no inline script (the page loads the bundle with `src`,
 * which finds the `<redoc spec-url>` element itself) and no eval.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  'worker-src blob:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
