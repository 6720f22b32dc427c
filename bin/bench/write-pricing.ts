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
 * (test/unit/write-pricing.test.ts); test/support/dynamo-writes.ts feeds it the images of a request's writes,
 * bin/bench/heat-record.ts those of a whole sale (`indexWrites`: on which index partition each index write lands).
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

/** An index as priced: its keys and what it projects (absent: ALL, as TABLE_SCHEMA's indexes are declared). */
export interface IndexShape {
  indexName: string;
  partitionKey: string;
  sortKey: string;
  projection?: { type: 'ALL' | 'KEYS_ONLY' | 'INCLUDE'; attributes?: readonly string[] };
}

/**
 * The item as the index holds it: every attribute (ALL), the keys (KEYS_ONLY), or the keys and the listed ones
 * (INCLUDE). What makes an update free in an index: AWS writes to a GSI only when its keys or a projected attribute
 * change ("Provisioned throughput considerations for Global Secondary Indexes", Writes:
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.ThroughputConsiderations.Writes),
 * and sizes the index write by the index entry, the projected item.
 */
function projected(item: Item, index: IndexShape): Item {
  const { projection } = index;
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

/** One index's write of one item: the index partition it lands on (the index key's value) and its units. */
export interface IndexWrite {
  indexName: string;
  partition: string;
  units: number;
}

/**
 * What one item write costs each index, per index partition: a put where the key appears (on the new key's
 * partition), a delete where it goes (on the old one's), both when it moves, one write where it stays and a
 * projected attribute changed. Not yet doubled for a transaction.
 */
function indexPartitionWrites(before: Item | undefined, after: Item | undefined, index: IndexShape): IndexWrite[] {
  const keyed = (item: Item | undefined) =>
    item && item[index.partitionKey] !== undefined && item[index.sortKey] !== undefined ? item : undefined;
  const [from, to] = [keyed(before), keyed(after)];
  const size = (item: Item) => kilobytes(itemSize(projected(item, index)));
  const on = (item: Item, units: number): IndexWrite => ({
    indexName: index.indexName,
    partition: String(item[index.partitionKey]),
    units,
  });
  if (!from && !to) return [];
  if (!from) return [on(to!, size(to!))];
  if (!to) return [on(from, size(from))];
  const keyOf = (item: Item) => `${item[index.partitionKey]}|${item[index.sortKey]}`;
  if (keyOf(from) !== keyOf(to)) return [on(from, size(from)), on(to, size(to))];
  const [old, now] = [projected(from, index), projected(to, index)];
  if (JSON.stringify(sorted(old)) === JSON.stringify(sorted(now))) return [];
  return [on(to, Math.max(size(from), size(to)))];
}

/** Every index write of one item write, per index partition, doubled in a transaction (none for a ConditionCheck). */
export function indexWrites(
  before: Item | undefined,
  after: Item | undefined,
  transactional: boolean,
  conditionCheck = false,
  indexes: readonly IndexShape[] = TABLE_SCHEMA.globalIndexes,
): IndexWrite[] {
  if (conditionCheck) return [];
  const times = transactional ? 2 : 1;
  return indexes.flatMap((index) =>
    indexPartitionWrites(before, after, index).map((write) => ({ ...write, units: times * write.units })),
  );
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
  shapes: readonly IndexShape[] = TABLE_SCHEMA.globalIndexes,
): ItemWrite {
  const times = transactional ? 2 : 1;
  const item = times * kilobytes(Math.max(before ? itemSize(before) : 0, after ? itemSize(after) : 0));
  const indexes: Record<string, number> = {};
  for (const write of indexWrites(before, after, transactional, conditionCheck, shapes))
    indexes[write.indexName] = (indexes[write.indexName] ?? 0) + write.units;
  return {
    key,
    command,
    transactional,
    item,
    indexes,
    units: item + Object.values(indexes).reduce((a, b) => a + b, 0),
  };
}
