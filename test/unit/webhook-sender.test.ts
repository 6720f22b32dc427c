import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  checkedLookup,
  checkReceiverUrl,
  RefusedAddress,
  sendWebhook,
  USER_AGENT,
} from '#shared/webhooks/services/webhook-sender';

const strict = { allowLoopbackHttp: false };
const local = { allowLoopbackHttp: true };

/** What the receiver saw of one request. */
interface Hit {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver on 127.0.0.1: records every request, then answers with `respond` (each test sets it). */
let respond: (request: http.IncomingMessage, answer: http.ServerResponse) => void;
let hits: Hit[];
let connections: number;
const server = http.createServer((request, answer) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    hits.push({
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
      body: Buffer.concat(chunks).toString(),
    });
    respond(request, answer);
  });
});
server.on('connection', () => {
  connections += 1;
});
let base: string;

beforeAll(async () => {
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
beforeEach(() => {
  hits = [];
  connections = 0;
  respond = (_request, answer) => answer.end('ok');
});
afterEach(() => {
  server.closeAllConnections();
  vi.restoreAllMocks();
});
afterAll(() => new Promise<void>((closed) => server.close(() => closed())));

const post = (url: string, headers: Record<string, string> = {}) => ({ url, headers, body: '{"event":"ticket.sold"}' });

/** dns.promises.lookup answering `addresses` for every name (the module resolves through it at call time). */
const resolving = (...answers: string[][]) => {
  const lookup = vi.spyOn(dns.promises, 'lookup') as unknown as ReturnType<typeof vi.fn>;
  for (const addresses of answers)
    lookup.mockResolvedValueOnce(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  return lookup;
};

const notFound = () =>
  Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.example.com'), {
    code: 'ENOTFOUND',
    syscall: 'getaddrinfo',
  });

describe('sendWebhook', () => {
  it('POSTs the body and headers as given and reports a 200 as answered', async () => {
    const body = JSON.stringify({ event: 'ticket.sold', holder: 'Zoë Ünal' });
    const headers = { 'x-webhook-signature': 'sha256=0badc0de', 'content-type': 'application/json; charset=utf-8' };

    const outcome = await sendWebhook({ url: `${base}/hooks/in?tenant=7`, headers, body }, local);

    expect(outcome).toMatchObject({ kind: 'answered', status: 200 });
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ method: 'POST', url: '/hooks/in?tenant=7', body });
    expect(hits[0]?.headers).toMatchObject({
      'x-webhook-signature': 'sha256=0badc0de',
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      'user-agent': USER_AGENT,
    });
  });

  it("keeps the caller's user-agent, and its own framing headers whatever the caller says", async () => {
    const headers = { 'User-Agent': 'acme-hooks/2', 'Content-Length': '1', Host: 'internal.example', Connection: 'x' };

    await sendWebhook(post(`${base}/`, headers), local);

    expect(hits[0]?.headers['user-agent']).toBe('acme-hooks/2');
    expect(hits[0]?.headers['content-length']).toBe(String(Buffer.byteLength(post('').body)));
    expect(hits[0]?.headers.host).toBe(base.slice('http://'.length));
    expect(hits[0]?.headers['content-type']).toBe('application/json');
    expect(hits[0]?.body).toBe(post('').body);
  });

  it('reports a 500 as answered with its status', async () => {
    respond = (_request, answer) => {
      answer.statusCode = 500;
      answer.end('broken');
    };
    expect(await sendWebhook(post(`${base}/`), local)).toMatchObject({ kind: 'answered', status: 500 });
  });

  it('returns a 302 as the answer and never requests its Location', async () => {
    respond = (request, answer) => {
      if (request.url === '/moved') answer.writeHead(302, { location: `${base}/target` }).end();
      else answer.end('target');
    };

    expect(await sendWebhook(post(`${base}/moved`), local)).toMatchObject({ kind: 'answered', status: 302 });
    expect(hits.map((hit) => hit.url)).toEqual(['/moved']);
  });

  it('fails with timeout when the receiver never answers', async () => {
    respond = () => {};
    const outcome = await sendWebhook(post(`${base}/`), local, { timeoutMs: 300 });
    expect(outcome).toMatchObject({ kind: 'failed', reason: 'timeout' });
    expect(hits).toHaveLength(1);
  });

  it('keeps the status of a receiver that answers, then stalls in its body until the deadline', async () => {
    respond = (_request, answer) => {
      answer.writeHead(202);
      answer.write('started…');
    };
    expect(await sendWebhook(post(`${base}/`), local, { timeoutMs: 300 })).toMatchObject({
      kind: 'answered',
      status: 202,
    });
  });

  it('answers with the status of a receiver streaming 1 MB', async () => {
    respond = (_request, answer) => {
      answer.writeHead(200);
      answer.end(Buffer.alloc(1024 * 1024, 'x'));
    };
    expect(await sendWebhook(post(`${base}/`), local)).toMatchObject({ kind: 'answered', status: 200 });
  });

  it('hangs up on a receiver that streams without end once it has read maxAnswerBytes', async () => {
    // Reading to the end would last until the 10 s deadline, past this test's 5 s timeout.
    let hungUp!: () => void;
    const closed = new Promise<void>((resolve) => {
      hungUp = resolve;
    });
    respond = (_request, answer) => {
      answer.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const more = () => {
        while (!answer.destroyed && answer.write(chunk));
      };
      answer.on('drain', more);
      answer.on('close', hungUp);
      more();
    };

    expect(await sendWebhook(post(`${base}/`), local, { maxAnswerBytes: 1024 })).toMatchObject({
      kind: 'answered',
      status: 200,
    });
    await closed;
  });

  it('fails with connection when nothing listens on the port', async () => {
    const spare = http.createServer();
    await new Promise<void>((listening) => spare.listen(0, '127.0.0.1', listening));
    const { port } = spare.address() as AddressInfo;
    await new Promise((closed) => spare.close(closed));

    const outcome = await sendWebhook(post(`http://127.0.0.1:${port}/`), local);

    expect(outcome).toMatchObject({ kind: 'failed', reason: 'connection' });
    expect(outcome.kind === 'failed' && outcome.detail).toContain('ECONNREFUSED');
  });

  it('fails with connection when the receiver hangs up before a status', async () => {
    respond = (request) => request.socket.destroy();
    expect(await sendWebhook(post(`${base}/`), local)).toMatchObject({ kind: 'failed', reason: 'connection' });
  });

  it('refuses http://127.0.0.1 without allowLoopbackHttp, and connects to nothing', async () => {
    const outcome = await sendWebhook(post(`${base}/`), strict);
    expect(outcome).toMatchObject({
      kind: 'failed',
      reason: 'refused-address',
      detail: 'host is a non-public address (loopback address)',
    });
    expect(connections).toBe(0);
  });

  it('refuses other non-public literals and local names before any lookup', async () => {
    const lookup = vi.spyOn(dns.promises, 'lookup');
    expect(await sendWebhook(post('https://10.0.0.1/hooks'), local)).toMatchObject({ reason: 'refused-address' });
    expect(await sendWebhook(post('https://[::ffff:a9fe:a9fe]/'), local)).toMatchObject({
      reason: 'refused-address',
    });
    expect(await sendWebhook(post('https://localhost/hooks'), local)).toMatchObject({
      reason: 'refused-url',
      detail: 'host is a local or internal name',
    });
    expect(await sendWebhook(post('http://example.com/hooks'), local)).toMatchObject({ reason: 'refused-url' });
    expect(lookup).not.toHaveBeenCalled();
  });

  it('refuses, at connect time, a name that resolved to a public address at the check and to loopback now', async () => {
    const port = (server.address() as AddressInfo).port;
    const url = `https://rebind.example.com:${port}/hooks`;
    resolving(['93.184.216.34'], ['127.0.0.1']);

    expect(await checkReceiverUrl(url, strict)).toBeUndefined();
    const outcome = await sendWebhook(post(url), strict);

    expect(outcome).toMatchObject({ kind: 'failed', reason: 'refused-address' });
    expect(outcome.kind === 'failed' && outcome.detail).toBe(
      'rebind.example.com resolves to a non-public address: 127.0.0.1 (loopback address)',
    );
    expect(connections).toBe(0);
  });

  it('counts a slow lookup against the deadline, and ignores its late answer', async () => {
    vi.spyOn(dns.promises, 'lookup').mockImplementation((async () => {
      await setTimeout(400);
      return [{ address: '93.184.216.34', family: 4 }];
    }) as unknown as typeof dns.promises.lookup);

    expect(await sendWebhook(post('https://slow.example.com/'), strict, { timeoutMs: 100 })).toMatchObject({
      kind: 'failed',
      reason: 'timeout',
    });
    // The lookup answers after the request was destroyed: nothing connects, nothing throws.
    await setTimeout(500);
  });

  it('fails with does-not-resolve when the name has no address', async () => {
    vi.spyOn(dns.promises, 'lookup').mockRejectedValue(notFound());
    expect(await sendWebhook(post('https://nowhere.example.com/'), strict)).toMatchObject({
      kind: 'failed',
      reason: 'does-not-resolve',
    });
  });
});

