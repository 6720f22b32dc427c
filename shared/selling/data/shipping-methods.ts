import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { now } from '../../clock.ts';
import {
  MAX_SHIPPING_METHODS,
  type NewShippingMethod,
  type ShippingMethod,
  type ShippingMethodPatch,
  ShippingMethodResource,
} from '../domain/shipping-method.ts';
import * as z from '../../schema.ts';
import { Conflict, NotFound } from '../../errors.ts';
import type { Page } from '../../domain/paging.ts';
import {
  batchGet,
  db,
  MAX_TRANSACTION_ITEMS,
  queryPages,
  tableName,
  transactWrite,
  labelled,
  TransactionCancelled,
} from '../../data/client.ts';
import { parseItem } from '../../data/stored-items.ts';
import { allocateIds, countDelta, readCount } from '../../data/counters.ts';
import { keys } from '../../data/keys.ts';
import { keyCondition } from '../../data/key-conditions.ts';

/**
 * Shipping methods: one item each, all in the GSI1 partition `SHIPPING_METHODS` (a
 * small, organiser-managed set) so lists are one Query. `COUNT#SHIPPING_METHOD` is kept
 * in step by every create and delete transaction and answers `totalCount`; a create's
 * transaction holds it to MAX_SHIPPING_METHODS, so no read of the partition passes that.
 */
const SEQUENCE = 'SHIPPING_METHOD';
const COUNT = 'SHIPPING_METHOD';
/** TransactWriteItems takes 100 actions; one is the count update. */
const PUTS_PER_TRANSACTION = MAX_TRANSACTION_ITEMS - 1;

const toItem = (method: ShippingMethod) => ({
  ...keys.shippingMethod(method.id),
  ...keys.shippingMethodIndexes(method.id),
  entity: 'ShippingMethod',
  nameSearch: method.name.toLowerCase(),
  ...method,
});

// DynamoDB returns attributes in no particular order; parsing answers them in the answer schema's.
const ShippingMethodItem = z.lazy(() => z.object(ShippingMethodResource.shape));
const fromItem = (item: Record<string, unknown>): ShippingMethod =>
  parseItem(ShippingMethodItem, item, 'shipping method');

const notFound = (id: number) => new NotFound('Shipping method', id);

export async function getShippingMethod(id: number): Promise<ShippingMethod> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.shippingMethod(id) }));
  if (!Item) throw notFound(id);
  return fromItem(Item);
}

/**
 * Lists by id; `name` narrows to names containing it (case-insensitive). Without a
 * search the count item gives the total, so only the first offset+limit items are read;
 * a search counts its matches among every method, so it reads them all: at most
 * MAX_SHIPPING_METHODS items (the cap creates keep), and never more whatever the count says.
 */
export async function listShippingMethods(query: {
  name?: string;
  limit: number;
  offset: number;
}): Promise<Page<ShippingMethod>> {
  const search = query.name?.trim().toLowerCase();
  const total = search ? undefined : readCount(COUNT);
  const read = await queryPages(
    { TableName: tableName(), ...keyCondition(keys.shippingMethodList) },
    search ? MAX_SHIPPING_METHODS : Math.min(query.offset + query.limit, MAX_SHIPPING_METHODS),
  );
  // Matched here, not by a FilterExpression: DynamoDB reads (and bills) the same items either way, and a filtered
  // Query's Limit would count items before the filter.
  const items = search ? read.filter((item) => String(item.nameSearch).includes(search)) : read;
  return {
    totalCount: total ? await total : items.length,
    limit: query.limit,
    offset: query.offset,
    items: items.slice(query.offset, query.offset + query.limit).map(fromItem),
  };
}

/** Reads shipping methods by id (batch-read); missing ids are absent from the map. */
export async function readShippingMethods(ids: number[]): Promise<Map<number, ShippingMethod>> {
  const items = await batchGet([...new Set(ids)].map((id) => keys.shippingMethod(id)));
  return new Map(items.flatMap((item) => (item ? [[Number(item.id), fromItem(item)] as const] : [])));
}

