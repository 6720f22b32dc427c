import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import {
  publicAddressProblem,
  receiverUrlProblem,
  receiverUrlRefusal,
  type ReceiverPolicy,
} from '../domain/receiver-address.ts';

/**
 * The outbound HTTP of webhooks: checking a receiver URL when a subscription is made, and
 * sending one POST to it. The receiver is chosen by an administrator, so both refuse
 * every address that is not public (shared/webhooks/domain/receiver-address.ts); the sender
 * checks the addresses it is about to connect to, inside the socket's own lookup, so a
 * name that resolved to a public address at the check and resolves to 10.0.0.1 now
 * (DNS rebinding) is refused rather than connected to.
 */

export const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 3_000;
export const DEFAULT_MAX_ANSWER_BYTES = 64 * 1024;
export const USER_AGENT = 'ticketing-webhooks/1';

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface SendLimits {
  /** The whole exchange, lookup and connection included, until the status (default 10 s). */
  timeoutMs?: number;
  /**
   * Until the connection is open (lookup and TCP connect; default 3 s): a receiver that does
   * not even accept fails fast instead of holding an attempt its whole time.
   */
  connectTimeoutMs?: number;
  /** Answer body bytes read (and discarded) before the connection is closed (default 64 KiB). */
  maxAnswerBytes?: number;
}

/** Why nothing was answered. Only `refused-*` is certain to have sent nothing. */
export type SendFailure =
  /** The URL's form is not a receiver's (scheme, user name, length, a local name): refused before any lookup. */
  | 'refused-url'
  /** The host's address, its literal or one its name resolves to now, is not public: no connection was made. */
  | 'refused-address'
  /** The name has no address (NXDOMAIN, no A or AAAA record) or the resolver failed. */
  | 'does-not-resolve'
  /** No status line within `timeoutMs`, counted from the start (lookup, connection, TLS, request). */
  | 'timeout'
  /** Refused, reset or closed before a status; TLS failures (certificate, handshake); an answer that is not HTTP. */
  | 'connection';

/**
 * What became of one delivery. Any status is `answered`, 3xx too (redirects are never
 * followed: the Location could name any address); so is a receiver that sends its status
 * and then more than `maxAnswerBytes`, or stalls in its body: the status is the answer.
 */
export type SendOutcome =
  | { kind: 'answered'; status: number; durationMs: number; retryAfter?: string }
  | { kind: 'failed'; reason: SendFailure; detail: string; durationMs: number };

/** The resolver: every address of a name, in the resolver's order. Tests pass their own to `checkedLookup`. */
export type Resolve = (hostname: string, family: LookupOptions['family']) => Promise<LookupAddress[]>;

const resolveAll: Resolve = (hostname, family) =>
  dns.promises.lookup(hostname, { all: true, verbatim: true, family: family ?? 0 });

/** The lookup's refusal: the socket fails with it, and the sender reports it as `refused-address`. */
export class RefusedAddress extends Error {
  readonly code = 'ERR_WEBHOOK_REFUSED_ADDRESS';
}

/** How long a subscription's check waits for DNS before it calls the name unresolvable. */
const CHECK_LOOKUP_TIMEOUT_MS = 5_000;

/**
 * Undefined when `url` may be registered as a receiver: its form (receiverUrlProblem), then
 * every address its name resolves to now must be public. Checked again at every send,
 * since what a name resolves to can change.
 */
export async function checkReceiverUrl(url: string, policy: ReceiverPolicy): Promise<string | undefined> {
  const problem = receiverUrlProblem(url, policy);
  if (problem) return problem;
  const host = new URL(url).hostname;
  // An address literal was judged with the form.
  if (host.startsWith('[') || isIP(host)) return undefined;
  let addresses: LookupAddress[];
  let timer: NodeJS.Timeout | undefined;
  try {
    // A resolver that never answers must not hold the request until the function's timeout.
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('lookup timed out')), CHECK_LOOKUP_TIMEOUT_MS);
    });
    addresses = await Promise.race([resolveAll(host, 0), late]);
  } catch {
    return 'does not resolve';
  } finally {
    clearTimeout(timer);
  }
  return addressesProblem(host, addresses, policy);
}

/** Why the addresses of `hostname` are not all receivers' (one private address is enough to refuse). */
function addressesProblem(hostname: string, addresses: LookupAddress[], policy: ReceiverPolicy): string | undefined {
  if (!addresses.length) return 'does not resolve';
  for (const { address } of addresses) {
    if (policy.allowLoopbackHttp && hostname === '127.0.0.1' && address === '127.0.0.1') continue;
    const problem = publicAddressProblem(address);
    if (problem) return `resolves to a non-public address: ${address} (${problem})`;
  }
  return undefined;
}

/**
 * The `lookup` given to the request's socket: resolves the name, and fails the connection
 * with RefusedAddress unless every address is public, so the addresses checked are the
 * ones connected to. Node asks for every address (`all`, when it tries them in turn) or
 * one; both are answered. Node does not call it for an address literal (the URL check
 * judged that).
 */