describe('checkedLookup (the socket resolves through it: the address checked is the address connected to)', () => {
  const lookUp = (
    policy: { allowLoopbackHttp: boolean },
    addresses: string[],
    options: LookupOptions = {},
    hostname = 'receiver.example.com',
  ) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number }>(
      (resolve) => {
        const resolver = async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
        checkedLookup(policy, resolver)(hostname, options, (error, address, family) =>
          resolve({ error, address, family }),
        );
      },
    );

  it('fails the connection when the name resolves to 10.0.0.1', async () => {
    const { error } = await lookUp(strict, ['10.0.0.1']);
    expect(error).toBeInstanceOf(RefusedAddress);
    expect(error?.message).toBe('receiver.example.com resolves to a non-public address: 10.0.0.1 (private address)');
  });

  it('fails the connection when the name resolves to 127.0.0.1, whatever the policy', async () => {
    expect((await lookUp(strict, ['127.0.0.1'])).error).toBeInstanceOf(RefusedAddress);
    expect((await lookUp(local, ['127.0.0.1'])).error).toBeInstanceOf(RefusedAddress);
  });

  it('fails the connection when any one of the addresses is not public', async () => {
    const { error } = await lookUp(strict, ['93.184.216.34', '2606:4700:4700::1111', 'fd00:ec2::254']);
    expect(error).toBeInstanceOf(RefusedAddress);
  });

  it('lets 127.0.0.1 itself through under allowLoopbackHttp only', async () => {
    expect(await lookUp(local, ['127.0.0.1'], {}, '127.0.0.1')).toEqual({
      error: null,
      address: '127.0.0.1',
      family: 4,
    });
    expect((await lookUp(strict, ['127.0.0.1'], {}, '127.0.0.1')).error).toBeInstanceOf(RefusedAddress);
  });

  it('hands public addresses to the socket, one or all as it asks', async () => {
    const addresses = ['93.184.216.34', '2606:4700:4700::1111'];
    expect(await lookUp(strict, addresses)).toEqual({ error: null, address: '93.184.216.34', family: 4 });
    expect(await lookUp(strict, addresses, { all: true })).toEqual({
      error: null,
      address: [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:4700:4700::1111', family: 6 },
      ],
      family: undefined,
    });
  });

  it("passes the resolver's failure on", async () => {
    const failure = notFound();
    const lookup = checkedLookup(strict, async () => Promise.reject(failure));
    const error = await new Promise((resolve) => lookup('nowhere.example.com', {}, resolve));
    expect(error).toBe(failure);
  });
});

