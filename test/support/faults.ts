import { createServer, type Socket } from 'node:net';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { expect } from 'vitest';
import { CLIENT_SETTINGS } from '#shared/aws-clients';
import type { DependencyKind } from '#shared/errors';
import type { CallResult } from './api.ts';

/**
 * Fault injection at the SDK client (README "Faults and retries"): a middleware on the very
 * client instance a handler uses (test/support/api.ts runs handlers in-process), after the
 * SDK's retry middleware, so it runs once per attempt: it counts the attempts of the
 * commands it watches and throws a service error in place of sending the first `times`
 * of them. Everything else reaches the real stand-ins. `clearFaults()` in afterEach.
 */
/** What an SDK client offers a test's middleware (interleave.ts installs its own the same way). */
export interface SdkClient {
  middlewareStack: {
    add(
      middleware: (next: (args: any) => Promise<any>, context: any) => (args: any) => Promise<any>,
      options: Record<string, unknown>,
    ): void;
    remove(name: string): boolean;
  };
  config: { requestHandler: unknown };
}

export interface Fault {
  /** Attempts of the watched commands so far (failed or passed on). */
  attempts: number;
  /** The inputs of those attempts, in order. */
  inputs: Record<string, any>[];
  remove(): void;
}

const installed: (() => void | Promise<void>)[] = [];
let counter = 0;

/** An error as the SDK deserialises a service's answer: name, status, fault (what its retry strategy classifies). */
export function serviceError(name: string, status: number, message = `${name} (injected)`): Error {
  return Object.assign(new Error(message), {
    name,
    $fault: status >= 500 ? 'server' : 'client',
    $metadata: { httpStatusCode: status },
  });
}

/** The injected errors the tests use, one per kind of failure. */
export const failures = {
  dynamoThrottled: () => serviceError('ProvisionedThroughputExceededException', 400),
  /** A 5xx: retried like a throttle, with the shorter backoff base (100 ms, not 500 ms), so tests wait less. */
  dynamoInternal: () => serviceError('InternalServerError', 500),
  /** TransactWriteItems cancelled by conflicts only (nothing written), one reason per action. */
  transactionConflict: (input: Record<string, any>) =>
    new TransactionCanceledException({
      message:
        'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict] (injected)',
      $metadata: { httpStatusCode: 400 },
      CancellationReasons: (input.TransactItems as unknown[]).map(() => ({ Code: 'TransactionConflict' })),
    }),
  s3SlowDown: () => serviceError('SlowDown', 503),
  s3Internal: () => serviceError('InternalError', 500),
  sesThrottled: () => serviceError('TooManyRequestsException', 429),
  sesInternal: () => serviceError('InternalFailure', 500),
  cognitoThrottled: () => serviceError('TooManyRequestsException', 400),
  cognitoInternal: () => serviceError('InternalErrorException', 500),
  socketHangUp: () => Object.assign(new Error('socket hang up (injected)'), { code: 'ECONNRESET', $metadata: {} }),
};

/**
 * Fails the first `times` attempts (every attempt by default) of the commands named in
 * `commands` (`PutObjectCommand`, `TransactWriteItemsCommand`, ...; all when omitted) whose input
 * `when` picks (every one when omitted).
 */
export function failCalls(
  client: SdkClient,
  options: {
    commands?: string[];
    times?: number;
    when?: (input: Record<string, any>) => boolean;
    error: (input: Record<string, any>) => Error;
  },
): Fault {
  const name = `testFault${++counter}`;
  const fault: Fault = { attempts: 0, inputs: [], remove: () => void client.middlewareStack.remove(name) };
  const times = options.times ?? Number.POSITIVE_INFINITY;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (options.commands && !options.commands.includes(String(context.commandName))) return next(args);
      if (options.when && !options.when(args.input as Record<string, any>)) return next(args);
      fault.attempts++;
      fault.inputs.push(args.input);
      if (fault.attempts <= times) throw options.error(args.input);
      return next(args);
    },
    { step: 'finalizeRequest', name },
  );
  installed.push(fault.remove);
  return fault;
}

/** Counts the attempts of some commands without failing them. */
export const watchCalls = (client: SdkClient, commands?: string[]): Fault =>
  failCalls(client, { commands, times: 0, error: () => new Error('never') });

interface TimeoutKnob {
  updateHttpClientConfig(key: 'requestTimeout', value: number): void;
}

/**
 * A slow dependency: the watched commands go to a local server that accepts the
 * connection and never answers, and the client's request timeout (the knob of
 * shared/aws-clients.ts, on the live handler) is set to `timeoutMs`, so every
 * attempt times out quickly and the test waits for no real delay.
 */
export async function slowCalls(
  client: SdkClient,
  options: { commands?: string[]; timeoutMs: number; restoreMs: number },
): Promise<Fault> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const name = `testSlow${++counter}`;
  const knob = client.config.requestHandler as TimeoutKnob;
  knob.updateHttpClientConfig('requestTimeout', options.timeoutMs);
  const fault: Fault = {
    attempts: 0,
    inputs: [],
    remove: () => {
      client.middlewareStack.remove(name);
      knob.updateHttpClientConfig('requestTimeout', options.restoreMs);
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (options.commands && !options.commands.includes(String(context.commandName))) return next(args);
      fault.attempts++;
      fault.inputs.push(args.input);
      Object.assign(args.request, { protocol: 'http:', hostname: '127.0.0.1', port });
      return next(args);
    },
    // After signing: the request is only redirected, the black hole checks nothing.
    { step: 'finalizeRequest', name, priority: 'low' },
  );
  installed.push(fault.remove);
  return fault;
}

/** An unreachable dependency: a local port nothing listens on (bound, then closed). */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Removes every fault and restores every timeout (afterEach). */
export async function clearFaults(): Promise<void> {
  for (const remove of installed.splice(0)) await remove();
}

/**
 * The answer of a request whose dependency stayed unavailable: 503 problem details naming
 * the dependency, with its Retry-After (CLIENT_SETTINGS), and nothing of the internals
 * (no exception names, no table or bucket, nothing of the injected fault).
 */
export function expectUnavailable(response: CallResult, dependency: DependencyKind): void {
  const retryAfter = CLIENT_SETTINGS[dependency].retryAfterSeconds;
  expect(response.status, response.raw).toBe(503);
  expect(response.headers['content-type']).toBe('application/problem+json');
  expect(response.headers['retry-after']).toBe(String(retryAfter));
  expect(response.body).toEqual({
    type: '/problems/unavailable',
    title: 'Service unavailable',
    status: 503,
    detail: `The ${dependency} is not answering for now; try again in ${retryAfter} seconds.`,
    instance: expect.any(String),
    dependency,
  });
  expect(response.raw).not.toMatch(/Exception|SlowDown|ticketing-|injected/);
}
