import { db } from '#shared/data/client';

/** What a tally sees of one command, and how it sends it on (it answers the result it got). */
export type SeeCommand<T> = <R extends { output: unknown }>(
  tally: T,
  command: string,
  input: Record<string, unknown>,
  send: () => Promise<R>,
) => Promise<R>;

/**
 * A tally of what the code under test sends to DynamoDB: one SDK middleware on the one
 * shared DocumentClient, installed at the first use, that hands each command to `see`
 * while a tally runs (requests made in-process through test/support/api.ts `call()`
 * included). Tallies of one kind must not overlap.
 */
export function commandTally<T>(name: string, see: SeeCommand<T>) {
  let current: T | undefined;
  let installed = false;
  const install = () => {
    if (installed) return;
    installed = true;
    db.middlewareStack.add(
      (next, context) => async (args) => {
        const tally = current;
        if (!tally) return next(args);
        return see(
          tally,
          String((context as { commandName?: string }).commandName),
          args.input as Record<string, unknown>,
          () => next(args),
        );
      },
      { step: 'initialize', name },
    );
  };
  /** Runs `work` with the `fresh` tally and answers both. */
  return async <R>(fresh: T, work: () => Promise<R>): Promise<{ result: R; tally: T }> => {
    install();
    if (current) throw new Error(`${name} tallies must not overlap.`);
    current = fresh;
    try {
      return { result: await work(), tally: fresh };
    } finally {
      current = undefined;
    }
  };
}

const sentTally = commandTally<string[]>('testCommandsSent', (sent, command, _input, send) => {
  sent.push(command);
  return send();
});

/** The DynamoDB commands `work` sends, in the order sent (`GetItemCommand`, …). Calls must not overlap. */
export async function commandsSent(work: () => Promise<unknown>): Promise<string[]> {
  return (await sentTally([], work)).tally;
}
