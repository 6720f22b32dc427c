import { inject } from 'vitest';
import { recordFloors } from '#shared/clock';

// Runs in each test worker before its test file: the stand-ins' endpoints started by
// global-setup.ts join the fixed test environment that vitest.config.ts already set.
Object.assign(process.env, inject('localServicesEnv'));

// Answers' floors (the forgot-password one) are recorded, not slept through: tests assert them (shared/clock.ts).
recordFloors();
