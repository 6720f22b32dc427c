import { createHash } from 'node:crypto';

/**
 * The tests' one source of randomness: every id, name, barcode, address, time window and
 * fuzz input a test makes comes from here, so a run can be replayed. vitest.config.ts
 * picks the run's seed (or takes `TEST_SEED`), prints it and hands it to every worker;
 * `seeded-randomness.ts` gives each test file its own stream of it (the file's path mixed
 * in), so a file draws the same values whichever worker runs it and whatever ran before.
 *
 * Not cryptographic, on purpose: sfc32 (a small, fast, well-tested generator) seeded
 * with 128 bits of SHA-256 of `<seed>:<label>`.
 */
export const TEST_SEED = seedFromEnvironment();

function seedFromEnvironment(): number {
  const seed = Number(process.env.TEST_SEED);
  if (!Number.isSafeInteger(seed) || seed < 0)
    throw new Error(
      `TEST_SEED must be a non-negative integer (vitest.config.ts sets it), got "${process.env.TEST_SEED}"`,
    );
  return seed;
}

export interface RandomStream {
  /** A uniform 32-bit unsigned integer. */
  uint32(): number;
  /** A float in [0, 1), as Math.random. */
  float(): number;
  /** An integer in [min, max), as node:crypto's randomInt. */
  int(min: number, max: number): number;
  bytes(size: number): Buffer;
  /** A version 4 UUID. */
  uuid(): string;
}

export function randomStream(label: string, seed: number = TEST_SEED): RandomStream {
  const digest = createHash('sha256').update(`${seed}:${label}`).digest();
  let [a, b, c, d] = [0, 4, 8, 12].map((at) => digest.readUInt32LE(at)) as [number, number, number, number];
  const uint32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  // A dozen draws first: sfc32's first outputs still echo the seed words.
  for (let i = 0; i < 12; i += 1) uint32();
  const float = () => uint32() / 2 ** 32;
  const bytes = (size: number) => {
    const out = Buffer.alloc(size);
    for (let at = 0; at < size; at += 1) out[at] = uint32() & 0xff;
    return out;
  };
  return {
    uint32,
    float,
    int: (min, max) => min + Math.floor(float() * (max - min)),
    bytes,
    uuid: () => {
      const raw = bytes(16);
      raw[6] = (raw[6]! & 0x0f) | 0x40;
      raw[8] = (raw[8]! & 0x3f) | 0x80;
      const hex = raw.toString('hex');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    },
  };
}
