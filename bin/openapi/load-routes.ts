import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import type { Schemas } from '#shared/http/route';
import { routes } from '#shared/routes';
import { BENCH_ENV } from '../bench/settings.ts';
import type { RouteOperation } from './document.ts';

const FUNCTIONS = join(import.meta.dirname, '../../functions');

/**
 * Every row of the table with the schemas its handler attached (`route()` puts them on
 * the handler beside `routeKey`). Handlers validate their environment when loaded, so
 * the bench's dummy cold-start values fill whatever is unset; loading makes no calls.
 */
export async function loadRouteOperations(): Promise<RouteOperation[]> {
  for (const [name, value] of Object.entries(BENCH_ENV)) process.env[name] ??= value;
  return Promise.all(
    routes.map(async (row) => {
      const module = (await import(pathToFileURL(join(FUNCTIONS, `${row.handler}.ts`)).href)) as {
        handler: { schemas: Schemas };
      };
      return { row, schemas: module.handler.schemas };
    }),
  );
}