/**
 * A create that would pass MAX_SHIPPING_METHODS: 409, nothing of its transaction written. `created`: what a bulk
 * create's earlier transactions made before a later one found no room (another create took it meanwhile); those stay.
 */
export class TooManyShippingMethods extends Conflict {
  constructor(readonly created: ShippingMethod[] = []) {
    super(
      `At most ${MAX_SHIPPING_METHODS} shipping methods may exist: delete one before creating more.`,
      'too_many_shipping_methods',
    );
  }
}

/**
 * Creates the methods (ids allocated in one step), each put and the count in one transaction per 99. The first
 * transaction makes room for all of them or none (the count's condition), each later one for its own.
 */
export async function createShippingMethods(inputs: NewShippingMethod[]): Promise<ShippingMethod[]> {
  if (inputs.length === 0) return [];
  const firstId = await allocateIds(SEQUENCE, inputs.length);
  const stamp = now().toISOString();
  const created = inputs.map((input, index) => ({ ...input, id: firstId + index, created: stamp, updated: stamp }));
  for (let start = 0; start < created.length; start += PUTS_PER_TRANSACTION) {
    const chunk = created.slice(start, start + PUTS_PER_TRANSACTION);
    const count = countDelta(COUNT, chunk.length);
    try {
      await transactWrite([
        ...chunk.map((method) => ({
          Put: { TableName: tableName(), Item: toItem(method), ConditionExpression: 'attribute_not_exists(PK)' },
        })),
        labelled('count', {
          Update: {
            ...count.Update,
            ConditionExpression: 'attribute_not_exists(#total) OR #total <= :room',
            ExpressionAttributeValues: {
              ...count.Update.ExpressionAttributeValues,
              ':room': MAX_SHIPPING_METHODS - (start === 0 ? created.length : chunk.length),
            },
          },
        }),
      ]);
    } catch (error) {
      if (error instanceof TransactionCancelled && error.conditionFailed('count'))
        throw new TooManyShippingMethods(created.slice(0, start));
      throw error;
    }
  }
  return created;
}

export async function createShippingMethod(input: NewShippingMethod): Promise<ShippingMethod> {
  const [created] = await createShippingMethods([input]);
  return created!;
}

export async function updateShippingMethod(id: number, patch: ShippingMethodPatch): Promise<ShippingMethod> {
  const changes: Record<string, unknown> = { ...patch, updated: now().toISOString() };
  if (patch.name !== undefined) changes.nameSearch = patch.name.toLowerCase();
  const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.shippingMethod(id),
        UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return fromItem(Attributes!);
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw notFound(id);
    throw error;
  }
}

/**
 * Deletes the given methods and moves the count by the number deleted, in one
 * transaction per 99. Answers the deleted methods as they were just before; ids that
 * did not exist (or vanished meanwhile) are left out, so the caller reports them.
 */
export async function deleteShippingMethods(ids: number[]): Promise<Map<number, ShippingMethod>> {
  const existing = await readShippingMethods(ids);
  const deleted = new Map<number, ShippingMethod>();
  let pending = [...existing.keys()];
  while (pending.length) {
    const chunk = pending.slice(0, PUTS_PER_TRANSACTION);
    try {
      await transactWrite([
        ...chunk.map((id) =>
          labelled(String(id), {
            Delete: {
              TableName: tableName(),
              Key: keys.shippingMethod(id),
              ConditionExpression: 'attribute_exists(PK)',
            },
          }),
        ),
        countDelta(COUNT, -chunk.length),
      ]);
      for (const id of chunk) deleted.set(id, existing.get(id)!);
      pending = pending.slice(chunk.length);
    } catch (error) {
      // Someone deleted some of them first: drop those and try the rest again.
      if (!(error instanceof TransactionCancelled)) throw error;
      const gone = new Set(chunk.filter((id) => error.conditionFailed(String(id))));
      if (gone.size === 0) throw error;
      pending = pending.filter((id) => !gone.has(id));
    }
  }
  return deleted;
}

export async function deleteShippingMethod(id: number): Promise<ShippingMethod> {
  const deleted = (await deleteShippingMethods([id])).get(id);
  if (!deleted) throw notFound(id);
  return deleted;
}
