import type { GlobalIndexName } from './table-schema.ts';

/**
 * The generic key machinery every declaration in keys.ts is read and written through: a
 * partition (of the table or of one GSI), the key condition of a Query on it, and the
 * attributes that place an item in index partitions. Apart from keys.ts so that file is
 * only the declarations, one entry per access pattern. The one place a Query's key
 * condition is written (test/unit/key-declarations.test.ts counts it with keys.ts).
 */

/** Where a Query reads: a partition of the table (no index) or of one GSI. */
export interface Partition {
  readonly index?: GlobalIndexName;
  readonly value: string;
}

/** The key attribute names a partition is read by: `PK`/`SK`, or the index's pair. */
export const keyAttributes = ({ index }: Partition) =>
  index ? { partition: `${index}PK`, sort: `${index}SK` } : { partition: 'PK', sort: 'SK' };

/** The attributes that put an item into index partitions, each at its sort key. */
export function placedIn(...places: [Partition, string][]): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const [partition, sort] of places) {
    if (!partition.index)
      throw new Error(`${partition.value} is a table partition; items are placed in index partitions only.`);
    const names = keyAttributes(partition);
    attributes[names.partition] = partition.value;
    attributes[names.sort] = sort;
  }
  return attributes;
}

/** A sort-key condition: bounds are inclusive (`from`, `to`, `between`) or exclusive (`after`, `before`). */
export type SortCondition =
  | { equals: string }
  | { beginsWith: string }
  | { between: readonly [string, string] }
  | { from: string }
  | { to: string }
  | { after: string }
  | { before: string };

const COMPARISONS = { equals: '=', from: '>=', to: '<=', after: '>', before: '<' } as const;

/**
 * Every key that starts with `prefix`, as an inclusive range: the highest code point after it
 * (DynamoDB orders keys by their UTF-8 bytes; no key here holds U+10FFFF, a noncharacter).
 */
export const prefixRange = (prefix: string): readonly [string, string] => [prefix, `${prefix}\u{10FFFF}`];

/**
 * The key part of every Query (`IndexName`, `KeyConditionExpression` and its values): the
 * partition and an optional sort condition. Values are `:keyPartition`, `:keySort` and
 * `:keySortEnd`, so a caller's own filter values never collide with them.
 */
export function keyCondition(partition: Partition, sort?: SortCondition) {
  const names = keyAttributes(partition);
  const values: Record<string, string> = { ':keyPartition': partition.value };
  let condition = `${names.partition} = :keyPartition`;
  // A prefix is sent as the range it names: DynamoDB reads both alike, but DynamoDB Local answers
  // `begins_with` by reading the whole partition (43 ms against 3.6 ms at 50,000 items), which
  // made every prefix Query of a big event's partition (its position blocks) cost its size here.
  const range = sort && 'beginsWith' in sort ? { between: prefixRange(sort.beginsWith) } : sort;
  if (range && 'between' in range) {
    Object.assign(values, { ':keySort': range.between[0], ':keySortEnd': range.between[1] });
    condition += ` AND ${names.sort} BETWEEN :keySort AND :keySortEnd`;
  } else if (range) {
    const [kind, value] = Object.entries(range)[0] as [keyof typeof COMPARISONS, string];
    values[':keySort'] = value;
    condition += ` AND ${names.sort} ${COMPARISONS[kind]} :keySort`;
  }
  return {
    ...(partition.index ? { IndexName: partition.index } : {}),
    KeyConditionExpression: condition,
    ExpressionAttributeValues: values,
  };
}
/** A key condition with the caller's own filter values beside its key values. */
export const withValues = <T extends { ExpressionAttributeValues: Record<string, unknown> }>(
  key: T,
  values: Record<string, unknown>,
) => ({
  ...key,
  ExpressionAttributeValues: { ...key.ExpressionAttributeValues, ...values },
});