export function checkedLookup(policy: ReceiverPolicy, resolve: Resolve = resolveAll): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, options.family).then(
      (addresses) => {
        const problem = addressesProblem(hostname, addresses, policy);
        if (problem) return callback(new RefusedAddress(`${hostname} ${problem}`), []);
        const [first] = addresses as [LookupAddress];
        if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}

/**
 * POSTs `request.body` to `request.url` and says what came of it. Never rejects for what the
 * receiver does: every refusal, failure and answer is a SendOutcome (it rejects only for the
 * caller's own mistake, a header Node refuses to send). No redirects, no connection reuse
 * across receivers, a bounded answer, one deadline for the whole exchange.
 */
export async function sendWebhook(
  request: WebhookRequest,
  policy: ReceiverPolicy,
  limits: SendLimits = {},
): Promise<SendOutcome> {
  const {
    timeoutMs = DEFAULT_TIMEOUT_MS,
    maxAnswerBytes = DEFAULT_MAX_ANSWER_BYTES,
    connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS,
  } = limits;
  const started = performance.now();
  const durationMs = () => Math.round(performance.now() - started);
  const failed = (reason: SendFailure, detail: string): SendOutcome => ({
    kind: 'failed',
    reason,
    detail,
    durationMs: durationMs(),
  });

  // Checked again here: a subscription stored before a rule was added must not slip past it.
  const refusal = receiverUrlRefusal(request.url, policy);
  if (refusal) return failed(refusal.about === 'address' ? 'refused-address' : 'refused-url', refusal.problem);
  const url = new URL(request.url);
  return new Promise((settle) => {
    let status: number | undefined;
    let retryAfter: string | undefined;
    let settled = false;
    const answered = (): SendOutcome => ({
      kind: 'answered',
      status: status as number,
      durationMs: durationMs(),
      ...(retryAfter !== undefined ? { retryAfter } : {}),
    });
    const finish = (outcome: () => SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearTimeout(connecting);
      settle(outcome());
      outgoing.destroy();
    };

    const outgoing = (url.protocol === 'https:' ? https : http).request(
      url,
      { method: 'POST', headers: outgoingHeaders(request), agent: false, lookup: checkedLookup(policy) },
      (answer) => {
        status = answer.statusCode ?? 0;
        // Only these two ask us to wait (README "Webhooks"): kept raw, judged with the schedule.
        if ((status === 429 || status === 503) && typeof answer.headers['retry-after'] === 'string')
          retryAfter = answer.headers['retry-after'].slice(0, 64);
        let read = 0;
        // The body is read only so the receiver can finish; past the limit we hang up.
        answer.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= maxAnswerBytes) finish(answered);
        });
        answer.on('error', () => finish(answered));
        answer.on('close', () => finish(answered));
      },
    );
    outgoing.on('error', (error: NodeJS.ErrnoException) =>
      finish(() => (status === undefined ? failed(failureOf(error), detailOf(error)) : answered())),
    );
    // A receiver that has sent its status but stalls in its body has answered.
    const deadline = setTimeout(
      () => finish(() => (status === undefined ? failed('timeout', `no answer within ${timeoutMs} ms`) : answered())),
      timeoutMs,
    );
    // Cleared once the socket connects; a reused or already open socket never reaches here (agent: false).
    const connecting = setTimeout(
      () => finish(() => failed('timeout', `no connection within ${Math.min(connectTimeoutMs, timeoutMs)} ms`)),
      Math.min(connectTimeoutMs, timeoutMs),
    );
    outgoing.on('socket', (socket) => socket.once('connect', () => clearTimeout(connecting)));
    outgoing.end(request.body);
  });
}

/**
 * The caller's headers over our defaults. The framing ones are ours: the length is the
 * body's, and nothing may make the request's body or target differ from what was checked.
 */
function outgoingHeaders({ headers, body }: WebhookRequest): Record<string, string> {
  const framing = new Set(['content-length', 'transfer-encoding', 'host', 'connection']);
  const given = Object.entries(headers).filter(([name]) => !framing.has(name.toLowerCase()));
  return {
    'user-agent': USER_AGENT,
    'content-type': 'application/json',
    ...Object.fromEntries(given),
    'content-length': String(Buffer.byteLength(body)),
  };
}

const DNS_CODES = new Set(['ENOTFOUND', 'ENODATA', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'ESERVFAIL']);

function failureOf(error: NodeJS.ErrnoException): SendFailure {
  if (error instanceof RefusedAddress) return 'refused-address';
  if (error.syscall === 'getaddrinfo' || (error.code && DNS_CODES.has(error.code))) return 'does-not-resolve';
  return 'connection';
}

function detailOf(error: NodeJS.ErrnoException): string {
  if (error instanceof RefusedAddress || !error.code || error.message.includes(error.code)) return error.message;
  return `${error.code}: ${error.message}`;
}
