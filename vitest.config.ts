import { defineConfig } from 'vitest/config';
import { TEST_ENV } from './test/support/env.ts';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // One set of embedded services for the whole run; every worker talks to them.
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles: ['test/support/worker-env.ts'],
          env: TEST_ENV,
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Synthesising the whole stack takes seconds, well past vitest's 5 s default; a beforeAll that synthesises all
        // three stages took over 10 s (the hooks' default) on a busy 2-core machine.
        test: { name: 'infra', include: ['test/infra/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000 },
      },
    ],
  },
});
