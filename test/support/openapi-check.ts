import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { afterAll } from 'vitest';
import addFormatsModule from 'ajv-formats';
import type { RouteRow } from '#shared/routes';
import { matchRoute } from '../../bin/local/lambda-http.ts';

/**
 * Every answer the integration suite gets is checked against the OpenAPI document
 * (README "OpenAPI"): the operation must document the status, the content type,
 * the body (JSON Schema 2020-12, as OpenAPI 3.1 writes it) and the headers that matter
 * (required ones, Retry-After on the API's own 429/503, Deprecation on deprecated routes,
 * Location on a redirect). A mismatch throws, failing the calling test with the details.
 * The document is built once per change of the code (loadDocument); each operation+status compiles on first use.
 */

type Json = Record<string, any>;
export interface Answer {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: unknown;
  raw: string;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const DOCUMENT_ID = 'https://ticketing.test/openapi.json';

interface Checker {
  document: Json;
  ajv: Ajv2020;
  compiled: Map<string, ValidateFunction>;
}

let checker: Promise<Checker> | undefined;
let checked = 0;

// One line per test file (modules are fresh per file): how many of its answers were checked.
afterAll(() => {
  if (checked) console.info(`[openapi-check] ${checked} answers validated against the OpenAPI document`);
});

const ROOT = join(import.meta.dirname, '../..');
/** What the document is built from: a change to any of these files builds it again. */
const SOURCES = ['shared', 'functions', 'bin/openapi', 'bin/bench/settings.ts', 'package-lock.json'];

function sourceStamp(): string {
  const hash = createHash('sha256');
  const visit = (path: string) => {
    const stat = statSync(path);
    if (stat.isDirectory()) for (const name of readdirSync(path).sort()) visit(join(path, name));
    else hash.update(`${path}\0${stat.size}\0${stat.mtimeMs}\n`);
  };
  for (const source of SOURCES) visit(join(ROOT, source));
  return hash.digest('hex').slice(0, 16);
}

/**
 * Building the document imports all 55 handlers (about 2.5 s); every test file would pay it.
 * The first file to need it writes it under .local/, keyed by the sources' sizes and mtimes;
 * the others read it (a few ms).
 */
async function loadDocument(): Promise<Json> {
  const file = join(ROOT, '.local/openapi-check', `${sourceStamp()}.json`);
  if (existsSync(file)) {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as Json;
    } catch {
      // Pruned meanwhile by a worker that saw newer code: build it here.
    }
  }
  // Imported only here: the generator registers component ids on the shared schemas and loads every handler.
  const { buildOpenApi } = await import('../../bin/openapi/document.ts');
  const { loadRouteOperations } = await import('../../bin/openapi/load-routes.ts');
  const document = buildOpenApi(await loadRouteOperations()) as Json;
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(document));
  renameSync(temporary, file);
  // Documents of earlier code are never read again.
  for (const name of readdirSync(dirname(file)))
    if (name.endsWith('.json') && join(dirname(file), name) !== file)
      rmSync(join(dirname(file), name), { force: true });
  return document;
}

/** `2026-05-01T10:00:00.000Z` (instants) or `2026-05-01T12:00:00+02:00` (event-local times). */
export const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3}Z|[+-]\d{2}:\d{2})$/;

async function build(): Promise<Checker> {
  const document = await loadDocument();
  // strict off: the document carries OpenAPI's own keywords (paths, example, ...) beside the schemas.
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  ajv.addFormat('binary', true);
  // The API's one date rule (README "Conventions the spec leaves open"), stricter than RFC 3339 alone: an
  // instant as `toISOString()` writes it (milliseconds, `Z`); an event-local time in the
  // event's offset (whole seconds, `±HH:MM`). Every date-time field of every answer is held to it.
  ajv.addFormat('date-time', DATE_TIME);
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  return { document, ajv, compiled: new Map() };
}

const pointer = (...parts: string[]) => parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/** A `$ref` within the document (`#/components/...`), followed until a plain object. */
function deref(document: Json, value: Json): Json {
  let current = value;
  while (typeof current?.$ref === 'string') {
    current = (current.$ref as string)
      .slice(2)
      .split('/')
      .reduce<Json>((node, key) => node?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], document);
  }
  return current;
}

function validator(state: Checker, location: string): ValidateFunction {
  let validate = state.compiled.get(location);
  if (!validate) {
    validate = state.ajv.compile({ $ref: `${DOCUMENT_ID}#/${location}` });
    state.compiled.set(location, validate);
  }
  return validate;
}

