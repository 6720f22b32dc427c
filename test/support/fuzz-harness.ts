import { randomInt } from 'node:crypto';
import fc from 'fast-check';
import * as z from '#shared/schema';
import type { Schemas } from '#shared/http/route';
import { routeKey, type RouteRow } from '#shared/routes';
import { call, type CallResult } from './api.ts';
import { GIF_BYTES, JPEG_BYTES, PNG_BYTES } from './images.ts';
import { form, multipartBody } from './multipart.ts';
import {
  CONTENT_TYPES,
  fromSchema,
  hostileValue,
  mutated,
  pathSegment,
  queryString,
  rawBodies,
  type JsonSchema,
  type Known,
} from './fuzz-inputs.ts';
import { tableChanges, writesSoFar, type TableChange, type TableSnapshots } from './fuzz-table.ts';
import { schemasOf } from './handlers.ts';

/**
 * Runs generated requests against one route at a time (test/deep/fuzz-*.test.ts):
 * counts answers by class, records every 5xx, and compares the fuzz table before and
 * after each rejected write (per input) and each batch of reads.
 */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 200);
/**
 * A refused write is compared with a full Scan when it completed any DynamoDB write, and
 * every this many refused inputs whatever the write log says (FUZZ_SCAN_EVERY=1: after
 * every input), and once at the end of each route.
 */
export const FUZZ_SCAN_EVERY = Number(process.env.FUZZ_SCAN_EVERY ?? 10);
/** Printed with the summary; drawn from the file's seeded stream (TEST_SEED replays it), or FUZZ_SEED=<n> alone. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? randomInt(2 ** 31));

/** A 4xx that is meant to write: which route, which records, and why. */
export interface MeantWrite {
  route: string;
  /** Keys (`PK|SK`) the refusal may add or change. */
  key: RegExp;
  reason: string;
}

export interface FuzzWorld {
  snapshots: TableSnapshots;
  /** Existing values by field name (body and query properties). */
  known: Known;
  /** Existing values of a path parameter of a route. */
  pathKnown(row: RouteRow, parameter: string): readonly unknown[];
  /** The caller a route wants, signed in (undefined on public routes). */
  token(row: RouteRow): Promise<string | undefined>;
  /** A token of the wrong kind or none, for the few unauthenticated inputs. */
  otherToken(row: RouteRow): Promise<string | undefined>;
  /** After a success: tokens whose session a logout or password change ended are issued again. */
  afterSuccess(): Promise<void>;
  meantWrites: readonly MeantWrite[];
  /** Body generators replacing the schema's where it only says `unknown` (bulk items). */
  bodies?: Partial<Record<string, fc.Arbitrary<unknown>>>;
}

export interface RouteStats {
  route: string;
  inputs: number;
  s2xx: number;
  s3xx: number;
  s4xx: number;
  s5xx: number;
  tableChecks: number;
  failures: string[];
  /** Time spent in requests and in table snapshots (FUZZ_DEBUG prints it). */
  callMs: number;
  scanMs: number;
}

interface FuzzRequest {
  path: string[];
  query: string;
  body?: Buffer | unknown;
  contentType?: string;
  auth: 'own' | 'other' | 'none' | 'garbage';
  idempotencyKey?: string;
}

const jsonSchemaOf = (schema: z.ZodMiniType | undefined): JsonSchema | undefined =>
  schema ? (z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema) : undefined;

const boundary = 'fuzz-boundary';
/** Photo uploads: real images, other files, and multipart that is malformed in every way a parser can trip on. */
const multipartBodies: fc.Arbitrary<{ body: Buffer; contentType?: string }> = fc.oneof(
  // A real photo as a browser sends it, so part of the inputs reach the decoding and the upload.
  {
    arbitrary: fc.constant(form([{ name: 'file', filename: 'photo.png', contentType: 'image/png', data: PNG_BYTES }])),
    weight: 2,
  },
  fc
    .constantFrom(
      PNG_BYTES,
      JPEG_BYTES,
      GIF_BYTES,
      Buffer.from('<html><script>alert(1)</script>'),
      Buffer.concat([JPEG_BYTES.subarray(0, 4), Buffer.from('<html>')]),
    )
    .chain((data) =>
      fc
        .tuple(
          fc.constantFrom('file', 'photo', '', 'file"; name="x'),
          fc.constantFrom('a.png', '../../x.jpg', '', 'é\u0000.png', 'x'.repeat(600)),
          fc.constantFrom<string | undefined>('image/png', 'image/jpeg', 'text/html', undefined, 'image/svg+xml'),
        )
        .map(([name, filename, contentType]) =>
          form([{ name, filename, data, ...(contentType ? { contentType } : {}) }]),
        ),
    ),
  fc
    .uint8Array({ maxLength: 300 })
    .map((bytes) => ({ body: Buffer.from(bytes), contentType: `multipart/form-data; boundary=${boundary}` })),
  fc
    .constantFrom(
      multipartBody(boundary, [{ name: 'file', value: 'not a file' }]),
      multipartBody(boundary, [
        { name: 'file', filename: 'a.png', data: PNG_BYTES },
        { name: 'file', filename: 'b.png', data: PNG_BYTES },
      ]),
      multipartBody(
        boundary,
        Array.from({ length: 500 }, (_, i) => ({ name: `f${i}`, value: 'x' })),
      ),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n${' '.repeat(16 * 1024)}\r\n\r\n`,
      ),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n${'x'.repeat(100)}`,
      ),
      Buffer.from(`--${boundary}--\r\n`),
      Buffer.from(`--${boundary}\r\n\r\n\r\n--${boundary}--`),
      Buffer.from(`${'-'.repeat(10_000)}${boundary}`),
      Buffer.from(''),
    )
    .map((body) => ({ body, contentType: `multipart/form-data; boundary=${boundary}` })),
  fc
    .constantFrom(
      'multipart/form-data',
      'multipart/form-data; boundary=',
      `multipart/form-data; boundary="${'b'.repeat(200)}"`,
      'multipart/mixed; boundary=x',
      'application/json',
    )
    .map((contentType) => ({
      body: multipartBody('x', [{ name: 'file', filename: 'a.png', data: PNG_BYTES }]),
      contentType,
    })),
);

