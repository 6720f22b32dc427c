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
