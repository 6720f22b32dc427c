/** The pricing of one item write lives with the bench, which prices a whole sale with it (bin/bench/write-pricing.ts). */
export * from '../../bin/bench/write-pricing.ts';
