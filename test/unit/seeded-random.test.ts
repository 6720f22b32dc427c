import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newBarcode } from '#shared/tickets/domain/new-ticket';
import { randomStream, TEST_SEED } from '../support/seeded-random.ts';

/** The tests' randomness replays from TEST_SEED (test/support/seeded-random.ts, seeded-randomness.ts). */
describe('seeded test randomness', () => {
  it('a seed and label give the same stream every time; another seed or label another', () => {
    const draw = (label: string, seed: number) => {
      const stream = randomStream(label, seed);
      return [stream.uint32(), stream.int(0, 1000), stream.bytes(6).toString('hex'), stream.uuid()];
    };
    expect(draw('a.test.ts', 17)).toEqual(draw('a.test.ts', 17));
    expect(draw('a.test.ts', 17)).not.toEqual(draw('a.test.ts', 18));
    expect(draw('a.test.ts', 17)).not.toEqual(draw('b.test.ts', 17));
    expect(randomStream('x', 1).uuid()).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it("this file's node:crypto, Math.random, the application's barcodes and fast-check draw from this file's stream", () => {
    const stream = randomStream('test/unit/seeded-random.test.ts', TEST_SEED);
    // The setup file drew fast-check's seed first.
    const fastCheckSeed = stream.uint32() | 0;
    expect(fc.readConfigureGlobal().seed).toBe(fastCheckSeed);
    expect(randomBytes(4)).toEqual(stream.bytes(4));
    expect(randomInt(10, 20)).toBe(stream.int(10, 20));
    expect(randomUUID()).toBe(stream.uuid());
    expect(Math.random()).toBe(stream.float());
    expect(newBarcode()).toBe(stream.bytes(9).toString('base64url').toUpperCase());
  });
});