function requestArbitrary(row: RouteRow, schemas: Schemas, world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const pathSchema = jsonSchemaOf(schemas.path);
  const parameters = [...row.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  const path = fc.tuple(
    ...parameters.map((name) =>
      pathSegment(pathSchema?.properties?.[name] ?? { type: 'string' }, world.pathKnown(row, name)),
    ),
  );
  const query = queryString(jsonSchemaOf(schemas.query), world.known);

  let body: fc.Arbitrary<{ body?: unknown; contentType?: string }>;
  if (schemas.multipart) {
    body = multipartBodies;
  } else if (schemas.body) {
    const valid = world.bodies?.[routeKey(row)] ?? fromSchema(jsonSchemaOf(schemas.body)!, world.known);
    const json = fc.oneof(
      { arbitrary: valid, weight: 6 },
      { arbitrary: mutated(valid), weight: 4 },
      { arbitrary: rawBodies(valid), weight: 3 },
      { arbitrary: hostileValue, weight: 1 },
    );
    const contentType = fc.oneof(
      { arbitrary: fc.constant<string | undefined>('application/json'), weight: 9 },
      fc.constantFrom(...CONTENT_TYPES),
    );
    body = fc.tuple(json, contentType).map(([value, type]) => ({
      body: Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value) ?? 'null'),
      contentType: type,
    }));
  } else {
    // A route without a body must refuse one.
    body = fc.oneof(
      { arbitrary: fc.constant({}), weight: 8 },
      {
        arbitrary: fc
          .tuple(rawBodies(fc.jsonValue({ maxDepth: 1 })), fc.constantFrom(...CONTENT_TYPES, 'application/json'))
          .map(([raw, contentType]) => ({ body: raw, contentType })),
        weight: 2,
      },
    );
  }
  const auth = fc.oneof(
    { arbitrary: fc.constant<'own'>('own'), weight: 22 },
    fc.constantFrom<FuzzRequest['auth']>('other', 'none', 'garbage'),
  );
  const idempotencyKey = row.idempotent
    ? fc.option(fc.oneof(fc.uuid(), fc.constantFrom('', ' ', 'k'.repeat(300), 'ключ', '\u0000', 'a,b')), { freq: 3 })
    : fc.constant(null);
  return fc.tuple(path, query, body, auth, idempotencyKey).map(([segments, q, b, a, key]) => ({
    path: segments,
    query: q,
    ...b,
    auth: a,
    ...(key === null ? {} : { idempotencyKey: key }),
  }));
}

function urlOf(row: RouteRow, request: FuzzRequest): string {
  let index = 0;
  const path = row.path.replace(/\{\w+\}/g, () => request.path[index++]!);
  return `/api/v2${path}${request.query ? `?${request.query}` : ''}`;
}

const describeInput = (url: string, request: FuzzRequest) =>
  `${url.slice(0, 300)} auth=${request.auth} type=${request.contentType} body=${Buffer.isBuffer(request.body) ? request.body.subarray(0, 300).toString('utf8') : ''}`;

async function send(
  row: RouteRow,
  request: FuzzRequest,
  world: FuzzWorld,
): Promise<{ url: string; response: CallResult }> {
  const url = urlOf(row, request);
  const headers: Record<string, string> = {};
  if (request.contentType !== undefined) headers['content-type'] = request.contentType;
  if (request.idempotencyKey !== undefined) headers['idempotency-key'] = request.idempotencyKey;
  const token =
    request.auth === 'own'
      ? await world.token(row)
      : request.auth === 'other'
        ? await world.otherToken(row)
        : request.auth === 'garbage'
          ? 'eyJhbGciOiJub25lIn0.e30.'
          : undefined;
  return { url, response: await call(row.method, url, { headers, body: request.body, ...(token ? { token } : {}) }) };
}

