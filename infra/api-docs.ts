import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Stage } from 'aws-cdk-lib';
import {
  type BehaviorOptions,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  type IOrigin,
  ResponseHeadersPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { type ISource, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { DOCS_CSP, DOCS_PATHS } from './api-docs-site.ts';
import { fileBehaviour } from './private-files.ts';
import { securityHeaders } from './security-headers.ts';
import { type StageSettings, StageSettingsError } from './stages.ts';

/**
 * The API's documentation on each front end (README "API documentation"): the OpenAPI
 * document, the Redoc page and its bundle, deployed into the front end's bucket under
 * `api/v2/` with its SPA files (one BucketDeployment, so neither prunes the other), and
 * served by CloudFront behaviours placed ahead of `/api/*`. S3 gives the strong ETag and
 * CloudFront the 304s; a response headers policy adds `Cache-Control: no-cache` (always
 * revalidate) and the page's CSP. Two resources for both front ends: the policy and the
 * function that maps `/api/v2/docs` to the stored page.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const GENERATOR = 'bin/api-docs.ts';
/** The files a documentation directory must hold (keys below the bucket). */
const REQUIRED = [DOCS_PATHS.document, DOCS_PATHS.pageFile, DOCS_PATHS.bundle].map((file) => file.slice(1));

/** `/api/v2/docs` and `/api/v2/docs/` are the page, stored as `docs/index.html` (infra/api-docs-site.ts). */
export const DOCS_PAGE_FUNCTION = `function handler(event) {
  var request = event.request;
  if (request.uri === '${DOCS_PATHS.page}' || request.uri === '${DOCS_PATHS.page}/') request.uri = '${DOCS_PATHS.pageFile}';
  return request;
}`;

/**
 * Runs bin/api-docs.ts in a child process: building the document imports every handler,
 * which the CDK app must not (their module state and environment checks). Its environment
 * is a shell's basics, so the document never depends on the deployer's variables. Written
 * into the cloud assembly's directory (`cdk.out/api-docs/`), which CDK owns and replaces,
 * so nothing is left elsewhere; the asset made from it is a copy beside it.
 */
function generateApiDocs(outdir: string, stage: StageSettings['name']): string {
  const dir = path.join(outdir, 'api-docs');
  rmSync(dir, { recursive: true, force: true });
  const env: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'SystemRoot'])
    if (process.env[name] !== undefined) env[name] = process.env[name]!;
  const run = spawnSync(process.execPath, ['--import', 'tsx', GENERATOR, dir, stage], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (run.status !== 0)
    throw new Error(
      `${GENERATOR} failed (${run.error?.message ?? run.signal ?? `exit ${run.status}`}):\n${run.stderr}`,
    );
  return dir;
}

export interface ApiDocsProps {
  settings: StageSettings;
}

/** The documentation files (generated at synth, or `-c apiDocs=<dir>`) and what both distributions serve them with. */
export class ApiDocs extends Construct {
  /** The files, keyed as served (`api/v2/...`): a second source of each front end's BucketDeployment. */
  readonly source: ISource;
  /** The directory of those files. */
  readonly dir: string;
  private readonly headers: ResponseHeadersPolicy;
  private readonly pageRewrite: CloudFrontFunction;

  constructor(scope: Construct, id: string, { settings }: ApiDocsProps) {
    super(scope, id);
    const dir = settings.apiDocsPath ?? generateApiDocs(Stage.of(this)!.outdir, settings.name);
    const missing = REQUIRED.filter((file) => !existsSync(path.join(dir, file)));
    if (missing.length)
      throw new StageSettingsError(
        `apiDocs "${dir}" must hold ${REQUIRED.join(', ')} (missing ${missing.join(', ')}); build it with tsx ${GENERATOR} <dir>`,
      );
    this.dir = dir;
    this.source = Source.asset(dir);

    this.headers = new ResponseHeadersPolicy(this, 'Headers', {
      comment: `ticketing-${settings.name}: API documentation files (revalidated, own-origin CSP)`,
      securityHeadersBehavior: securityHeaders(DOCS_CSP, { overrideCsp: true }),
      // Browsers revalidate every time (If-None-Match → 304 from the edge); each deploy invalidates the edge copies.
      customHeadersBehavior: { customHeaders: [{ header: 'Cache-Control', value: 'no-cache', override: true }] },
    });
    this.pageRewrite = new CloudFrontFunction(this, 'PageRewrite', {
      code: FunctionCode.fromInline(DOCS_PAGE_FUNCTION),
      runtime: FunctionRuntime.JS_2_0,
      comment: `${DOCS_PATHS.page} is the stored ${DOCS_PATHS.pageFile}`,
    });
  }

  /** The behaviours for a distribution whose bucket origin is `files` (the same origin object as its default behaviour's). */
  behaviours(files: IOrigin): Record<string, BehaviorOptions> {
    const file = fileBehaviour(files, this.headers);
    const page: BehaviorOptions = {
      ...file,
      functionAssociations: [{ eventType: FunctionEventType.VIEWER_REQUEST, function: this.pageRewrite }],
    };
    // Exact paths: nothing else below /api/ leaves the API.
    return { [DOCS_PATHS.document]: file, [DOCS_PATHS.page]: page, [`${DOCS_PATHS.page}/*`]: page };
  }
}
