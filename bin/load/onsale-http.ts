import { Agent, request } from 'node:http';

/**
 * The on-sale rush's HTTP side (onsale*.ts): JSON over node:http with keep-alive agents, one per client
 * network. Buyers arrive from many networks, as an on-sale's do: each agent binds its connections to an
 * address of its own in 127.0.0.0/8 (the whole block is the loopback interface on Linux), so the API's
 * per-network reservation limit (RESERVATIONS_NETWORK, `sourceIp`) counts each network apart, as deployed
 * behind CloudFront it counts each viewer. Every answer is recorded for the checks (onsale-verify.ts).
 */
/** An answer's JSON as the tool reads it: the envelope's fields, each given its shape where it is read. */
export interface Body {
  data?: unknown;
  reason?: unknown;
  next?: unknown;
  [field: string]: unknown;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Body | undefined;
  ms: number;
}

export interface Recorded {
  /** `METHOD /path-pattern` as a route is named (ids replaced by `{id}`). */
  route: string;
  status: number;
  reason?: string;
  retryAfter?: string;
  ms: number;
}

const agents = new Map<string, Agent>();

/** The keep-alive agent of client network `n` (127.0.<1 + n / 250>.<1 + n % 250>). */
function agentOf(network: number | undefined): Agent {
  const localAddress =
    network === undefined ? '127.0.0.1' : `127.0.${1 + Math.floor(network / 250)}.${1 + (network % 250)}`;
  let agent = agents.get(localAddress);
  if (!agent) {
    agent = new Agent({ keepAlive: true, maxSockets: 64, localAddress });
    agents.set(localAddress, agent);
  }
  return agent;
}

export function closeAgents(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

export interface Send {
  method: string;
  url: string;
  headers?: Record<string, string>;
  /** JSON, or a string sent as is (a form). */
  body?: unknown;
  network?: number;
}

/**
 * One request; a refused or reset connection answers status 0 (an error of the run, not its end). A kept-alive
 * connection the server closed as it was reused is tried once more on a new one, as Node's documentation advises
 * (`request.reusedSocket`): the request never reached a handler.
 */
export async function send(init: Send): Promise<Answer> {
  const answer = await sendOnce(init);
  return answer.body?.retry === true ? sendOnce(init) : answer;
}

function sendOnce({ method, url, headers = {}, body, network }: Send): Promise<Answer> {
  const started = performance.now();
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve) => {
    const target = new URL(url);
    const outgoing = request(
      {
        method,
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        agent: agentOf(network),
        timeout: 60_000,
        headers: {
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          ...headers,
        },
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: Body | undefined;
          try {
            parsed = text ? (JSON.parse(text) as Body) : undefined;
          } catch {
            parsed = { text };
          }
          resolve({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            body: parsed,
            ms: performance.now() - started,
          });
        });
        incoming.on('error', () =>
          resolve({ status: 0, headers: {}, body: undefined, ms: performance.now() - started }),
        );
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error('timed out')));
    outgoing.on('error', (error: NodeJS.ErrnoException) =>
      resolve({
        status: 0,
        headers: {},
        body: { reason: error.code ?? error.message, retry: outgoing.reusedSocket && error.code === 'ECONNRESET' },
        ms: performance.now() - started,
      }),
    );
    if (payload !== undefined) outgoing.write(payload);
    outgoing.end();
  });
}

/** The envelope's `data`, in the shape the caller reads it as (an answer without one: undefined, read as that). */
export const dataOf = <T>(answer: Answer): T => answer.body?.data as T;

/** The answer as the checks record it. */
export function record(route: string, answer: Answer): Recorded {
  const given = answer.body?.reason;
  const reason = typeof given === 'string' ? given : undefined;
  const retryAfter = answer.headers['retry-after'];
  return {
    route,
    status: answer.status,
    ms: answer.ms,
    ...(reason ? { reason } : {}),
    ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
  };
}

/**
 * At most `concurrency` requests in flight; a buyer already holding (checkout, payment, release, the queue's reads)
 * goes before the arrivals still waiting to ask (`arriving`): as each buyer has a connection of their own, the one
 * checking out is not behind thousands who arrived later (first come, first served, their hold would lapse first).
 */
export function requestLimiter(concurrency: number) {
  let slots = concurrency;
  const arrivals: (() => void)[] = [];
  const holding: (() => void)[] = [];
  return async <T>(work: () => Promise<T>, arriving = false): Promise<T> => {
    if (slots === 0) await new Promise<void>((resolve) => (arriving ? arrivals : holding).push(resolve));
    else slots--;
    try {
      return await work();
    } finally {
      const next = holding.shift() ?? arrivals.shift();
      if (next) next();
      else slots++;
    }
  };
}
