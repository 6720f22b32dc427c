/**
 * The data migrations, in the order they run (runner.ts; the capability's README.md says what one looks
 * like). The first release's table is the shape the code writes, so there are none yet. A
 * release that changes how items are stored adds one at the end; none is ever renumbered or
 * removed once deployed (a stage's ledger names them by id).
 */

/** How the runner runs a migration: each unit of work resumable from the migration's checkpoint. */
export interface RunOptions {
  /** The checkpoint's name (the runner's is `migration`): a run resumes after what this name finished. */
  run: string;
  /** From the start, whatever the checkpoint says (a migration never held before, or forgotten to be run again). */
  restart: boolean;
  /** Asked before each unit of work: true stops the run there, its checkpoint kept. */
  stop: () => boolean;
  progress: (done: number, total: number) => void;
}

/** Set on an outcome when `stop` ended the run before its end: the next run goes on from the checkpoint. */
export interface Stopped {
  stopped?: true;
}

export interface Migration {
  id: number;
  name: string;
  /** What it writes, for the ledger's readers. */
  summary: string;
  /** Idempotent: a rerun from the start repairs, and changes nothing where nothing is left to do. */
  run(options: RunOptions): Promise<Stopped & Record<string, unknown>>;
}

export const MIGRATIONS: readonly Migration[] = [];
