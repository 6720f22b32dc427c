import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'vitest';
import { type DocumentedSchemas, documentedSchemas, type HandlerModule } from '#shared/http/handler-module';
import type { RouteRow } from '#shared/routes';
import type { CallResult } from './api.ts';

/** The handler module of a row (its `handler`, and its `answer` when it has a body), loaded from functions/ the way bin/openapi/load-routes.ts loads it. */
export const moduleOf = async (row: RouteRow): Promise<HandlerModule> =>
  (await import(
    pathToFileURL(join(import.meta.dirname, '../../functions', `${row.handler}.ts`)).href
  )) as HandlerModule;

/** The handler of a row. */
export const handlerOf = async (row: RouteRow): Promise<HandlerModule['handler']> => (await moduleOf(row)).handler;

/** The schemas a row's handler module declares, its answer included. */
export const schemasOf = async (row: RouteRow): Promise<DocumentedSchemas> => documentedSchemas(await moduleOf(row));

/** The answer has the route's declared status and parses with its module's declared (strict) answer. */
export function expectDeclared(module: HandlerModule, response: CallResult): void {
  const { status = 200, response: answer } = documentedSchemas(module);
  expect(response.status, response.raw).toBe(status);
  const parsed = answer!.safeParse(response.body);
  expect(parsed.error?.issues).toBeUndefined();
  expect(parsed.success).toBe(true);
}
