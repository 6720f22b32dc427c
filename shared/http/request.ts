import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { MiddlewareObj } from '@middy/core';
import type { Principal } from '../auth/tokens.ts';

/** The API Gateway event as the middy stack enriches it for the handler. */
export interface RouteEvent extends Omit<APIGatewayProxyEventV2, 'body'> {
  /** Raw text before `parse-body.ts`, the parsed JSON (or undefined) after it. */
  body?: unknown;
  /** Set by `authenticate.ts` on every non-public route. */
  principal?: Principal;
}

export type Middleware = MiddlewareObj<RouteEvent, unknown, Error, Context>;

/** Header lookup that does not depend on the caller's casing (API Gateway lower-cases). */
export const header = (event: Pick<RouteEvent, 'headers'>, name: string): string | undefined =>
  event.headers?.[name.toLowerCase()] ?? undefined;
