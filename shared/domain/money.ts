import * as z from '../schema.ts';

// Whole cents: an amount like 5e-324 is a valid JSON number that DynamoDB cannot store (below 1e-130), a 500 otherwise.
const wholeCents = (value: number) => Math.round(value * 100) / 100 === value;

/** An amount of money in a request: 0 to 1,000,000, in whole cents. */
export const money = () =>
  z
    .number()
    .check(
      z.minimum(0, 'must not be negative'),
      z.maximum(1_000_000, 'must be at most 1000000'),
      z.refine(wholeCents, 'must have at most 2 decimal places'),
    );
