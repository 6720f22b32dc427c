import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { config } from './config.ts';

/**
 * Structured JSON logs, one line per call: `level`, `message`, `timestamp`, `service`, the
 * request's Lambda fields while one runs (`function_request_id`, `function_name`,
 * `function_arn`, `function_memory_size`, `cold_start`, `xray_trace_id`) and the call's
 * own fields. Errors among them are written as `{name, message, stack, cause}` with their
 * own fields. Debug and info go to stdout, warnings and errors to stderr, as `console`
 * does; Lambda ships both to the function's log group. The Logs Insights queries of the
 * runbook filter on `level` (infra/runbook.ts).
 *
 * The project's own (about 2 KB) rather than Powertools Logger (18 KB and its set-up in
 * every function's cold start): these few calls are all the functions use.
 */
export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
const RANK: Record<LogLevel, number> = { DEBUG: 0, INFO: 1, WARN: 2, ERROR: 3 };
type Fields = Record<string, unknown>;

/** An error as a log field: what it says, where it came from, and what caused it (cycles cut). */
function serialise(value: unknown, seen = new WeakSet<object>()): unknown {
  if (value instanceof Error) {
    if (seen.has(value)) return '[Circular]';
    seen.add(value);
    const own = Object.fromEntries(Object.entries(value).map(([name, field]) => [name, serialise(field, seen)]));
    return {
      name: value.name,
      message: value.message,
      stack: value.stack,
      ...own,
      ...(value.cause === undefined ? {} : { cause: serialise(value.cause, seen) }),
    };
  }
  if (typeof value === 'bigint') return value.toString();
  return value;
}

export class JsonLogger {
  private requestFields: Fields = {};
  private coldStart = true;

  constructor(
    private readonly service: string,
    private readonly threshold: LogLevel,
  ) {}

  debug(message: string, fields?: Fields): void {
    this.write('DEBUG', message, fields);
  }
  info(message: string, fields?: Fields): void {
    this.write('INFO', message, fields);
  }
  warn(message: string, fields?: Fields): void {
    this.write('WARN', message, fields);
  }
  error(message: string, fields?: Fields): void {
    this.write('ERROR', message, fields);
  }

  /** Middleware: the request's Lambda fields on every line it logs, and none of them after it. */
  requestContext(): MiddlewareObj<unknown, unknown, Error, Context> {
    const clear = () => {
      this.requestFields = {};
    };
    return {
      before: ({ context }) => {
        this.requestFields = {
          cold_start: this.coldStart,
          function_arn: context.invokedFunctionArn,
          function_memory_size: context.memoryLimitInMB,
          function_name: context.functionName,
          function_request_id: context.awsRequestId,
          ...(process.env._X_AMZN_TRACE_ID ? { xray_trace_id: process.env._X_AMZN_TRACE_ID } : {}),
        };
        this.coldStart = false;
      },
      after: clear,
      onError: clear,
    };
  }

  private write(level: LogLevel, message: string, fields: Fields = {}): void {
    if (RANK[level] < RANK[this.threshold]) return;
    const base = { level, message, timestamp: new Date().toISOString(), service: this.service, ...this.requestFields };
    let line: string;
    try {
      line = JSON.stringify({
        ...base,
        ...Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, serialise(value)])),
      });
    } catch {
      // A field JSON cannot write (a cycle): the line still goes out, never the request down with it.
      line = JSON.stringify({ ...base, fields: 'not serialisable' });
    }
    (RANK[level] >= RANK.WARN ? process.stderr : process.stdout).write(`${line}\n`);
  }
}

export const logger = new JsonLogger('ticketing-api', config().LOG_LEVEL);
