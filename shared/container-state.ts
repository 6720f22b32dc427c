/**
 * What a Lambda container keeps between requests: the parsed environment, SDK clients,
 * fetched secrets, recent session checks. Each module that keeps such state registers how
 * to forget it, so "a new container" is one call: the tests make one when they change the
 * environment or a secret mid-run (test/support/container.ts), and nothing else does.
 */
const forgetters = new Set<() => void>();

/** Registers how to forget one module's per-container state. */
export function keptPerContainer(forget: () => void): void {
  forgetters.add(forget);
}

/** Forgets every module's per-container state, as a new container starts. */
export function startNewContainer(): void {
  for (const forget of forgetters) forget();
}
