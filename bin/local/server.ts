import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { preflightHeaders } from '#shared/http/cors';
import { apiAnswerHeaders } from '#shared/http/response-headers';
import { isDocsPath, serveDocs } from './docs.ts';
import { invoke } from './invoke.ts';
import { allowedMethods, matchRoute, toApiGatewayEvent, writeResult } from './lambda-http.ts';

/** Lambda refuses request payloads above 6 MB; the local server answers 413 as well. */
const MAX_BODY_BYTES = 6 * 1024 * 1024;

export interface ApiServer {
  /** The server's origin, e.g. `http://127.0.0.1:3000` (the API is below `/api/v2`). */
  url: string;
  close(): Promise<void>;
}

/** The local stand-in for API Gateway: dispatches by the route table to the Lambda handlers. */
export async function startApiServer({
  port,
  host = '127.0.0.1',
}: {
  port: number;
  host?: string;
}): Promise<ApiServer> {
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error(`${req.method} ${req.url} failed:`, error);
      if (!res.headersSent)
        problem(req, res, 500, 'internal', 'Internal error', 'The handler threw; see the server log.');
      else res.destroy();
    });
  });
  server.listen(port, host);
  await once(server, 'listening');
  const { port: actualPort } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${actualPort}`,
    close: async () => {
      const closed = once(server, 'close');
      server.close();
      server.closeAllConnections();
      await closed;
    },
  };
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? 'GET';
  const url = req.url ?? '/';
  const pathname = new URL(url, 'http://local').pathname;

  // API Gateway answers preflights itself, from the API's CORS configuration.
  if (method === 'OPTIONS') {
    res.writeHead(204, preflightHeaders(req.headers.origin) ?? {}).end();
    return;
  }

  // The documentation files (not API routes), as the deployed front ends serve them from their bucket.
  if (isDocsPath(pathname)) return serveDocs(req, res, pathname);

  const match = matchRoute(method, pathname);
  if (!match) {
    const allow = allowedMethods(pathname);
    if (allow.length) {
      res.setHeader('Allow', allow.join(', '));
      problem(req, res, 405, 'method-not-allowed', 'Method not allowed', `${method} is not allowed on ${pathname}.`);
    } else {
      problem(req, res, 404, 'not-found', 'Not found', `No route matches ${method} ${pathname}.`);
    }
    return;
  }

  const body = await readBody(req);
  if (!body) {
    res.setHeader('Connection', 'close');
    problem(
      req,
      res,
      413,
      'payload-too-large',
      'Payload too large',
      `The request body exceeds ${MAX_BODY_BYTES} bytes.`,
    );
    return;
  }
  const event = toApiGatewayEvent(
    { method, url, headers: req.headers, body, sourceIp: req.socket.remoteAddress ?? '127.0.0.1' },
    match,
  );
  writeResult(res, await invoke(match.row, event));
}

/**
 * The whole body, or undefined once it passes MAX_BODY_BYTES. The rest is left unread
 * (not drained) and the 413 closes the connection.
 */
function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      req.off('data', onData).pause();
      resolve(undefined);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

/**
 * An answer the server makes itself, with the same security headers as the handlers' answers and
 * CORS for any of our origins, as API Gateway's own answers carry its per-API CORS configuration.
 */
function problem(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  slug: string,
  title: string,
  detail: string,
): void {
  res.writeHead(status, {
    ...apiAnswerHeaders(req.headers.origin, 'public'),
    'Content-Type': 'application/problem+json',
  });
  res.end(JSON.stringify({ type: `/problems/${slug}`, title, status, detail }));
}
