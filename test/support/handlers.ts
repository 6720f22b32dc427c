import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'vitest';
import type { Schemas } from '#shared/http/route';
import type { RouteRow } from '#shared/routes';
import type { CallResult } from './api.ts';

/** The route handlers in the tests: a row's handler module, and what its handler declares. */
export interface DeclaredHandler {
  routeKey: string;
  schemas: Schemas;
}

/** The handler of a row, loaded from functions/ the way bin/openapi/load-routes.ts loads it. */
export async function handlerOf(row: RouteRow): Promise<DeclaredHandler> {
  const module = (await import(
    pathToFileURL(join(import.meta.dirname, '../../functions', `${row.handler}.ts`)).href
  )) as { handler: DeclaredHandler };
  return module.handler;
}

/** The schemas a row's handler declares. */
export const schemasOf = async (row: RouteRow): Promise<Schemas> => (await handlerOf(row)).schemas;

/** The answer has the route's declared status and parses with its declared (strict) schema. */
export function expectDeclared(handler: { schemas: Schemas }, response: CallResult): void {
  expect(response.status, response.raw).toBe(handler.schemas.status ?? 200);
  const parsed = handler.schemas.response!.safeParse(response.body);
  expect(parsed.error?.issues).toBeUndefined();
  expect(parsed.success).toBe(true);
}
