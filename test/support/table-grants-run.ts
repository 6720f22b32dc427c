import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jobs } from '#shared/job-grants';
import { routeKey, routes, wrapperTableActions } from '#shared/routes';
import { admitted, PUTS_BY_ORDER_OR_CLOCK, type TableUse } from './table-grants.ts';

/**
 * The run's side of test/support/table-grants.ts: each test file over the stand-ins leaves its functions' recorded
 * DynamoDB actions in `dir`, named by the file, and once the run ends every granted action that no function sent fails
 * the run, when the records cover every file of both tiers (test/integration and test/deep). One tier alone, or a
 * filtered run, checks only what it sent against the grants: a grant's action unused by the routes it ran is no
 * finding. The tiers are two runs, so `.ci/run` points both at one directory (TABLE_USES_DIR, kept across runs; without
 * it each run records in a temporary one it removes); the second run then sees every file. With
 * TABLE_USES_REPORT=<file>, the records are written there (what each function sent: how a grant is first written).
 */
export function tableUsesRun(): { dir: string; finish: () => void } {
  const kept = process.env.TABLE_USES_DIR;
  if (kept) mkdirSync(kept, { recursive: true });
  const dir = kept ?? mkdtempSync(join(tmpdir(), 'table-uses-'));
  const finish = () => {
    const files = readdirSync(dir);
    const uses = files.flatMap((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as TableUse[]);
    if (!kept) rmSync(dir, { recursive: true, force: true });
    const sent = new Map<string, Set<string>>();
    for (const { fn, action } of uses) sent.set(fn, (sent.get(fn) ?? new Set()).add(action));
    const report = process.env.TABLE_USES_REPORT;
    if (report)
      writeFileSync(
        report,
        JSON.stringify(Object.fromEntries([...sent].map(([fn, a]) => [fn, [...a].sort()])), null, 2),
      );
    const recorded = new Set(files.map((file) => file.replace(/\.json$/, '')));
    if (!TIERS.flatMap(testFiles).every((file) => recorded.has(recordName(file)))) return;
    // Where a Put comes only with the run's order or clock, it is not asked for (PUTS_BY_ORDER_OR_CLOCK).
    const createsOnFirstUse = (fn: string, action: string) =>
      action === 'PutItem' && sent.get(fn)?.has(PUTS_BY_ORDER_OR_CLOCK);
    const unused = grantedTableActions().filter(
      ({ fn, action }) => !sent.get(fn)?.has(action) && !createsOnFirstUse(fn, action),
    );
    if (!unused.length) return;
    // Not thrown: vitest reports a global teardown's error as "Error during close" and still exits 0.
    console.error(
      `Granted DynamoDB actions no function sent in a full run (take them off the row in shared/routes.ts, or test the path that needs them):\n  ${unused.map(({ fn, action }) => `${fn}: ${action}`).join('\n  ')}`,
    );
    process.exitCode = 1;
  };
  return { dir, finish };
}

/** The folders of the test files that run over the stand-ins, the two tiers' (vitest.config.ts). */
const TIERS = ['test/integration', 'test/deep'];

const testFiles = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => join(dir, file));

/** The record's file name for a test file (a path relative to the project), one per file however often it ran. */
export const recordName = (testFile: string): string => testFile.replaceAll(/[/\\]/g, '__');

/**
 * Every function's granted actions a full run must see it send, as the recorder spells them: not the route wrapper's
 * own (shared/routes.ts `wrapperTableActions`: the session check is cached across the run's routes), nor the
 * migrations runner's (no test file runs it as itself).
 */
function grantedTableActions(): TableUse[] {
  const rows = routes.map((row) => {
    const wrapper = new Set<string>(wrapperTableActions(row));
    const actions = (row.uses.table ?? []).filter((action) => !wrapper.has(action));
    return { fn: routeKey(row), grant: row.uses.table ? { actions, indexes: row.uses.indexes } : undefined };
  });
  const { migrations: _notRecorded, ...recorded } = jobs;
  const grants = [...rows, ...Object.entries(recorded).map(([fn, grant]) => ({ fn, grant }))];
  return grants.flatMap(({ fn, grant }) => [...admitted(grant)].map((action) => ({ fn, action })));
}
