import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The infra tests' temporary directory, TMPDIR in their workers (vitest.config.ts). CDK stages every App made
 * without an outdir in a fresh directory under os.tmpdir() and never removes it: 69 of them a run here, 1.2 GB of
 * templates and assets, left behind on every run. Here they go in one directory, removed when the run ends. Named by
 * the run's process, so the config and this setup (both in the run's main process) name the same one.
 */
export const INFRA_SCRATCH = path.join(tmpdir(), `ticketing-infra-tests-${process.pid}`);

export default function setup(): () => void {
  mkdirSync(INFRA_SCRATCH, { recursive: true });
  return () => rmSync(INFRA_SCRATCH, { recursive: true, force: true });
}
