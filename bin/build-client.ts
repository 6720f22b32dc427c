/**
 * `npm run build:client`: regenerates shared/client/openapi-types.ts (the typed client's
 * types) from the OpenAPI document. Run it after changing a route, its schemas or the
 * document builder; test/unit/api-docs.test.ts fails until it is run.
 */
import { writeFileSync } from 'node:fs';
import { CLIENT_TYPES_FILE, clientTypesSource } from './api-docs/client-types.ts';
import { buildOpenApi } from './openapi/document.ts';
import { loadRouteOperations } from './openapi/load-routes.ts';

writeFileSync(CLIENT_TYPES_FILE, await clientTypesSource(buildOpenApi(await loadRouteOperations())));
console.log(`Client types written to ${CLIENT_TYPES_FILE}`);
