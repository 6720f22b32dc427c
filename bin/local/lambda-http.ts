import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { routes, type RouteRow } from '#shared/routes';
import { API_PREFIX } from '#shared/api-prefix';

/**
 * What API Gateway (HTTP API, payload format 2.0) does between a client and a Lambda,
 * redone locally: route matching, the event, the context, and writing the result back.
 * Pure functions, so the local server and the in-process test client share them.
 */

export interface LocalRequest {
  method: string;
  /** Path and query as received, e.g. `/api/v2/ticket?_limit=5`. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  sourceIp: string;
}

export interface RouteMatch {
  row: RouteRow;
  pathParameters: Record<string, string>;
}

const compiled = routes.map((row) => ({ row, segments: row.path.split('/').slice(1) }));

/** The path's segments below API_PREFIX (one trailing slash ignored), or undefined outside it. */
function segmentsOf(pathname: string): string[] | undefined {
  if (!pathname.startsWith(`${API_PREFIX}/`)) return undefined;
  const below = pathname.slice(API_PREFIX.length).replace(/(.)\/$/, '$1');
  return below.split('/').slice(1);
}

function matchPath(template: string[], actual: string[]): Record<string, string> | undefined {
  if (template.length !== actual.length) return undefined;
  const parameters: Record<string, string> = {};
  for (const [index, part] of template.entries()) {
    const value = actual[index]!;
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    if (name === undefined) {
      if (part !== value) return undefined;
    } else {
      if (!value) return undefined;
      parameters[name] = safeDecode(value);
    }
  }
  return parameters;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The route for a request; like API Gateway, the most specific (fewest parameters) wins. */
export function matchRoute(method: string, pathname: string): RouteMatch | undefined {
  const actual = segmentsOf(pathname);
  if (!actual) return undefined;
  let best: RouteMatch | undefined;
  for (const { row, segments } of compiled) {
    if (row.method !== method) continue;
    const pathParameters = matchPath(segments, actual);
    if (pathParameters && (!best || Object.keys(pathParameters).length < Object.keys(best.pathParameters).length)) {
      best = { row, pathParameters };
    }
  }
  return best;
}

/** The methods some route answers on this path (empty: the path is unknown). */
export function allowedMethods(pathname: string): string[] {
  const actual = segmentsOf(pathname);
  if (!actual) return [];
  const methods = compiled.filter(({ segments }) => matchPath(segments, actual)).map(({ row }) => row.method);
  return [...new Set(methods)];
}

const TEXTUAL = /^(text\/|application\/([\w.-]+\+)?json\b|application\/x-www-form-urlencoded\b)/i;

export function toApiGatewayEvent(request: LocalRequest, match: RouteMatch): APIGatewayProxyEventV2 {
  const [rawPath = '/', rawQueryString = ''] = splitOnce(request.url, '?');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === 'cookie') continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  const cookies = request.headers.cookie
    ?.split(';')
    .map((cookie) => cookie.trim())
    .filter(Boolean);

  // API Gateway joins repeated query keys with commas.
  const query: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(rawQueryString)) {
    query[key] = key in query ? `${query[key]},${value}` : value;
  }

  const hasBody = request.body.length > 0;
  const textual = TEXTUAL.test(headers['content-type'] ?? '');
  const now = new Date();
  return {
    version: '2.0',
    routeKey: `${match.row.method} ${API_PREFIX}${match.row.path}`,
    rawPath,
    rawQueryString,
    ...(cookies?.length ? { cookies } : {}),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(Object.keys(match.pathParameters).length ? { pathParameters: match.pathParameters } : {}),
    requestContext: {
      accountId: '123456789012',
      apiId: 'local',
      domainName: headers.host ?? '127.0.0.1',
      domainPrefix: (headers.host ?? '127.0.0.1').split('.')[0]!,
      requestId: randomUUID(),
      routeKey: `${match.row.method} ${API_PREFIX}${match.row.path}`,
      stage: '$default',
      time: clfTime(now),
      timeEpoch: now.getTime(),
      http: {
        method: request.method,
        path: rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: request.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
    },
    body: hasBody ? request.body.toString(textual ? 'utf8' : 'base64') : undefined,
    isBase64Encoded: hasBody && !textual,
  };
}

function splitOnce(value: string, separator: string): [string, string?] {
  const at = value.indexOf(separator);
  return at < 0 ? [value] : [value.slice(0, at), value.slice(at + 1)];
}

/** API Gateway's `requestContext.time`: `22/Nov/2026:08:12:30 +0000`. */
function clfTime(date: Date): string {
  const [, day, month, year, time] = date.toUTCString().split(' ');
  return `${day}/${month}/${year}:${time} +0000`;
}

/** A Lambda context for one invocation; the timeout is API Gateway's 30 s integration limit. */
export function lambdaContext(event: APIGatewayProxyEventV2, row: RouteRow, timeoutMs = 30_000): Context {
  const functionName = `ticketing-local-${row.handler.replaceAll('/', '-')}`;
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:123456789012:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: event.requestContext.requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}

export function writeResult(res: ServerResponse, result: APIGatewayProxyStructuredResultV2): void {
  res.statusCode = result.statusCode ?? 200;
  for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, String(value));
  if (result.cookies?.length) res.setHeader('set-cookie', result.cookies);
  const body = result.body ?? '';
  res.end(result.isBase64Encoded ? Buffer.from(body, 'base64') : body);
}