/** Throws when the answer is not one the route's operation documents. */
export async function checkAnswer(
  row: Pick<RouteRow, 'method' | 'path'>,
  requestPath: string,
  answer: Answer,
): Promise<void> {
  checker ??= build();
  const state = await checker;
  const where = `OpenAPI: ${row.method} ${requestPath} answered ${answer.status}`;
  const method = row.method.toLowerCase();
  const operation = state.document.paths?.[row.path]?.[method] as Json | undefined;
  if (!operation) throw new Error(`${where}, but the document has no operation ${row.method} ${row.path}.`);
  const status = String(answer.status);
  const key =
    status in operation.responses ? status : `${status[0]}XX` in operation.responses ? `${status[0]}XX` : 'default';
  const documented = operation.responses[key] as Json | undefined;
  if (!documented) {
    throw new Error(
      `${where}, a status its operation does not document (documented: ${Object.keys(operation.responses).join(', ')}). Body: ${answer.raw.slice(0, 500)}`,
    );
  }
  const response = deref(state.document, documented);
  const problems: string[] = [];

  const contentType = answer.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  const content = response.content as Json | undefined;
  if (!content) {
    if (answer.raw !== '') problems.push(`a body where none is documented (${contentType ?? 'no content-type'})`);
  } else if (!contentType || !(contentType in content)) {
    problems.push(`content-type ${contentType ?? '(none)'}; documented: ${Object.keys(content).join(', ')}`);
  } else if (contentType.endsWith('json')) {
    const at = documented.$ref
      ? pointer(...(documented.$ref as string).slice(2).split('/'), 'content', contentType, 'schema')
      : pointer('paths', row.path, method, 'responses', key, 'content', contentType, 'schema');
    const validate = validator(state, at);
    if (!validate(answer.body)) {
      problems.push(
        ...(validate.errors ?? [])
          .slice(0, 10)
          .map((error) => `body${error.instancePath} ${error.message} (${error.schemaPath})`),
      );
    }
  }

  const headers = (response.headers ?? {}) as Json;
  for (const [name, header] of Object.entries(headers)) {
    const spec = deref(state.document, header);
    const value = answer.headers[name.toLowerCase()];
    // The API's own 429/503 (problem details) always say when to come back; the gateway's throttle does not.
    const required =
      spec.required === true ||
      (name === 'Retry-After' &&
        (answer.status === 503 || (contentType === 'application/problem+json' && answer.status === 429)));
    if (value === undefined) {
      if (required) problems.push(`no ${name} header`);
      continue;
    }
    const schema = spec.schema as Json;
    if (schema?.const !== undefined && value !== schema.const)
      problems.push(`${name}: ${value}, documented ${schema.const}`);
    if (schema?.pattern && !new RegExp(schema.pattern as string, 'u').test(value))
      problems.push(`${name}: ${value} does not match ${schema.pattern}`);
  }
  // Deprecated operations say so on every success answer (shared/http/route.ts).
  if (operation.deprecated && answer.status < 400 && answer.headers.deprecation !== 'true')
    problems.push('no Deprecation header on a deprecated route');

  if (problems.length)
    throw new Error(`${where}, not as documented:\n  - ${problems.join('\n  - ')}\nBody: ${answer.raw.slice(0, 500)}`);
  checked++;
}

/**
 * The same check for an answer that came over HTTP from the local server (`fetch`): the
 * route is found as the server finds it; a path no route matches is the server's own 404/405.
 */
export async function checkHttpAnswer(
  method: string,
  url: string,
  answer: { status: number; headers: Headers | Record<string, string>; raw: string },
): Promise<void> {
  const pathname = new URL(url, 'http://local.test').pathname;
  const match = matchRoute(method.toUpperCase(), pathname);
  if (!match) return;
  const headers: Record<string, string> = {};
  const entries = answer.headers instanceof Headers ? [...answer.headers.entries()] : Object.entries(answer.headers);
  for (const [name, value] of entries) headers[name.toLowerCase()] = value;
  const json = /^application\/([\w.-]+\+)?json\b/i.test(headers['content-type'] ?? '') && answer.raw !== '';
  await checkAnswer(match.row, pathname, {
    status: answer.status,
    headers,
    raw: answer.raw,
    body: json ? JSON.parse(answer.raw) : answer.raw,
  });
}