const allowed = (world: FuzzWorld, row: RouteRow, change: TableChange) =>
  world.meantWrites.some((meant) => meant.route === routeKey(row) && meant.key.test(change.key));

/** Sends `runs` generated requests to a route, one at a time; the table is compared as described above. */
export async function fuzzRoute(row: RouteRow, world: FuzzWorld, runs = FUZZ_RUNS): Promise<RouteStats> {
  const key = routeKey(row);
  const schemas = await schemasOf(row);
  const inputs = fc.sample(requestArbitrary(row, schemas, world), { numRuns: runs, seed: FUZZ_SEED });
  const stats: RouteStats = {
    route: key,
    inputs: 0,
    s2xx: 0,
    s3xx: 0,
    s4xx: 0,
    s5xx: 0,
    tableChecks: 0,
    failures: [],
    callMs: 0,
    scanMs: 0,
  };
  const take = async () => {
    const started = performance.now();
    const snapshot = await world.snapshots.take();
    stats.scanMs += performance.now() - started;
    return snapshot;
  };
  const writes = row.method !== 'GET';
  let baseline = await take();

  // Refused inputs since the last full comparison, for the report if one shows a change.
  let unchecked: string[] = [];
  const compare = async (label: string) => {
    const after = await take();
    stats.tableChecks++;
    const changes = tableChanges(baseline, after).filter((change) => !allowed(world, row, change));
    if (changes.length)
      stats.failures.push(
        `${label} changed ${JSON.stringify(changes.slice(0, 5))} after ${unchecked.slice(-5).join(' | ')}`,
      );
    baseline = after;
    unchecked = [];
  };
  for (const request of inputs) {
    let url = '';
    let response: CallResult;
    const writesBefore = writesSoFar();
    const started = performance.now();
    try {
      ({ url, response } = await send(row, request, world));
      stats.callMs += performance.now() - started;
    } catch (error) {
      stats.inputs++;
      stats.s5xx++;
      stats.failures.push(`threw ${(error as Error).stack?.slice(0, 400)} for ${describeInput(url, request)}`);
      continue;
    }
    stats.inputs++;
    const { status } = response;
    if (status >= 500) {
      stats.s5xx++;
      stats.failures.push(`${status} ${response.raw.slice(0, 300)} for ${describeInput(url, request)}`);
    } else if (status >= 400) stats.s4xx++;
    else if (status >= 300) stats.s3xx++;
    else stats.s2xx++;

    if (status < 400 && writes) {
      // Accepted: what it wrote is the new baseline. The refusals since the last Scan completed no write (else they
      // were compared on the spot), so the write log vouches for them.
      await world.afterSuccess();
      baseline = await take();
      unchecked = [];
    } else if (writes) {
      unchecked.push(`${status} ${describeInput(url, request)}`);
      const wrote = writesSoFar() > writesBefore;
      if (wrote || unchecked.length >= FUZZ_SCAN_EVERY) await compare(wrote ? `${status} (it wrote)` : `${status}`);
    }
  }
  // Reads never write, whatever they answer: one comparison for the batch; writes: the last refusals.
  await compare(writes ? 'the last refusals' : 'reads');
  if (process.env.FUZZ_DEBUG)
    console.log(`${key}: requests ${Math.round(stats.callMs)} ms, snapshots ${Math.round(stats.scanMs)} ms`);
  return stats;
}

/** The summary printed once per fuzz file. */
export function summary(title: string, all: RouteStats[]): string {
  const lines = all.map(
    (s) =>
      `${s.route.padEnd(48)} ${String(s.inputs).padStart(6)} ${String(s.s2xx).padStart(5)} ${String(s.s3xx).padStart(4)} ${String(s.s4xx).padStart(5)} ${String(s.s5xx).padStart(4)} ${String(s.tableChecks).padStart(6)}`,
  );
  const total = all.reduce((sum, s) => sum + s.inputs, 0);
  const errors = all.reduce((sum, s) => sum + s.s5xx, 0);
  return [
    `fuzz ${title} (seed ${FUZZ_SEED}, ${FUZZ_RUNS} per route): ${total} inputs, ${errors} × 5xx`,
    `${'route'.padEnd(48)} ${'inputs'.padStart(6)} ${'2xx'.padStart(5)} ${'3xx'.padStart(4)} ${'4xx'.padStart(5)} ${'5xx'.padStart(4)} ${'table'.padStart(6)}`,
    ...lines,
  ].join('\n');
}
