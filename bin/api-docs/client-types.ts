import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';

/**
 * The typed client's types (shared/client/openapi-types.ts), generated from the OpenAPI
 * document by openapi-typescript: `npm run build:client` writes them (a build output, not
 * committed; `npm run typecheck` builds them first).
 */
export const CLIENT_TYPES_FILE = fileURLToPath(new URL('../../shared/client/openapi-types.ts', import.meta.url));

const HEADER = `${COMMENT_HEADER.trimEnd()}
// Generated from the OpenAPI document (bin/openapi/) by \`npm run build:client\`; not committed.

`;

/** The file's text for a document (as `buildOpenApi` returns it). */
export async function clientTypesSource(document: Record<string, unknown>): Promise<string> {
  // No redocly config lookup or lint output: the document is linted on its own (npm run openapi).
  // The document is the JSON buildOpenApi made (a plain record to its caller); openapi-typescript
  // types its input as its own OpenAPI3 model, which that record is, by construction and by Redocly's lint.
  const ast = await openapiTS(document as unknown as OpenAPI3, { silent: true });
  return `${HEADER}${astToString(ast)}`;
}
