import { now } from '../../clock.ts';
import {
  forgetMigration,
  holdMigration,
  type LedgerEntry,
  readLedger,
  recordProgress,
  releaseMigration,
} from '../data/migration-ledger.ts';
import { MIGRATIONS, type Migration } from './catalogue.ts';

/**
 * Runs the pending data migrations in order, each to its end or until `stopAt`, recording
 * each in the ledger. A migration starts only once every one before it is done, and only
 * one runner holds it at a time (a lease to `stopAt` plus a margin); a migration keeps its own
 * checkpoint (run name `migration`, `migrationCheckpoint`), so one stopped half-way, by time or
 * by a failure, goes on where it stopped on the next run, and a done one is never run again
 * (`rerunMigration` forgets it first).
 */
export interface MigrationRun {
  /** Who runs (a Lambda request id, `cli:<user>`): the lease's owner. */
  owner: string;
  /** Epoch ms: no new unit of work starts after it (a Lambda's deadline less a margin). */
  stopAt: number;
  /** Only this migration (its predecessors must be done). */
  only?: number;
  /** The migrations to run (a test's own; else the release's, catalogue.ts). */
  catalogue?: readonly Migration[];
}

export type MigrationRunOutcome =
  /** Every migration (or `only`) is done. */
  | { state: 'done'; ran: number[] }
  /** Stopped at `stopAt` with this one unfinished: continue with another run. */
  | { state: 'stopped'; ran: number[]; at: number }
  /** Another runner holds this one now: it goes on with it. */
  | { state: 'held'; ran: number[]; at: number }
  /** (`only`) The one asked for waits `for` one before it that is not done. */
  | { state: 'waiting'; ran: number[]; at: number; for: number };

/** A lease outlives its holder's `stopAt` by this much (a unit of work that began just before it). */
const LEASE_MARGIN_MS = 5 * 60_000;
/** A run without a deadline (npm start, the tests, `--stage local`) holds its migration this long, as a Lambda would. */
const UNBOUNDED_LEASE_MS = 15 * 60_000;
/** The ledger's progress is written at most this often. */
const PROGRESS_EVERY_MS = 5_000;

export async function runMigrations({
  owner,
  stopAt,
  only,
  catalogue = MIGRATIONS,
}: MigrationRun): Promise<MigrationRunOutcome> {
  const ledger = await readLedger();
  const ran: number[] = [];
  const ordered = [...catalogue].sort((a, b) => a.id - b.id);
  for (const migration of ordered) {
    if (ledger.get(migration.id)?.status === 'done') continue;
    if (only !== undefined && migration.id !== only) {
      if (migration.id < only) return { state: 'waiting', ran, at: only, for: migration.id };
      continue;
    }
    const ended = await runOne(migration, ledger.get(migration.id), { owner, stopAt });
    if (ended !== 'done') return { state: ended, ran, at: migration.id };
    ran.push(migration.id);
    if (only !== undefined) break;
  }
  return { state: 'done', ran };
}

async function runOne(
  migration: Migration,
  entry: LedgerEntry | undefined,
  { owner, stopAt }: { owner: string; stopAt: number },
): Promise<'done' | 'stopped' | 'held'> {
  const held = await holdMigration(migration, owner, {
    now: now().toISOString(),
    until: new Date(Math.min(stopAt, now().getTime() + UNBOUNDED_LEASE_MS) + LEASE_MARGIN_MS).toISOString(),
  });
  if (!held) return 'held';
  let lastProgress = 0;
  try {
    const outcome = await migration.run({
      run: 'migration',
      // Never held before (or forgotten to be run again): from its start, whatever an earlier checkpoint says.
      restart: entry === undefined,
      stop: () => now().getTime() >= stopAt,
      progress: (done, total) => {
        if (now().getTime() - lastProgress < PROGRESS_EVERY_MS && done < total) return;
        lastProgress = now().getTime();
        // A courtesy for the ledger's readers: a lost progress write costs nothing.
        recordProgress(migration.id, owner, `${done}/${total}`).catch(() => undefined);
      },
    });
    if (outcome.stopped) {
      await releaseMigration(migration.id, owner, { done: false });
      return 'stopped';
    }
    await releaseMigration(migration.id, owner, {
      done: true,
      at: now().toISOString(),
      outcome,
    });
    return 'done';
  } catch (error) {
    await releaseMigration(migration.id, owner, { done: false, error: String(error) });
    throw error;
  }
}

/** The ledger as the catalogue orders it: each migration with its entry (none: pending). */
export async function migrationLedger(
  catalogue: readonly Migration[] = MIGRATIONS,
): Promise<{ migration: Migration; entry?: LedgerEntry }[]> {
  const ledger = await readLedger();
  return [...catalogue]
    .sort((a, b) => a.id - b.id)
    .map((migration) => ({ migration, entry: ledger.get(migration.id) }));
}

/** Forgets a migration so the next run does it again from its start; false while a runner holds it. */
export const rerunMigration = (id: number): Promise<boolean> => forgetMigration(id, now().toISOString());
