import { describe, expect, it } from 'vitest';
import { IdBlocks } from '#shared/data/id-blocks';

/** A sequence item as DynamoDB's atomic ADD keeps it, answering after a turn of the event loop or two. */
function sequenceItem() {
  let value = 0;
  const draws: number[] = [];
  const draw = async (_sequence: string, count: number) => {
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
    value += count;
    draws.push(count);
    return value - count + 1;
  };
  return { draw, draws };
}

const idsOf = (first: number, count: number) => Array.from({ length: count }, (_, i) => first + i);

describe('ids in blocks (shared/data/id-blocks.ts)', () => {
  it('two containers taking at once hand out every id once, each call consecutive, one draw per block', async () => {
    const item = sequenceItem();
    const containers = [new IdBlocks(item.draw, { ORDER: 10 }), new IdBlocks(item.draw, { ORDER: 10 })];
    const counts = Array.from({ length: 200 }, (_, i) => [1, 1, 2, 3, 1, 12][i % 6]!);
    const taken = await Promise.all(
      counts.map(async (count, i) => idsOf(await containers[i % 2]!.take('ORDER', count), count)),
    );
    const all = taken.flat();
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBe(counts.reduce((sum, count) => sum + count, 0));
    // A call of 12 (more than a block) draws a block of its own; every other draw is a block of 10.
    expect(item.draws.every((size) => size === 10 || size === 12)).toBe(true);
    expect(item.draws.length).toBeLessThan(counts.length);
  });

  it('within one container a later call gets a higher id than every id before it, across fresh blocks', async () => {
    const item = sequenceItem();
    const container = new IdBlocks(item.draw, { TICKET: 4 });
    const other = new IdBlocks(item.draw, { TICKET: 4 });
    let highest = 0;
    for (let round = 0; round < 20; round++) {
      // Concurrent calls of this container race for a fresh block, and another container draws between.
      const firsts = await Promise.all([
        container.take('TICKET', 3),
        container.take('TICKET', 2),
        other.take('TICKET'),
      ]);
      const mine = Math.min(firsts[0]!, firsts[1]!);
      expect(mine).toBeGreaterThan(highest);
      highest = Math.max(firsts[0]! + 2, firsts[1]! + 1);
    }
  });

  it('hands out a held block without a draw, and a sequence without a block size one id a draw', async () => {
    const item = sequenceItem();
    const container = new IdBlocks(item.draw, { RESERVATION: 100 });
    expect(await container.take('RESERVATION')).toBe(1);
    expect(container.inHand('RESERVATION')).toBe(99);
    expect(await container.take('RESERVATION', 99)).toBe(2);
    expect(item.draws).toEqual([100]);
    expect(await container.take('RESERVATION')).toBe(101);
    expect(await container.take('EVENT')).toBe(201);
    expect(await container.take('EVENT')).toBe(202);
    expect(container.inHand('EVENT')).toBe(0);
    expect(item.draws).toEqual([100, 100, 1, 1]);
  });
});
