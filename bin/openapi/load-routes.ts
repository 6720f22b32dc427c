import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { documentedSchemas, type HandlerModule } from '#shared/http/handler-module';
import { routes } from '#shared/routes';
import { BENCH_ENV } from '../bench/settings.ts';
import type { RouteOperation } from './operation.ts';

const FUNCTIONS = join(import.meta.dirname, '../../functions');

/**
 * Every row of the table with the schemas its handler attached (`route()` puts them on
 * the handler beside `routeKey`) and its module's `answer`. Handlers validate their environment when loaded, so
 * the bench's dummy cold-start values fill whatever is unset; loading makes no calls.
 */
export async function loadRouteOperations(): Promise<RouteOperation[]> {
  for (const [name, value] of Object.entries(BENCH_ENV)) process.env[name] ??= value;
  return Promise.all(
    routes.map(async (row) => {
      const module = (await import(pathToFileURL(join(FUNCTIONS, `${row.handler}.ts`)).href)) as HandlerModule;
      return { row, schemas: documentedSchemas(module) };
    }),
  );
}
