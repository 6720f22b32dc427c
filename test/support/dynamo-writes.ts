import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { commandTally } from './command-tally.ts';
import { type Key, plannedWrites } from '../../bin/bench/written-keys.ts';
import { type DynamoWrites, type Item, priceWrite } from './write-pricing.ts';

/**
 * Counts the write units a request costs by AWS's published rules, from the items it
 * changed (DynamoDB Local's `ConsumedCapacity` reports transactions at 4×, so it is not
 * used). An SDK middleware on the one shared DocumentClient reads each written item
 * before and after the call (strongly consistent) and prices the difference
 * (bin/bench/write-pricing.ts).
 */
/** A client of its own (same endpoint, from the environment): its reads are neither counted nor faulted. */
let reader: DynamoDBDocumentClient | undefined;

/** An item as stored now, read by a client of its own: neither counted nor faulted. */
export async function storedItem(key: Key): Promise<Item | undefined> {
  reader ??= DynamoDBDocumentClient.from(new DynamoDBClient({}));
  const { Item } = await reader.send(
    new GetCommand({ TableName: process.env.TABLE_NAME, Key: key, ConsistentRead: true }),
  );
  return Item;
}

const tally = commandTally<DynamoWrites>('testDynamoWrites', async (writes, command, input, send) => {
  const planned = plannedWrites(command, input);
  if (!planned.length) return send();
  const before = await Promise.all(planned.map(({ key }) => storedItem(key)));
  const result = await send();
  const after = await Promise.all(planned.map(({ key }) => storedItem(key)));
  planned.forEach(({ key, transactional, conditionCheck }, n) => {
    const write = priceWrite(`${key.PK} ${key.SK}`, command, transactional, before[n], after[n], conditionCheck);
    writes.items.push(write);
    writes.units += write.units;
  });
  return result;
});

/**
 * Runs `work` and answers the write units of what it wrote. Only writes that succeeded
 * are priced (a refused one throws through). Calls must not overlap, and nothing else
 * may write the same items meanwhile (the images would mix).
 */
export async function countWrites<T>(work: () => Promise<T>): Promise<{ result: T; writes: DynamoWrites }> {
  const { result, tally: writes } = await tally({ units: 0, items: [] }, work);
  return { result, writes };
}

/** One line per item written, for a failing assertion's message. */
export const describeWrites = (writes: DynamoWrites): string =>
  writes.items
    .map(
      (w) =>
        `${w.units.toString().padStart(3)}  ${w.key}  (item ${w.item}${Object.entries(w.indexes)
          .map(([name, units]) => `, ${name} ${units}`)
          .join('')})`,
    )
    .join('\n');