describe('checkReceiverUrl', () => {
  it('refuses localhost names without resolving them', async () => {
    const lookup = vi.spyOn(dns.promises, 'lookup');
    expect(await checkReceiverUrl('https://localhost/hooks', strict)).toBe('host is a local or internal name');
    expect(await checkReceiverUrl('https://app.localhost/hooks', strict)).toBe('host is a local or internal name');
    expect(lookup).not.toHaveBeenCalled();
  });

  it('refuses a name that resolves to loopback', async () => {
    const lookup = resolving(['127.0.0.1']);
    expect(await checkReceiverUrl('https://localtest.example.com/hooks', strict)).toBe(
      'resolves to a non-public address: 127.0.0.1 (loopback address)',
    );
    expect(lookup).toHaveBeenCalledWith('localtest.example.com', { all: true, verbatim: true, family: 0 });
  });

  it('refuses a name when any one of its addresses is private', async () => {
    resolving(['93.184.216.34', '10.0.0.1']);
    expect(await checkReceiverUrl('https://hooks.example.com/', strict)).toBe(
      'resolves to a non-public address: 10.0.0.1 (private address)',
    );
  });

  it('accepts a name whose addresses are all public', async () => {
    resolving(['93.184.216.34', '2606:4700:4700::1111']);
    expect(await checkReceiverUrl('https://hooks.example.com/in', strict)).toBeUndefined();
  });

  it('refuses a name that does not resolve', async () => {
    vi.spyOn(dns.promises, 'lookup').mockRejectedValue(notFound());
    expect(await checkReceiverUrl('https://nowhere.example.com/', strict)).toBe('does not resolve');
  });

  it('judges address literals without a lookup', async () => {
    const lookup = vi.spyOn(dns.promises, 'lookup');
    expect(await checkReceiverUrl('https://93.184.216.34/hooks', strict)).toBeUndefined();
    expect(await checkReceiverUrl('https://[2606:4700:4700::1111]/hooks', strict)).toBeUndefined();
    expect(await checkReceiverUrl('http://127.0.0.1:9/hooks', local)).toBeUndefined();
    expect(await checkReceiverUrl('https://[::1]/hooks', local)).toBe(
      'host is a non-public address (loopback address)',
    );
    expect(lookup).not.toHaveBeenCalled();
  });
});
