import type { MiddlewareObj } from '@middy/core';

/**
 * Work to finish at the end of every request, registered by the modules that have some
 * (services/metrics.ts publishes what the request recorded). http/route.ts runs it after the handler
 * and on errors without importing those modules, so a function whose code records no
 * metric neither bundles nor loads the metrics library.
 */
const hooks: (() => void)[] = [];

/** Registers `hook` to run at the end of every request of this container. */
export function onRequestEnd(hook: () => void): void {
  hooks.push(hook);
}

/** The middleware that runs the registered hooks, after the handler and on errors. */
export function requestEnd(): MiddlewareObj {
  const run = () => {
    for (const hook of hooks) hook();
  };
  return { after: run, onError: run };
}
