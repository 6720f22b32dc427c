/**
 * `npm run build:client`: generates shared/client/openapi-types.ts (the typed client's
 * types, a build output) from the OpenAPI document. `npm run typecheck` runs it first, so
 * the types always follow the routes, their schemas and the document builder.
 */
import { writeFileSync } from 'node:fs';
import { CLIENT_TYPES_FILE, clientTypesSource } from './api-docs/client-types.ts';
import { buildOpenApi } from './openapi/document.ts';
import { loadRouteOperations } from './openapi/load-routes.ts';

writeFileSync(CLIENT_TYPES_FILE, await clientTypesSource(buildOpenApi(await loadRouteOperations())));
console.error(`Client types written to ${CLIENT_TYPES_FILE}`);
