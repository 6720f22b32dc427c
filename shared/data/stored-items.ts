import * as z from '../schema.ts';

/**
 * How an item the table returns becomes a value: through its entity's schema, checked (shared/data/README.md "How an
 * entity is read"). Apart from the client, which writes and reads items without knowing their entities.
 */

/**
 * Our own data is not what its entity says (an attribute missing or of another type): a bug or a bad migration, never
 * the client's doing, so it is no AppError but a 500 with the request id, logged with the item's keys and the issues.
 */
export class StoredItemInvalid extends Error {
  constructor(
    readonly entity: string,
    readonly key: { PK: unknown; SK: unknown },
    readonly issues: string,
  ) {
    super(`Stored ${entity} ${String(key.PK)} / ${String(key.SK)} is invalid: ${issues}`);
    this.name = 'StoredItemInvalid';
  }
}

/**
 * A stored item as its entity: the attributes its schema names, checked (the table's keys, index keys and the entity
 * tag, which no entity schema names, are dropped with any other attribute). The one way an item becomes a value:
 * each entity's `fromItem` calls it with the entity's schema, and a missing or mistyped attribute throws
 * StoredItemInvalid naming the item. Each item is parsed once where it is read (ticket-records.ts has the figure).
 */
export function parseItem<S extends z.ZodMiniType>(
  schema: S,
  item: Record<string, unknown>,
  entity: string,
): z.output<S> {
  const parsed = schema.safeParse(item);
  if (parsed.success) return parsed.data;
  throw new StoredItemInvalid(
    entity,
    { PK: item.PK, SK: item.SK },
    z.prettifyError(parsed.error).replaceAll('\n', ' '),
  );
}

const CountMap = z.lazy(() => z.record(z.string(), z.number()));

/**
 * The map of counts an item keeps under `name` (a statistics shard's `listed` or `checkedIn`), checked as parseItem
 * checks an entity; empty when the item has none yet (a map is made by the first count moved into it).
 */
export function countMap(item: Record<string, unknown>, name: string, entity: string): Record<string, number> {
  if (item[name] === undefined) return {};
  const parsed = CountMap.safeParse(item[name]);
  if (parsed.success) return parsed.data;
  throw new StoredItemInvalid(entity, { PK: item.PK, SK: item.SK }, `${name}: ${z.prettifyError(parsed.error)}`);
}

/**
 * An entity's stored schema, held to name every field of the entity: z.object drops an attribute its schema does not
 * name, so a field left out here would vanish on read; this makes it a type error instead (`Property 'x' is missing`).
 */
export const storedSchema =
  <T>() =>
  <S extends z.ZodMiniType<T>>(schema: S & Record<Exclude<keyof T, keyof z.output<S>>, never>): S =>
    schema;
