/**
 * The one way to write schemas: `import * as z from '#shared/schema'` (relative inside
 * shared/). It is zod/mini with English messages: mini tree-shakes to ~17 KB, where
 * classic zod adds ~90 KB and ~15 ms of cold start to every function (`npm run bench`).
 * Keep the namespace import: `export { z }` or `import { z }` defeats tree-shaking.
 */
import { config } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

config(en());

export * from 'zod/mini';

/** True when A and B describe the same values: `true satisfies Same<z.output<typeof S>, T>` ties a schema to its type. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
