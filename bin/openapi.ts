/**
 * `npm run openapi [out]`: writes the OpenAPI 3.1 document (default `.local/openapi.json`),
 * generated from the route table and the handlers' schemas. Not committed: it is always
 * rebuilt from the code.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { buildOpenApi } from './openapi/document.ts';
import { loadRouteOperations } from './openapi/load-routes.ts';

const out = resolve(process.argv[2] ?? '.local/openapi.json');
const document = buildOpenApi(await loadRouteOperations());
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(document, null, 2)}\n`);
console.log(`OpenAPI document written to ${out}`);
