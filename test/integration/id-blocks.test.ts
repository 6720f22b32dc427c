import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { allocateIds, drawIds, idsInHand } from '#shared/data/counters';
import { IdBlocks } from '#shared/data/id-blocks';
import { keys } from '#shared/data/keys';
import { commandsSent } from '../support/command-tally.ts';
import { storedItem } from '../support/dynamo-writes.ts';

const idsOf = (first: number, count: number) => Array.from({ length: count }, (_, i) => first + i);

/**
 * Ids in blocks against the table (shared/data/id-blocks.ts): two allocators stand for two containers drawing from one
 * sequence item, each call's ids consecutive, every id handed out once, one UpdateItem per block.
 */
describe('ids in blocks, from the sequence item in the table', () => {
  it('two containers taking 300 calls at once hand out every id once, each call consecutive, one write per block', async () => {
    const sequence = `TEST_${randomUUID()}`;
    const containers = [new IdBlocks(drawIds, { [sequence]: 25 }), new IdBlocks(drawIds, { [sequence]: 25 })];
    const counts = Array.from({ length: 300 }, (_, i) => [1, 2, 1, 3, 1][i % 5]!);
    let taken: number[][] = [];
    const sent = await commandsSent(async () => {
      taken = await Promise.all(
        counts.map(async (count, i) => idsOf(await containers[i % 2]!.take(sequence, count), count)),
      );
    });
    const all = taken.flat();
    expect(new Set(all).size).toBe(all.length);
    const needed = counts.reduce((sum, count) => sum + count, 0);
    expect(all.length).toBe(needed);
    // Each container draws a block of 25 when the one it holds cannot serve a call: at most one block more than it
    // takes, and at most a block's worth of ids unused at a block's end per draw (a call of 3 finding 2 left).
    const draws = sent.filter((command) => command === 'UpdateItemCommand').length;
    expect([...new Set(sent)], sent.join()).toEqual(['UpdateItemCommand']);
    expect(draws).toBeLessThanOrEqual(Math.ceil(needed / 23) + 2);
    expect(Number((await storedItem(keys.sequence(sequence)))?.value)).toBe(draws * 25);
    expect(Math.max(...all)).toBeLessThanOrEqual(draws * 25);
  });

  it("the module's own allocator and another container never meet on the sale's sequences", async () => {
    const other = new IdBlocks(drawIds);
    const firsts = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? other.take('TICKET') : allocateIds('TICKET'))),
    );
    expect(new Set(firsts).size).toBe(60);
    // The module's allocator holds the rest of its block: the next ticket id costs no write.
    expect(idsInHand('TICKET')).toBeGreaterThan(0);
    expect(await commandsSent(() => allocateIds('TICKET'))).toEqual([]);
  });
});
