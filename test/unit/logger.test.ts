import type { Context } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_ENV } from '../support/env.ts';

/** The functions' JSON logger (shared/logger.ts): what a line holds, where it goes, what it never does. */
let JsonLogger: typeof import('#shared/logger').JsonLogger;

beforeAll(async () => {
  // The module's default instance validates the configuration when it loads.
  Object.assign(process.env, TEST_ENV);
  ({ JsonLogger } = await import('#shared/logger'));
});

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out.push(String(chunk));
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    err.push(String(chunk));
    return true;
  });
  return { out: () => out.map((line) => JSON.parse(line)), err: () => err.map((line) => JSON.parse(line)) };
}

afterEach(() => vi.restoreAllMocks());

const context = {
  awsRequestId: 'req-1',
  functionName: 'fn',
  invokedFunctionArn: 'arn:fn',
  memoryLimitInMB: '1024',
} as Context;

describe('JsonLogger', () => {
  it("writes one JSON line per call with level, message, timestamp, service and the call's fields; below its level, nothing", () => {
    const lines = capture();
    const logger = new JsonLogger('svc', 'INFO');
    logger.debug('hidden');
    logger.info('Customer created', { customerId: 5 });
    expect(lines.out()).toEqual([
      {
        level: 'INFO',
        message: 'Customer created',
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        service: 'svc',
        customerId: 5,
      },
    ]);
    expect(lines.err()).toEqual([]);
  });

  it('sends warnings and errors to stderr, an error field as name, message, stack, its own fields and cause', () => {
    const lines = capture();
    const failure = Object.assign(new Error('outer', { cause: new TypeError('inner') }), { code: 'E1' });
    new JsonLogger('svc', 'ERROR').error('Mail failed', { error: failure });
    const [line] = lines.err();
    expect(line.error).toMatchObject({
      name: 'Error',
      message: 'outer',
      code: 'E1',
      stack: expect.stringContaining('outer'),
      cause: { name: 'TypeError', message: 'inner' },
    });
    expect(lines.out()).toEqual([]);
  });

  it("adds the request's Lambda fields while it runs (cold start only on the first) and drops them after", () => {
    const lines = capture();
    const logger = new JsonLogger('svc', 'INFO');
    const middleware = logger.requestContext();
    const request = { context } as Parameters<NonNullable<typeof middleware.before>>[0];
    middleware.before!(request);
    logger.info('during');
    middleware.after!(request);
    middleware.before!(request);
    logger.info('second');
    middleware.onError!(request);
    logger.info('after');
    expect(
      lines.out().map(({ message, cold_start, function_request_id }) => [message, cold_start, function_request_id]),
    ).toEqual([
      ['during', true, 'req-1'],
      ['second', false, 'req-1'],
      ['after', undefined, undefined],
    ]);
  });

  it('still writes the line when a field cannot be serialised (a cycle), never throwing into the request', () => {
    const lines = capture();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => new JsonLogger('svc', 'INFO').warn('odd', { cyclic })).not.toThrow();
    expect(lines.err()).toEqual([
      expect.objectContaining({ level: 'WARN', message: 'odd', fields: 'not serialisable' }),
    ]);
  });
});
