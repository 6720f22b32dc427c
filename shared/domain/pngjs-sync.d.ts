// pngjs 7 has no types for its sync half alone; it is `PNG.sync` of the package's main module.
declare module 'pngjs/lib/png-sync.js' {
  import type { PNG } from 'pngjs';

  export const read: (typeof PNG.sync)['read'];
  export const write: (typeof PNG.sync)['write'];
}
