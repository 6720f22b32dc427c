import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { recordName } from './table-grants-run.ts';
import { actionsOf, marksOf, outsideGrants, type TableUse } from './table-grants.ts';

// Runs before each integration file (vitest.config.ts `setupFiles`): every DynamoDB command a function sends during
// the file is recorded (one SDK middleware on the one DynamoDB client, beside the tallies of command-tally.ts), and the
// file fails when one is outside that function's grant (shared/routes.ts). Commands sent outside any function (a
// test's own setup, the factories) are no function's. The file's record joins the run's (table-grants-run.ts).
const seen = new Map<string, Set<string>>();

// Loaded in the hook, not imported: some files name their own table before anything of shared/data loads.
beforeAll(async () => {
  const { db } = await import('#shared/data/client');
  const { currentFunction } = await import('../../bin/local/invoke.ts');
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const fn = currentFunction();
      if (fn) {
        const command = String((context as { commandName?: string }).commandName);
        const actions = seen.get(fn) ?? new Set();
        const input = args.input as Record<string, unknown>;
        for (const action of [...actionsOf(command, input), ...marksOf(input)]) actions.add(action);
        seen.set(fn, actions);
      }
      return next(args);
    },
    { step: 'initialize', name: 'testTableGrants' },
  );
});

afterAll(() => {
  const uses: TableUse[] = [...seen].flatMap(([fn, actions]) => [...actions].map((action) => ({ fn, action })));
  const file = relative(process.cwd(), expect.getState().testPath ?? 'unknown');
  writeFileSync(join(inject('tableUsesDir'), `${recordName(file)}.json`), JSON.stringify(uses));
  const outside = outsideGrants(uses);
  if (outside.length)
    throw new Error(
      `DynamoDB actions outside their function's grant (add them to its row in shared/routes.ts, or stop sending them):\n  ${outside.join('\n  ')}`,
    );
});
