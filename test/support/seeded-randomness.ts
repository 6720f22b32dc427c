import { relative } from 'node:path';
import fc from 'fast-check';
import { beforeEach, expect, vi } from 'vitest';
import { randomStream, TEST_SEED } from './seeded-random.ts';

/**
 * Runs before every test file (vitest.config.ts `setupFiles`): the file's random stream
 * (seeded-random.ts), keyed by its path in the repository, becomes the only randomness
 * the file and the application code it runs can reach:
 *
 * - `node:crypto`'s randomBytes, randomInt and randomUUID, for the tests and for the
 *   application under test (barcodes, tokens, request ids), so a replay makes the same
 *   barcodes in the same order;
 * - `Math.random`;
 * - fast-check's default seed (fc.assert, fc.sample).
 *
 * And a failed test's message ends with the seed that replays it.
 */
const file = relative(process.cwd(), expect.getState().testPath ?? 'unknown');
// One holder per worker, not per file: where files share a module graph (vitest.config.ts `isolate: false`),
// node:crypto is mocked once, by the first file's setup, and must draw from each later file's stream too.
const stream = vi.hoisted(() => {
  const worker = globalThis as { seededStream?: { current: undefined | import('./seeded-random.ts').RandomStream } };
  worker.seededStream ??= { current: undefined };
  return worker.seededStream;
});
stream.current = randomStream(file);
const random = stream.current;

vi.mock('node:crypto', async (importOriginal) => {
  const crypto = await importOriginal<typeof import('node:crypto')>();
  const draw = () => {
    if (!stream.current) throw new Error('seeded-randomness.ts: node:crypto was imported before the stream was made');
    return stream.current;
  };
  const randomBytes = ((size: number, callback?: (error: Error | null, bytes: Buffer) => void) => {
    const bytes = draw().bytes(size);
    if (callback) queueMicrotask(() => callback(null, bytes));
    else return bytes;
  }) as typeof crypto.randomBytes;
  const randomInt = ((min: number, max?: number | ((...args: unknown[]) => void), callback?: unknown) => {
    const [low, high] = typeof max === 'number' ? [min, max] : [0, min];
    const value = draw().int(low, high);
    const done = typeof max === 'function' ? max : callback;
    if (typeof done === 'function') queueMicrotask(() => done(null, value));
    else return value;
  }) as typeof crypto.randomInt;
  const randomUUID = (() => draw().uuid()) as typeof crypto.randomUUID;
  const seeded = { randomBytes, randomInt, randomUUID };
  return { ...crypto, ...seeded, default: { ...crypto, ...seeded } };
});

Math.random = random.float;
fc.configureGlobal({ seed: random.uint32() | 0 });

beforeEach(({ onTestFailed }) => {
  onTestFailed(({ task }) => {
    for (const error of task.result?.errors ?? [])
      error.message = `${error.message}\n(TEST_SEED=${TEST_SEED} npm test replays this run's data and order)`;
  });
});
