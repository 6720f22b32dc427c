import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';

/**
 * The local stand-in for a stage's CloudFront distributions: one server per front end
 * (admin SPA, customer portal) serving its static files from infra/pages/<name>/ with the
 * SPA fallback to index.html, and `/api/*` proxied to the local API. So the browser sees
 * the API on the front end's own origin and the auth cookie is first-party, as deployed.
 *
 * Each listens on 127.0.0.1 and, when the machine has IPv6, on ::1 with the same port:
 * `localhost` resolves to either (browsers and Node try ::1 first on many systems), so
 * http://localhost:<port> and http://127.0.0.1:<port> both reach it. Nothing listens on
 * other interfaces.
 */
export interface FrontEnd {
  name: string;
  port: number;
  /** `http://localhost:<port>` and `http://127.0.0.1:<port>`: both are allowed origins. */
  origins: [localhost: string, loopback: string];
  /** Where `/api/*` goes, e.g. `http://127.0.0.1:3000`; until set, `/api/*` answers 503. */
  proxyTo(apiOrigin: string): void;
  /**
   * The page's local settings, served as `/config.json` (until set: `{}`); a deployed front end has no such file,
   * its bucket answers 403, and the page takes its deployed defaults (the portal: Stripe.js). `connectSrc`: the
   * local origins the page calls besides its own (the Stripe stand-in), added to its CSP's `connect-src`.
   */
  configure(settings: Record<string, unknown>, options?: { connectSrc?: string[] }): void;
  close(): Promise<void>;
}

export interface FrontEndOptions {
  name: string;
  /** The directory served (index.html and its neighbours). */
  root: string;
  /** 0 picks a free port. */
  port: number;
  /** The Content-Security-Policy its files are served with, as the stage's CloudFront sends it; none: no header. */
  csp?: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** Hop-by-hop headers a proxy does not forward (RFC 9110 7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
]);

export async function startFrontEnd({ name, root, port, csp }: FrontEndOptions): Promise<FrontEnd> {
  let api: URL | undefined;
  let config = '{}';
  let pageHeaders: Record<string, string> = csp ? { 'Content-Security-Policy': csp } : {};
  const base = resolve(root);
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const pathname = new URL(req.url ?? '/', 'http://local').pathname;
    const served =
      pathname === '/api' || pathname.startsWith('/api/')
        ? proxy(req, res, api)
        : pathname === CONFIG_PATH
          ? serveConfig(config, req, res)
          : serveStatic(base, pathname, req, res, pageHeaders);
    served.catch((error: unknown) => {
      console.error(`${name}: ${req.method} ${req.url} failed:`, error);
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' }).end('Bad gateway');
      else res.destroy();
    });
  };

  const servers: Server[] = [];
  const listen = async (host: string, wanted: number) => {
    const server = createServer(onRequest);
    server.listen(wanted, host);
    await Promise.race([once(server, 'listening'), once(server, 'error').then(([error]) => Promise.reject(error))]);
    servers.push(server);
    return (server.address() as AddressInfo).port;
  };
  const actualPort = await listen('127.0.0.1', port);
  try {
    await listen('::1', actualPort);
  } catch (error) {
    // No IPv6 loopback on this machine: localhost resolves to 127.0.0.1 only.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EADDRNOTAVAIL' && code !== 'EAFNOSUPPORT') {
      await Promise.all(servers.map(closeServer));
      throw error;
    }
  }
  return {
    name,
    port: actualPort,
    origins: [`http://localhost:${actualPort}`, `http://127.0.0.1:${actualPort}`],
    proxyTo: (apiOrigin) => {
      api = new URL(apiOrigin);
    },
    configure: (settings, { connectSrc = [] } = {}) => {
      config = JSON.stringify(settings);
      if (csp && connectSrc.length > 0)
        pageHeaders = {
          'Content-Security-Policy': csp.replace(
            /connect-src [^;]*/,
            (sources) => `${sources} ${connectSrc.join(' ')}`,
          ),
        };
    },
    close: async () => {
      await Promise.all(servers.map(closeServer));
    },
  };
}

async function closeServer(server: Server): Promise<void> {
  const closed = once(server, 'close');
  server.close();
  server.closeAllConnections();
  await closed;
}

/** Where a page reads its local settings (FrontEnd.configure). */
const CONFIG_PATH = '/config.json';

async function serveConfig(config: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain' }).end('Method not allowed');
    return;
  }
  res.writeHead(200, {
    'Content-Type': TYPES['.json']!,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(req.method === 'HEAD' ? undefined : config);
}

/** A file under the root, else index.html (the SPA's client-side routes), as CloudFront's error responses do. */
async function serveStatic(
  root: string,
  pathname: string,
  req: IncomingMessage,
  res: ServerResponse,
  pageHeaders: Record<string, string>,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain' }).end('Method not allowed');
    return;
  }
  let file = resolve(root, `.${decodeURIComponentSafe(pathname)}`);
  if (file !== root && !file.startsWith(root + sep)) file = join(root, 'index.html');
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) file = join(root, 'index.html');
  res.writeHead(200, {
    'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
    // Pages change while a developer works on them: always revalidate.
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    ...pageHeaders,
  });
  if (req.method === 'HEAD') return void res.end();
  await pipeline(createReadStream(file), res);
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * Passes the request on as CloudFront's `/api/*` behaviour does: method, path, query,
 * the viewer's headers (Origin and Cookie included: CORS and the CSRF check read them)
 * except Host, and the body, streamed both ways. X-Forwarded-Host/-Proto say what the
 * browser used.
 */
async function proxy(req: IncomingMessage, res: ServerResponse, api: URL | undefined): Promise<void> {
  if (!api) {
    res.writeHead(503, { 'Content-Type': 'text/plain', 'Retry-After': '1' }).end('The API is still starting');
    return;
  }
  const headers: Record<string, string | string[]> = {};
  for (const [header, value] of Object.entries(req.headers)) {
    if (value !== undefined && header !== 'host' && !HOP_BY_HOP.has(header)) headers[header] = value;
  }
  headers['x-forwarded-host'] = req.headers.host ?? '';
  headers['x-forwarded-proto'] = 'http';
  headers['x-forwarded-for'] = req.socket.remoteAddress ?? '127.0.0.1';

  const upstream = httpRequest({ host: api.hostname, port: api.port, method: req.method, path: req.url, headers });
  const answered = new Promise<IncomingMessage>((resolveAnswer, reject) => {
    upstream.once('response', resolveAnswer);
    upstream.on('error', reject);
  });
  // The viewer going away aborts the upstream request instead of leaving it running.
  res.once('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  // Not awaited before the answer: the API may answer (413) before it has read the whole body.
  const sent = pipeline(req, upstream).catch(() => undefined);
  const answer = await answered;
  const out: Record<string, string | string[]> = {};
  for (const [header, value] of Object.entries(answer.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(header)) out[header] = value;
  }
  res.writeHead(answer.statusCode ?? 502, answer.statusMessage, out);
  await pipeline(answer, res);
  await sent;
}
