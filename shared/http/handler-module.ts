import type { route, Schemas } from './route.ts';
import type * as z from '../schema.ts';

// Types and a pure helper only: the OpenAPI build loads this before the environment it fills in.

/**
 * A handler module: `handler`, and beside it `answer`, the success body's schema as the API
 * answers it (shared/http/answers.ts), absent when the success has no body. `answer` is a
 * function so that nothing runs it at load: the deployed bundle exports only `handler`
 * (infra/deployed-entry.ts), and esbuild leaves out the answer and every schema only it
 * uses. The OpenAPI build and the tests read it; no request does.
 */
export interface HandlerModule {
  handler: ReturnType<typeof route>;
  answer?: () => z.ZodMiniType;
}

/** What a route documents: its handler's schemas and its module's answer. */
export type DocumentedSchemas = Schemas & { response?: z.ZodMiniType };

/** The schemas of a handler module, its answer included (for the OpenAPI build and the tests). */
export const documentedSchemas = (module: HandlerModule): DocumentedSchemas => ({
  ...module.handler.schemas,
  ...(module.answer ? { response: module.answer() } : {}),
});
