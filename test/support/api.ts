import { randomInt } from 'node:crypto';
import { expect } from 'vitest';
import { invoke } from '../../bin/local/invoke.ts';
import { matchRoute, toApiGatewayEvent } from '../../bin/local/lambda-http.ts';
import { checkAnswer } from './openapi-check.ts';

export interface CallOptions {
  headers?: Record<string, string>;
  /** A Buffer or string is sent as is (with the caller's content-type, if any); anything else as JSON. */
  body?: unknown;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** `name=value` pairs, sent as one Cookie header. */
  cookies?: string[];
  /** The client's address (API Gateway's `sourceIp`); a random one in 198.18.0.0/16 by default. */
  sourceIp?: string;
}

export interface CallResult {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** The Set-Cookie values. */
  cookies: string[];
  /** Parsed when the answer is JSON or problem+json, else the raw text; `any` so tests can reach in. */
  body: any;
  raw: string;
  /** The body's bytes as sent (a binary answer, e.g. a PDF, is not text). */
  bytes: Buffer;
}

/**
 * Calls the API in-process, the way API Gateway calls Lambda: the same route matching,
 * event and handler modules as the local server, without HTTP. An unknown route throws.
 */
export async function call(method: string, pathWithQuery: string, options: CallOptions = {}): Promise<CallResult> {
  const pathname = pathWithQuery.split('?')[0]!;
  const match = matchRoute(method, pathname);
  if (!match) throw new Error(`No route for ${method} ${pathname} in shared/routes.ts`);

  const headers: Record<string, string> = { host: 'ticketing.test' };
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  let body = Buffer.alloc(0);
  if (Buffer.isBuffer(options.body) || typeof options.body === 'string') {
    body = Buffer.from(options.body);
  } else if (options.body !== undefined) {
    body = Buffer.from(JSON.stringify(options.body));
    headers['content-type'] ??= 'application/json';
  }
  if (body.length) headers['content-length'] = String(body.length);
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.cookies?.length) headers.cookie = options.cookies.join('; ');

  // A fresh address per call unless the test names one: the per-client login limits must not add up across tests.
  const sourceIp = options.sourceIp ?? `198.18.${randomInt(256)}.${randomInt(256)}`;
  const event = toApiGatewayEvent({ method, url: pathWithQuery, headers, body, sourceIp }, match);
  const result = await invoke(match.row, event);

  const responseHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) responseHeaders[name.toLowerCase()] = String(value);
  const bytes = Buffer.from(result.body ?? '', result.isBase64Encoded ? 'base64' : 'utf8');
  const raw = bytes.toString('utf8');
  const json = /^application\/([\w.-]+\+)?json\b/i.test(responseHeaders['content-type'] ?? '') && raw !== '';
  const answer: CallResult = {
    status: result.statusCode ?? 200,
    headers: responseHeaders,
    cookies: result.cookies ?? [],
    body: json ? JSON.parse(raw) : raw,
    raw,
    bytes,
  };
  // Every answer must be one the OpenAPI document gives for this operation (README "OpenAPI").
  await checkAnswer(match.row, pathname, answer);
  return answer;
}

/** A page of a list answer. */
export interface Page<T = Record<string, any>> {
  totalCount: number;
  count: number;
  limit: number;
  offset: number;
  data: T[];
  /** The cursor of the next page, on the lists that page by cursor. */
  next?: string | null;
  totalCountIsEstimate?: true;
}

/** GETs one page of a list, which must answer 200. */
export async function getPage<T = Record<string, any>>(pathWithQuery: string, token: string): Promise<Page<T>> {
  const response = await call('GET', pathWithQuery, { token });
  expect(response.status, response.raw).toBe(200);
  return response.body as Page<T>;
}

type Listed = readonly { id?: unknown }[];
/** The ids of a page's items, or of a list of items, as numbers (some lists answer them as strings). */
export const idsOf = (list: Listed | { data: Listed }): number[] =>
  ('data' in list ? list.data : list).map((item) => Number(item.id));

/**
 * The answer's body with each mention of `id` in its texts written `<id>`: two refusals naming different ids (an
 * event out of reach and a missing one) compare equal exactly when they say the same thing.
 */
export const blankingId = (response: CallResult, id: number): string =>
  JSON.stringify(response.body, (_key, value: unknown) =>
    typeof value === 'string' ? value.replace(new RegExp(`\\b${id}\\b`, 'g'), '<id>') : value,
  );
