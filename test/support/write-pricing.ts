import { TABLE_SCHEMA } from '#shared/data/table-schema';

/**
 * AWS's published write pricing of one item write, from the item's images before and after:
 * - the item: 1 unit per started KB of the larger of its two images;
 * - each GSI: a put or delete of the projected item when the index key appears or goes,
 *   both when it changes, one write when it stays and a projected attribute changed,
 *   nothing when no projected attribute changed (KEYS_ONLY indexes of a non-key change);
 * - everything in a TransactWriteItems twice, index writes included (the stricter reading);
 *   a ConditionCheck as a transactional write of its item.
 * Item sizes follow AWS's sizing: names and UTF-8 strings by length, numbers by their
 * digits, maps and lists 3 bytes plus 1 per element. Pure, so unit-tested on its own
 * (test/unit/write-pricing.test.ts); test/support/dynamo-writes.ts feeds it the images.
 */
export interface ItemWrite {
  key: string;
  command: string;
  transactional: boolean;
  /** The table item's units, and each index's, already doubled when transactional. */
  item: number;
  indexes: Record<string, number>;
  units: number;
}

export interface DynamoWrites {
  units: number;
  items: ItemWrite[];
}

export type Item = Record<string, unknown>;

export function attributeSize(value: unknown): number {
  if (value === null || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
  if (typeof value === 'number' || typeof value === 'bigint') {
    const digits = String(value).replace(/^-/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '').length || 1;
    return Math.ceil(digits / 2) + 1;
  }
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) return [...value].reduce((sum: number, element) => sum + attributeSize(element), 0);
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, element) => sum + attributeSize(element) + 1, 0);
  if (typeof value === 'object')
    return (
      3 +
      Object.entries(value as Item).reduce(
        (sum, [name, element]) => sum + Buffer.byteLength(name) + attributeSize(element) + 1,
        0,
      )
    );
  throw new Error(`Cannot size ${typeof value}`);
}

export const itemSize = (item: Item): number =>
  Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + attributeSize(value), 0);
const kilobytes = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));

type IndexShape = (typeof TABLE_SCHEMA.globalIndexes)[number];

/** The item as the index holds it: every attribute (ALL), the keys (KEYS_ONLY), or the keys and the listed ones (INCLUDE). */
function projected(item: Item, index: IndexShape): Item {
  const projection = (index as { projection?: { type: string; attributes?: readonly string[] } }).projection;
  if (!projection || projection.type === 'ALL') return item;
  const kept = new Set([
    TABLE_SCHEMA.partitionKey,
    TABLE_SCHEMA.sortKey,
    index.partitionKey,
    index.sortKey,
    ...(projection.attributes ?? []),
  ]);
  return Object.fromEntries(Object.entries(item).filter(([name]) => kept.has(name)));
}

function indexUnits(before: Item | undefined, after: Item | undefined, index: IndexShape): number {
  const keyOf = (item: Item | undefined) =>
    item && item[index.partitionKey] !== undefined && item[index.sortKey] !== undefined
      ? `${item[index.partitionKey]}|${item[index.sortKey]}`
      : undefined;
  const [from, to] = [keyOf(before), keyOf(after)];
  if (!from && !to) return 0;
  const size = (item: Item) => kilobytes(itemSize(projected(item, index)));
  if (!from) return size(after!);
  if (!to) return size(before!);
  if (from !== to) return size(before!) + size(after!);
  const [old, now] = [projected(before!, index), projected(after!, index)];
  if (JSON.stringify(sorted(old)) === JSON.stringify(sorted(now))) return 0;
  return Math.max(size(before!), size(after!));
}

const sorted = (item: Item) => Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b)));

/** The price of one write of one item, from its images before and after. */
export function priceWrite(
  key: string,
  command: string,
  transactional: boolean,
  before: Item | undefined,
  after: Item | undefined,
  conditionCheck = false,
): ItemWrite {
  const times = transactional ? 2 : 1;
  const item = times * kilobytes(Math.max(before ? itemSize(before) : 0, after ? itemSize(after) : 0));
  const indexes: Record<string, number> = {};
  if (!conditionCheck) {
    for (const index of TABLE_SCHEMA.globalIndexes) {
      const units = times * indexUnits(before, after, index);
      if (units) indexes[index.indexName] = units;
    }
  }
  return {
    key,
    command,
    transactional,
    item,
    indexes,
    units: item + Object.values(indexes).reduce((a, b) => a + b, 0),
  };
}
