import { describe, expect, it } from 'vitest';
import { attributeSize, type IndexShape, indexWrites, itemSize, priceWrite } from '../../bin/bench/write-pricing.ts';

/** The write counter's pricing (AWS's published rules), on items whose sizes are worked out by hand. */
describe('write pricing', () => {
  it('sizes attributes as AWS does: names and UTF-8 strings by length, numbers by digits, containers 3 + 1 per element', () => {
    expect(attributeSize('héllo')).toBe(6);
    expect(attributeSize(12_345)).toBe(4);
    expect(attributeSize(true)).toBe(1);
    expect(attributeSize(null)).toBe(1);
    expect(attributeSize([1, 'ab'])).toBe(3 + (2 + 1) + (2 + 1));
    expect(attributeSize({ a: 1 })).toBe(3 + 1 + 2 + 1);
    expect(itemSize({ PK: 'TICKET#1', SK: 'TICKET' })).toBe(2 + 8 + 2 + 6);
  });

  const small = { PK: 'TICKET#1', SK: 'LIST', GSI1PK: 'A', GSI1SK: 'x', state: 1 };
  const big = { PK: 'TICKET#1', SK: 'TICKET', notes: 'n'.repeat(1500) };

  it('charges a started KB of the larger image, twice in a transaction', () => {
    expect(priceWrite('k', 'PutItemCommand', false, undefined, big).item).toBe(2);
    expect(priceWrite('k', 'UpdateItemCommand', false, big, { PK: 'TICKET#1', SK: 'TICKET' }).item).toBe(2);
    expect(priceWrite('k', 'TransactWriteItemsCommand', true, undefined, small).item).toBe(2);
  });

  it('charges an index a put when the key appears, a delete and a put when it moves, nothing when the item leaves no mark there', () => {
    expect(priceWrite('k', 'PutItemCommand', false, undefined, small).indexes).toEqual({ GSI1: 1 });
    expect(priceWrite('k', 'PutItemCommand', false, small, { ...small, GSI1PK: 'B' }).indexes).toEqual({ GSI1: 2 });
    expect(priceWrite('k', 'PutItemCommand', false, small, { ...small, state: 2 }).indexes).toEqual({ GSI1: 1 });
    expect(priceWrite('k', 'PutItemCommand', false, small, small).indexes).toEqual({});
    expect(priceWrite('k', 'DeleteItemCommand', false, small, undefined).indexes).toEqual({ GSI1: 1 });
    expect(priceWrite('k', 'TransactWriteItemsCommand', true, small, { ...small, GSI1SK: 'y' })).toMatchObject({
      item: 2,
      indexes: { GSI1: 4 },
      units: 6,
    });
  });

  it('writes nothing to a KEYS_ONLY or INCLUDE index when an update leaves its keys and projected attributes alone, and sizes its entry by what it projects', () => {
    const keysOnly: IndexShape = {
      indexName: 'K',
      partitionKey: 'GSI1PK',
      sortKey: 'GSI1SK',
      projection: { type: 'KEYS_ONLY' },
    };
    const included: IndexShape = {
      indexName: 'I',
      partitionKey: 'GSI1PK',
      sortKey: 'GSI1SK',
      projection: { type: 'INCLUDE', attributes: ['state'] },
    };
    const whole: IndexShape = { indexName: 'A', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' };
    const shapes = [keysOnly, included, whole];
    const price = (before: object | undefined, after: object | undefined) =>
      priceWrite('k', 'UpdateItemCommand', false, before as never, after as never, false, shapes).indexes;
    // A non-key attribute no index projects: only the whole-item index is written.
    expect(price(small, { ...small, other: 'x' })).toEqual({ A: 1 });
    // One the INCLUDE index projects: it is written too, the KEYS_ONLY one still not.
    expect(price(small, { ...small, state: 2 })).toEqual({ I: 1, A: 1 });
    // A key moved: a delete and a put in every index, whatever it projects.
    expect(price(small, { ...small, GSI1SK: 'y' })).toEqual({ K: 2, I: 2, A: 2 });
    // An item past 1 KB: its whole-item entry costs 2, the entries that leave its large attribute out 1.
    const large = { ...small, notes: 'n'.repeat(1500) };
    expect(price(undefined, large)).toEqual({ K: 1, I: 1, A: 2 });
  });

  it('prices a ConditionCheck as a transactional write of its item and nothing in the indexes', () => {
    expect(priceWrite('k', 'TransactWriteItemsCommand', true, small, small, true)).toMatchObject({
      item: 2,
      indexes: {},
      units: 2,
    });
  });

  it('lands each index write on the index partition it changes: a moved key deletes on the old one and puts on the new', () => {
    const moved = { ...small, GSI1PK: 'B', GSI2PK: 'C', GSI2SK: 'z' };
    expect(indexWrites(small, moved, true)).toEqual([
      { indexName: 'GSI1', partition: 'A', units: 2 },
      { indexName: 'GSI1', partition: 'B', units: 2 },
      { indexName: 'GSI2', partition: 'C', units: 2 },
    ]);
    expect(indexWrites(small, undefined, false)).toEqual([{ indexName: 'GSI1', partition: 'A', units: 1 }]);
    expect(indexWrites(small, moved, true, true)).toEqual([]);
  });
});
