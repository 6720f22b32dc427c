import { randomInt } from 'node:crypto';
import { defineConfig } from 'vitest/config';
import { TEST_ENV } from './test/support/env.ts';
import { INFRA_SCRATCH } from './test/support/infra-scratch.ts';

// The run's one seed (test/support/seeded-random.ts): every random value of every test derives from it, and so does
// the order its files and their tests run in (shuffled on every run, so a test that leans on what another file or test
// did before it fails where it can be replayed, not by chance).
process.env.TEST_SEED ??= String(randomInt(2 ** 31));
const seed = Number(process.env.TEST_SEED);
console.log(
  `TEST_SEED=${seed} (TEST_SEED=${seed} npm test replays this run's data and its order of files and tests: vitest's --sequence.seed=${seed})`,
);
const seeded = { env: { TEST_SEED: process.env.TEST_SEED }, setupFiles: ['test/support/seeded-randomness.ts'] };
/** The integration tests' setting: the embedded stand-ins, started once for the run. */
const overStandIns = {
  // One set of embedded services for the whole run; every worker talks to them.
  globalSetup: ['test/support/global-setup.ts'],
  // table-grants-setup.ts holds every DynamoDB command a route sent against its row's grant (shared/routes.ts).
  setupFiles: [...seeded.setupFiles, 'test/support/worker-env.ts', 'test/support/table-grants-setup.ts'],
  env: { ...TEST_ENV, ...seeded.env },
  testTimeout: 20_000,
  hookTimeout: 60_000,
};

/**
 * Two tiers (README "Quick start"). `npm test` (`--project unit --project integration --project infra`) is what a
 * change runs. `npm run test:deep` (`--project deep`) is test/deep/: what takes long for what it adds to a change's
 * check, chosen by measured time per file: the fuzzing (200 inputs a route, whole-table snapshots), the scale tests
 * (hundreds to thousands of tickets or events, a thousand deliveries, 200 check-ins at once), the load runs (the gate
 * rush, the login attacks from many networks, the webhooks' fairness and hanging receivers), the browser and the
 * READMEs' commands run as a person runs them.
 */
export default defineConfig({
  test: {
    sequence: { shuffle: { files: true, tests: true }, seed },
    projects: [
      // Two workers as the integration files (vitest runs projects of one group with one worker count).
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], ...seeded, maxWorkers: 2 } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          ...overStandIns,
          // Two files at a time, as the deep tier: each asserts on what it made (its own event, customer, payment
          // or key; a table of its own where it counts the whole table), so two never meet (6 m 53 s one at a time
          // against 4 m 53 s two at a time for the project here, on a busy machine).
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'deep',
          include: ['test/deep/**/*.test.ts'],
          ...overStandIns,
          // Two files at a time (vitest's default is one fewer than the cores: one here): a deep file waits much of
          // its time (a reservation's minute to lapse, a receiver that hangs, a lock-out's window), and the tier
          // used 1.2 of the 2 cores one at a time (CI: 692 s one at a time, 499 s two). Each file that snapshots or
          // counts the whole table has its own.
          maxWorkers: 2,
        },
      },
      {
        // Synthesising the whole stack takes seconds, well past vitest's 5 s default; a beforeAll that synthesises all
        // three stages took over 10 s (the hooks' default) on a busy 2-core machine.
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          // One module graph per worker for all the template files: synth.ts keeps each App it built, so a stage
          // the files share is synthesised (with cdk-nag) once per worker, not once per file that asks for it.
          isolate: false,
          // In a group of its own (after the unit and integration files) and one worker: vitest hands a group's
          // non-isolated files to one worker as one task only where the group's first file is one of them. Shuffled
          // among the other projects' files, each template file was a task of its own in a fresh worker and built its
          // stages again (a clean clone's npm test: 142 s of its 512 in the 15 template files, most of them building
          // the dev stage afresh).
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
          testTimeout: 120_000,
          hookTimeout: 120_000,
          ...seeded,
          env: { ...seeded.env, TMPDIR: INFRA_SCRATCH },
          globalSetup: ['test/support/infra-scratch.ts'],
        },
      },
    ],
  },
});
