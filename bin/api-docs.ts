/**
 * `tsx bin/api-docs.ts <dir> [stage]`: writes the documentation files (bin/api-docs/site.ts) under
 * `<dir>`, keyed as they are served: `<dir>/api/v2/openapi.json`, `<dir>/api/v2/docs/...`.
 * The CDK app runs it in a child process at synth (infra/api-docs.ts), because building
 * the document imports every handler, which the CDK process must not.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { docsFiles } from './api-docs/site.ts';
import { buildOpenApi, type Environment } from './openapi/document.ts';
import { loadRouteOperations } from './openapi/load-routes.ts';

const target = process.argv[2];
if (!target) {
  console.error('usage: tsx bin/api-docs.ts <dir>');
  process.exit(2);
}
const root = resolve(target);
// The stage whose front ends serve the document: its servers entry names it.
const environment = (process.argv[3] ?? 'local') as Environment;
for (const file of docsFiles(buildOpenApi(await loadRouteOperations(), environment))) {
  const out = join(root, file.path);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, file.body);
}
console.log(`API documentation written under ${root}`);
