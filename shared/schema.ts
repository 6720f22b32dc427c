/**
 * The one way to write schemas: `import * as z from '#shared/schema'` (relative inside
 * shared/). It is zod/mini with English messages: mini tree-shakes to ~17 KB, where
 * classic zod adds ~90 KB and ~15 ms of cold start to every function (`npm run bench`).
 * Keep the namespace import: `export { z }` or `import { z }` defeats tree-shaking.
 *
 * A module's composite schemas are declared `z.lazy(() => …)`: built on their first parse, not when the module loads.
 * A contract or entity module holds several routes' schemas, and a route's bundle holds the whole module, so built at
 * load every cold start would pay for all of them (2,000 zod schemas at the median, about 5 ms; lazy, about 600: the
 * ones it reads). The answers, errors and OpenAPI document are the same. A schema another one reads as a shape
 * (`X.shape`, `z.extend(X, …)`) stays eager. test/unit/lazy-schemas.test.ts holds the rule, and
 * test/infra/cold-start-schemas.test.ts what a few routes build at their cold start.
 */
import { config } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

config(en());

export * from 'zod/mini';
