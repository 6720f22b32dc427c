import { deployedIndexNames } from '../data/table-description.ts';
import * as z from '../../schema.ts';
import { invokeAgain } from '../services/continuation.ts';
import { MIGRATIONS, type Migration } from './catalogue.ts';
import { migrationLedger, rerunMigration, runMigrations, type MigrationRunOutcome } from './runner.ts';

/**
 * What the deployed runner (functions/jobs/run-migrations.ts) is asked: `run` (the
 * deploy's trigger sends no action: run), `ledger` (with the table's GSIs: `npm run migrations`
 * reads them through the function, so an operator needs only lambda:InvokeFunction; preflight
 * reads the table itself and invokes nothing),
 * `rerun` one migration from its start.
 */
export const MigrationCommand = z.lazy(() =>
  z.object({
    action: z.optional(z.enum(['run', 'ledger', 'rerun'])),
    id: z.optional(z.number().check(z.int(), z.positive())),
  }),
);
export type MigrationCommand = z.infer<typeof MigrationCommand>;

export interface RunnerInvocation {
  /**
   * The function's unqualified name: a run continues through it ($LATEST), never through the
   * version that started it, which a later deploy may delete mid-chain (infra/migrations.ts).
   */
  functionName: string;
  requestId: string;
  /** Epoch ms after which no new unit of work starts. */
  stopAt: number;
}

export async function migrationCommand(
  command: MigrationCommand,
  self: RunnerInvocation,
  catalogue: readonly Migration[] = MIGRATIONS,
) {
  switch (command.action ?? 'run') {
    case 'ledger':
      return { ledger: await ledgerRows(catalogue), tableIndexes: await deployedIndexNames() };
    case 'rerun': {
      if (command.id === undefined) throw new Error('rerun needs the migration id');
      if (!(await rerunMigration(command.id))) return { rerun: false, reason: 'a runner holds it now' };
      await invokeAgain(self.functionName);
      return { rerun: true };
    }
    default:
      return runAndContinue(self, catalogue);
  }
}

/**
 * Runs the pending migrations until `stopAt`; when one is left half-way for time, starts the
 * function again to go on from its checkpoint. One another runner holds is left to it; a
 * failure is in the ledger (`lastError`) and the runner's error alarm.
 */
async function runAndContinue(self: RunnerInvocation, catalogue: readonly Migration[]): Promise<MigrationRunOutcome> {
  const outcome = await runMigrations({ owner: self.requestId, stopAt: self.stopAt, catalogue });
  if (outcome.state === 'stopped') await invokeAgain(self.functionName);
  return outcome;
}

/** The ledger as rows to print: every migration of the catalogue, pending ones included. */
export type LedgerRow = Awaited<ReturnType<typeof ledgerRows>>[number];

export async function ledgerRows(catalogue: readonly Migration[] = MIGRATIONS) {
  return (await migrationLedger(catalogue)).map(({ migration, entry }) => ({
    id: migration.id,
    name: migration.name,
    status: entry?.status ?? 'pending',
    startedAt: entry?.startedAt ?? null,
    finishedAt: entry?.finishedAt ?? null,
    runs: entry?.runs ?? 0,
    progress: entry?.progress ?? null,
    heldUntil: entry?.leaseUntil ?? null,
    lastError: entry?.lastError ?? null,
  }));
}
