import type { SdkClient } from './faults.ts';

/**
 * Two writers meeting on one item, in a chosen order: `between` runs once, just before the first attempt of
 * `command` whose input `when` picks is sent (a middleware on the very client the code under test uses, as
 * faults.ts installs its faults), so a use case's write goes out after another writer's that came between its
 * read and it. Nothing is stubbed: both writes reach the stand-ins. `clearInterleavings()` in afterEach.
 */
export interface Interleaving {
  /** Whether `between` ran. */
  readonly ran: boolean;
}

const installed: (() => void)[] = [];
let counter = 0;

export function runBefore(
  client: SdkClient,
  options: { command: string; when: (input: Record<string, any>) => boolean },
  between: () => Promise<unknown>,
): Interleaving {
  const name = `testInterleaving${++counter}`;
  const state = { ran: false };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (state.ran || context.commandName !== options.command || !options.when(args.input)) return next(args);
      state.ran = true;
      await between();
      return next(args);
    },
    { step: 'finalizeRequest', name },
  );
  installed.push(() => void client.middlewareStack.remove(name));
  return state;
}

/** The input names this item's key (marshalled or not). */
export const names = (input: Record<string, any>, key: string): boolean => JSON.stringify(input).includes(`"${key}"`);

export function clearInterleavings(): void {
  for (const remove of installed.splice(0)) remove();
}
