import { inject } from 'vitest';

// Runs in each test worker before its test file: the stand-ins' endpoints started by
// global-setup.ts join the fixed test environment that vitest.config.ts already set.
Object.assign(process.env, inject('localServicesEnv'));
